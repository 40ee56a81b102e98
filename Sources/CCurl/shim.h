#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
   one typed wrapper per argument type we pass. */
static inline CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
typedef size_t (*ccurl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
static inline CURLcode ccurl_setopt_write_function(CURL *h, ccurl_data_callback f) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode ccurl_setopt_header_function(CURL *h, ccurl_data_callback f) { return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
static inline CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_getinfo_string(CURL *h, CURLINFO i, const char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline long ccurl_global_default(void) { return CURL_GLOBAL_DEFAULT; }
/* curl_multi_setopt is variadic too. */
static inline CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
/* CURLPIPE_MULTIPLEX and CURL_HTTP_VERSION_* are macros or enum members Swift may not see as longs. */
static inline long ccurl_pipe_multiplex(void) { return CURLPIPE_MULTIPLEX; }
static inline long ccurl_http_version_2tls(void) { return CURL_HTTP_VERSION_2TLS; }
static inline long ccurl_http_version_2(void) { return CURL_HTTP_VERSION_2_0; }
static inline long ccurl_http_version_3(void) { return CURL_HTTP_VERSION_3; }
/* CURLMsg's data is a union: the result of a finished transfer, read in C. */
static inline CURLcode ccurl_message_result(const CURLMsg *m) { return m->data.result; }
#endif
