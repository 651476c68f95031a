/* library_log.h: libmicrohttpd's own messages, in the service's log.
 *
 * The library says something for many single connections: a request it
 * could not parse, a header too big, a client that closed its end. Each
 * is already answered (a 4xx) or over, and one line each would let any
 * scanner or any closed browser tab fill the log. So:
 *  - a client that went away (a tab closed on its event stream, a
 *    request left half sent, a reset) is everyday life: no line; nor is
 *    a stream pbemd ended itself, which says why where it matters;
 *  - any other message is a WARN line with the service's time and level,
 *    at most one a minute of each kind (each format the library uses);
 *    the next line of a kind says how many were left out before it. */
#ifndef SERVICE_HTTP_LIBRARY_LOG_H
#define SERVICE_HTTP_LIBRARY_LOG_H

#include <stdarg.h>

/* libmicrohttpd's MHD_OPTION_EXTERNAL_LOGGER callback (cls unused). */
void library_log(void *cls, const char *fmt, va_list args)
    __attribute__((format(printf, 2, 0)));

#endif
