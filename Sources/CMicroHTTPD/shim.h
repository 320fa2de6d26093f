#ifndef MENURANK_CMICROHTTPD_SHIM_H
#define MENURANK_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/*
 * MHD_start_daemon and MHD_get_daemon_info are variadic and cannot be called from Swift.
 * These helpers take fixed arguments and forward them.
 */

/* Leaves the URL path and query arguments exactly as received (still percent-encoded), so the
   Swift side can tell "/a%2Fb" from "/a/b" and decode each part itself. */
static inline size_t menurank_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

/* Starts a daemon bound to `address`. A `thread_pool_size` above 1 adds MHD_OPTION_THREAD_POOL_SIZE
   (only valid without MHD_USE_THREAD_PER_CONNECTION in `flags`). `per_address_limit` is
   MHD_OPTION_PER_IP_CONNECTION_LIMIT (0: none; menurank counts connections per address itself, so
   that a trusted proxy's are left out); `notify` (may be NULL) is the
   MHD_OPTION_NOTIFY_CONNECTION callback, called with `completed_context` when a connection
   starts and when it closes (before its socket is closed); `accept_policy` (may be NULL) is asked,
   with `completed_context`, whether to take each accepted socket before MHD counts it. */
static inline struct MHD_Daemon *menurank_mhd_start(
    unsigned int flags,
    const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit,
    unsigned int connection_timeout_seconds,
    unsigned int thread_pool_size,
    unsigned int per_address_limit,
    MHD_NotifyConnectionCallback notify,
    MHD_AcceptPolicyCallback accept_policy)
{
    struct MHD_OptionItem extra[3];
    int count = 0;
    if (thread_pool_size > 1) {
        extra[count].option = MHD_OPTION_THREAD_POOL_SIZE;
        extra[count].value = (intptr_t)thread_pool_size;
        extra[count].ptr_value = NULL;
        count++;
    }
    if (notify != NULL) {
        extra[count].option = MHD_OPTION_NOTIFY_CONNECTION;
        extra[count].value = (intptr_t)notify;
        extra[count].ptr_value = completed_context;
        count++;
    }
    extra[count].option = MHD_OPTION_END;
    extra[count].value = 0;
    extra[count].ptr_value = NULL;
    return MHD_start_daemon(flags, 0, accept_policy, completed_context, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_UNESCAPE_CALLBACK, menurank_mhd_keep_escaped, NULL,
                            MHD_OPTION_ARRAY, extra,
                            MHD_OPTION_END);
}

/* The connection's socket (-1 when MHD does not say). */
static inline int menurank_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The pointer stored in the connection's socket context when it started (NULL when none). */
static inline void *menurank_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* An IPv4 or IPv6 socket address's IP as text into `out` (IPv4-mapped IPv6 written as IPv4); 0
   when written, -1 for another family. */
static inline int menurank_sockaddr_text(const struct sockaddr *address, char *out, size_t size) {
    if (address == NULL) return -1;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return inet_ntop(AF_INET, &v4->sin_addr, out, (socklen_t)size) == NULL ? -1 : 0;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            return inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], out, (socklen_t)size) == NULL ? -1 : 0;
        }
        return inet_ntop(AF_INET6, &v6->sin6_addr, out, (socklen_t)size) == NULL ? -1 : 0;
    }
    return -1;
}

/* The connection's peer address as text (see menurank_sockaddr_text); -1 when MHD does not say. */
static inline int menurank_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return menurank_sockaddr_text(info->client_addr, out, size);
}

/* The size of the request's head in bytes, from its method to the end of the empty line after
   its header fields (0 when MHD does not say). */
static inline size_t menurank_mhd_request_head_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/* The port the daemon's listening socket is bound to (the real one when port 0 was asked for). */
static inline uint16_t menurank_mhd_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
