/* routes.h: maps a complete request to its handler and its answer, and the
 * few helpers every handler (routes.c, admin_routes.c) ends with. */
#ifndef SERVICE_ROUTES_H
#define SERVICE_ROUTES_H

#include <jansson.h>
#include <microhttpd.h>
#include <stddef.h>

#include "core/apierr.h"
#include "ledger/httpsig.h"

typedef struct route_answer {
    int status;
    char *body;               /* malloc'd */
    const char *content_type; /* static */
    const char *route;        /* static route name, for metrics and logs */
    const char *preference_applied; /* static; RFC 7240 header, or NULL */
    long long retry_after;    /* seconds for a Retry-After header, or 0 */
    /* Instead of body, an answer written piece by piece as the client
     * reads it (exports): stream_read is called with stream until it
     * reports the end, then stream_free. */
    MHD_ContentReaderCallback stream_read;
    MHD_ContentReaderFreeCallback stream_free;
    void *stream;
} route_answer;

/* url is libmicrohttpd's decoded path; target the raw request target. */
void routes_handle(struct MHD_Connection *connection, const char *method,
                   const char *url, const char *target, const char *body,
                   size_t body_len, route_answer *answer);

/* An error answer in the one error shape. */
void routes_error(route_answer *answer, int status, const char *code,
                  const char *message);
void routes_answer_error(route_answer *answer, const apierr *err);

/* A JSON answer; value is stolen. */
void routes_answer_json(route_answer *answer, int status, json_t *value);

/* value (stolen) when not NULL, else the error. */
void routes_answer_result(route_answer *answer, int status, json_t *value,
                          const apierr *err);

/* The body as a JSON object (new reference), or NULL with err filled
 * (400). */
json_t *routes_parse_body(const char *body, size_t len, apierr *err);

/* The request as the signature checks see it (borrows everything). */
void routes_signed_request(struct MHD_Connection *conn, const char *method,
                           const char *target, const char *body, size_t len,
                           httpsig_request *req);

#endif
