/* routes.h: maps a complete request to its handler and its answer. */
#ifndef SERVICE_ROUTES_H
#define SERVICE_ROUTES_H

#include <microhttpd.h>
#include <stddef.h>

typedef struct route_answer {
    int status;
    char *body;               /* malloc'd */
    const char *content_type; /* static */
    const char *route;        /* static route name, for metrics and logs */
    const char *preference_applied; /* static; RFC 7240 header, or NULL */
    long long retry_after;    /* seconds for a Retry-After header, or 0 */
} route_answer;

/* url is libmicrohttpd's decoded path; target the raw request target. */
void routes_handle(struct MHD_Connection *connection, const char *method,
                   const char *url, const char *target, const char *body,
                   size_t body_len, route_answer *answer);

/* An error answer in the one error shape. */
void routes_error(route_answer *answer, int status, const char *code,
                  const char *message);

#endif
