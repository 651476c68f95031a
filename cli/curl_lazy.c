/* curl_lazy.c: see curl_lazy.h. */
#define CURL_DISABLE_TYPECHECK 1 /* these are the functions, not calls */
#include "curl_lazy.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sysexits.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} lib;

static pthread_once_t opened = PTHREAD_ONCE_INIT;

static void *symbol(void *handle, const char *name)
{
    void *found = dlsym(handle, name);
    if (found == NULL) {
        fprintf(stderr, "pbem: libcurl lacks %s: %s\n", name, dlerror());
        exit(EX_TEMPFAIL);
    }
    return found;
}

static void open_curl(void)
{
    void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "pbem: cannot load libcurl: %s\n", dlerror());
        exit(EX_TEMPFAIL);
    }
    /* Each function pointer written through a void * lvalue, as POSIX
     * says to take dlsym's answer (ISO C has no cast between them). */
    const struct {
        const char *name;
        void **into;
    } wanted[] = {
        {"curl_global_init", (void **)&lib.global_init},
        {"curl_easy_init", (void **)&lib.easy_init},
        {"curl_easy_cleanup", (void **)&lib.easy_cleanup},
        {"curl_easy_reset", (void **)&lib.easy_reset},
        {"curl_easy_setopt", (void **)&lib.easy_setopt},
        {"curl_easy_perform", (void **)&lib.easy_perform},
        {"curl_easy_getinfo", (void **)&lib.easy_getinfo},
        {"curl_easy_strerror", (void **)&lib.easy_strerror},
        {"curl_slist_append", (void **)&lib.slist_append},
        {"curl_slist_free_all", (void **)&lib.slist_free_all},
    };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        *wanted[i].into = symbol(h, wanted[i].name);
}

static void need(void)
{
    pthread_once(&opened, open_curl);
}

CURLcode curl_global_init(long flags)
{
    need();
    return lib.global_init(flags);
}

CURL *curl_easy_init(void)
{
    need();
    return lib.easy_init();
}

void curl_easy_cleanup(CURL *curl)
{
    need();
    lib.easy_cleanup(curl);
}

void curl_easy_reset(CURL *curl)
{
    need();
    lib.easy_reset(curl);
}

/* The one argument after option has the type the option's number says,
 * as libcurl itself reads it (CURLOPTTYPE_*). */
CURLcode curl_easy_setopt(CURL *curl, CURLoption option, ...)
{
    need();
    va_list args;
    va_start(args, option);
    CURLcode rc;
    if (option < CURLOPTTYPE_OBJECTPOINT)
        rc = lib.easy_setopt(curl, option, va_arg(args, long));
    else if (option < CURLOPTTYPE_FUNCTIONPOINT)
        rc = lib.easy_setopt(curl, option, va_arg(args, void *));
    else if (option < CURLOPTTYPE_OFF_T)
        rc = lib.easy_setopt(curl, option, va_arg(args, void (*)(void)));
    else if (option < CURLOPTTYPE_BLOB)
        rc = lib.easy_setopt(curl, option, va_arg(args, curl_off_t));
    else
        rc = lib.easy_setopt(curl, option, va_arg(args, void *));
    va_end(args);
    return rc;
}

CURLcode curl_easy_perform(CURL *curl)
{
    need();
    return lib.easy_perform(curl);
}

/* Every CURLINFO takes a pointer to where the answer goes. */
CURLcode curl_easy_getinfo(CURL *curl, CURLINFO info, ...)
{
    need();
    va_list args;
    va_start(args, info);
    void *into = va_arg(args, void *);
    va_end(args);
    return lib.easy_getinfo(curl, info, into);
}

const char *curl_easy_strerror(CURLcode code)
{
    need();
    return lib.easy_strerror(code);
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text)
{
    need();
    return lib.slist_append(list, text);
}

void curl_slist_free_all(struct curl_slist *list)
{
    need();
    lib.slist_free_all(list);
}
