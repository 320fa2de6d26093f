#ifndef MENURANK_CMICROHTTPD_SHIM_H
#define MENURANK_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
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
   (only valid without MHD_USE_THREAD_PER_CONNECTION in `flags`). */
static inline struct MHD_Daemon *menurank_mhd_start(
    unsigned int flags,
    const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit,
    unsigned int connection_timeout_seconds,
    unsigned int thread_pool_size)
{
    if (thread_pool_size > 1) {
        return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                                MHD_OPTION_SOCK_ADDR, address,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                                MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                                MHD_OPTION_UNESCAPE_CALLBACK, menurank_mhd_keep_escaped, NULL,
                                MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_UNESCAPE_CALLBACK, menurank_mhd_keep_escaped, NULL,
                            MHD_OPTION_END);
}

/* The port the daemon's listening socket is bound to (the real one when port 0 was asked for). */
static inline uint16_t menurank_mhd_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
