#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

// libcurl fetches link previews for the share helper (CONVENTIONS.md "C libraries").
// curl_easy_setopt is variadic, which Swift cannot call: one wrapper per argument type.

static inline CURLcode CCurl_setLong(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode CCurl_setString(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode CCurl_setPointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
typedef size_t (*CCurl_WriteFunction)(char *data, size_t size, size_t count, void *context);
static inline CURLcode CCurl_setWriteFunction(CURL *curl, CCurl_WriteFunction function) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode CCurl_getResponseCode(CURL *curl, long *code) {
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}
#endif
