/* library_log.c */
#include "http/library_log.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/log.h"

/* One kind of message is one format string of the library's: the same
 * pointer each time. */
#define KINDS 64
#define SECONDS_PER_LINE 60

typedef struct kind {
    const char *fmt;
    long long last_line; /* monotonic seconds of its last line */
    long long left_out;  /* since that line */
} kind;

static kind kinds[KINDS];
static pthread_mutex_t kinds_lock = PTHREAD_MUTEX_INITIALIZER;

static long long now_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec;
}

/* A client that went away; or a stream that pbemd ended itself (its
 * client gone, found at a heartbeat; or its news unreadable, which
 * stream_routes.c logs in its own words). */
static bool needs_no_line(const char *text)
{
    return strstr(text, "closed by remote peer") != NULL ||
           strstr(text, "closed by remote side") != NULL ||
           strstr(text, "no longer available for sending") != NULL ||
           strstr(text, "detected connection closure") != NULL ||
           strstr(text, "Connection reset by peer") != NULL ||
           strstr(text, "application error generating response") != NULL;
}

/* Whether a line of fmt's kind is due now; *left_out says how many were
 * left out since the last one. A kind past the table's room always gets
 * its line: better a loud log than a lost message. */
static bool line_due(const char *fmt, long long *left_out)
{
    long long now = now_seconds();
    bool due = true;
    *left_out = 0;
    pthread_mutex_lock(&kinds_lock);
    for (int i = 0; i < KINDS; i++) {
        kind *k = &kinds[i];
        if (k->fmt != NULL && k->fmt != fmt)
            continue;
        if (k->fmt == NULL) {
            k->fmt = fmt;
            k->last_line = now;
        } else if (now - k->last_line < SECONDS_PER_LINE) {
            k->left_out++;
            due = false;
        } else {
            *left_out = k->left_out;
            k->left_out = 0;
            k->last_line = now;
        }
        break;
    }
    pthread_mutex_unlock(&kinds_lock);
    return due;
}

void library_log(void *cls, const char *fmt, va_list args)
{
    (void)cls;
    char text[512];
    vsnprintf(text, sizeof text, fmt, args);
    text[strcspn(text, "\r\n")] = '\0';
    long long left_out;
    if (text[0] == '\0' || needs_no_line(text) || !line_due(fmt, &left_out))
        return;
    if (left_out > 0)
        log_warn("http: %s (and %lld more like it since the last such line)",
                 text, left_out);
    else
        log_warn("http: %s", text);
}
