#ifndef MENURANK_CCURL_SHIM_H
#define MENURANK_CCURL_SHIM_H
#include <curl/curl.h>
/* curl_easy_setopt and curl_easy_getinfo are variadic; expose typed forms Swift can call. */
static inline CURLcode menurank_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode menurank_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode menurank_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*menurank_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode menurank_curl_setopt_write(CURL *handle, menurank_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode menurank_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode menurank_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
#endif
