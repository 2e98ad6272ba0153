#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// libcurl fetches link previews (CONVENTIONS.md "C libraries").
//
// It is opened at the first preview (dlopen, RTLD_LOCAL), not linked: linked, it and its ~25
// dependencies (TLS, Kerberos, LDAP, SSH, IDN...) were loaded at every start of every process,
// and Swift's symbol lookups at start walk every loaded library, so each start paid for them
// (simplex-share --help: 42 ms linked; smp-server, without them: 14 ms). Without libcurl.so.4 a
// preview is simply not made.

typedef struct {
    CURL *(*init)(void);
    void (*cleanup)(CURL *);
    CURLcode (*perform)(CURL *);
    CURLcode (*setopt)(CURL *, CURLoption, ...);
    CURLcode (*getinfo)(CURL *, CURLINFO, ...);
} CCurl_Functions;

// Function-local statics: Swift's importer emits a header's inline functions, not its globals.
static inline CCurl_Functions *CCurl_storage(void) {
    static CCurl_Functions functions;
    return &functions;
}

static inline void CCurl_load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) return;
    CCurl_Functions functions = {
        (CURL * (*)(void)) dlsym(library, "curl_easy_init"),
        (void (*)(CURL *)) dlsym(library, "curl_easy_cleanup"),
        (CURLcode(*)(CURL *)) dlsym(library, "curl_easy_perform"),
        (CURLcode(*)(CURL *, CURLoption, ...)) dlsym(library, "curl_easy_setopt"),
        (CURLcode(*)(CURL *, CURLINFO, ...)) dlsym(library, "curl_easy_getinfo"),
    };
    if (functions.init && functions.cleanup && functions.perform && functions.setopt && functions.getinfo) {
        *CCurl_storage() = functions;
    }
}

/// libcurl's functions, or NULL when the library cannot be opened.
static inline const CCurl_Functions *CCurl_functions(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, CCurl_load);
    return CCurl_storage()->init ? CCurl_storage() : NULL;
}

/// A new easy handle, or NULL (no libcurl, or it failed).
static inline CURL *CCurl_init(void) {
    const CCurl_Functions *curl = CCurl_functions();
    return curl ? curl->init() : NULL;
}
// The others are called only with a handle CCurl_init gave, so libcurl is loaded.
static inline void CCurl_cleanup(CURL *handle) { CCurl_storage()->cleanup(handle); }
static inline CURLcode CCurl_perform(CURL *handle) { return CCurl_storage()->perform(handle); }

// curl_easy_setopt is variadic, which Swift cannot call: one wrapper per argument type.
static inline CURLcode CCurl_setLong(CURL *curl, CURLoption option, long value) {
    return CCurl_storage()->setopt(curl, option, value);
}
static inline CURLcode CCurl_setString(CURL *curl, CURLoption option, const char *value) {
    return CCurl_storage()->setopt(curl, option, value);
}
static inline CURLcode CCurl_setPointer(CURL *curl, CURLoption option, void *value) {
    return CCurl_storage()->setopt(curl, option, value);
}
typedef size_t (*CCurl_WriteFunction)(char *data, size_t size, size_t count, void *context);
static inline CURLcode CCurl_setWriteFunction(CURL *curl, CCurl_WriteFunction function) {
    return CCurl_storage()->setopt(curl, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode CCurl_getResponseCode(CURL *curl, long *code) {
    return CCurl_storage()->getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}
#endif
