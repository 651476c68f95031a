/* routes.h: a complete request's answer. One table (routes.c) says, for
 * every method and path pattern, who may call, whether the body is JSON,
 * how a retried request meets its first answer, and which handler runs;
 * the same table names the route for metrics and logs. */
#ifndef SERVICE_HTTP_ROUTES_H
#define SERVICE_HTTP_ROUTES_H

#include <microhttpd.h>
#include <stddef.h>

#include "http/answer.h"

/* Fills *out (its body or stream is then the caller's to send). url is
 * libmicrohttpd's decoded path; target the raw request target (signatures
 * cover it). */
void routes_handle(struct MHD_Connection *conn, const char *method,
                   const char *url, const char *target, const char *body,
                   size_t body_len, answer *out);

#endif
