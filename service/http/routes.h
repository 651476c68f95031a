/* routes.h: a complete request's answer. One table (routes.c) says, for
 * every method and path pattern, who may call, whether the body is JSON,
 * how a retried request meets its first answer, and which handler runs;
 * the same table names the route for metrics and logs. */
#ifndef SERVICE_HTTP_ROUTES_H
#define SERVICE_HTTP_ROUTES_H

#include <microhttpd.h>
#include <stddef.h>

#include "http/answer.h"

/* A request set aside: its handler waits for something (a move for its
 * commit) with the connection suspended, not holding its thread. */
typedef struct routes_later routes_later;

/* Fills *out (its body or stream is then the caller's to send) and
 * returns NULL; or sets the request aside: the connection is suspended,
 * and once libmicrohttpd resumes it and calls the handler again,
 * routes_resume gives the answer. url is libmicrohttpd's decoded path;
 * target the raw request target (signatures cover it); these and body
 * must live until the answer. */
routes_later *routes_handle(struct MHD_Connection *conn, const char *method,
                            const char *url, const char *target,
                            const char *body, size_t body_len, answer *out);

/* The answer of a request set aside, once resumed: fills *out as
 * routes_handle would have, and returns NULL (later freed). */
routes_later *routes_resume(routes_later *later, answer *out);

#endif
