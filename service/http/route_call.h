/* route_call.h: what a route's handler gets (routes.c has matched the path,
 * checked who may call and read the body before it runs) and the few
 * things a handler may still read from the request itself: its query
 * string and its preferences. */
#ifndef SERVICE_HTTP_ROUTE_CALL_H
#define SERVICE_HTTP_ROUTE_CALL_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "auth/caller.h"
#include "http/answer.h"
#include "http/path.h"
#include "store/db.h"

/* One request as its handler sees it; everything is borrowed for the
 * handler's call. */
typedef struct route_call {
    struct MHD_Connection *conn;
    const path_params *params; /* match id, seat, other id */
    const caller *who;         /* NULL when the route is public (or an
                                  optional signature was not given) */
    const json_t *request;     /* the JSON body, when the route takes one */
    const char *body;          /* the raw body (imports) */
    size_t body_len;
    const uint8_t *new_key; /* a registration's key (32 bytes), or NULL */
    /* How the handler may wait without holding its thread (a move for its
     * commit: answer.h's later), or NULL: it blocks. */
    const db_waiter *waiter;
} route_call;

/* A handler calls one use case and fills *out with its answer. */
typedef void route_handler(const route_call *call, answer *out);

/* The query argument name (decoded), or NULL when absent. */
const char *route_query(const route_call *call, const char *name);

/* The query argument name as a number >= 0, fallback when absent; sets
 * *bad when it is present but not such a number. */
long long route_query_number(const route_call *call, const char *name,
                             long long fallback, bool *bad);

/* RFC 7240: whether the request asks for "Prefer: return=representation"
 * (among other preferences, in any case, in any of several Prefer
 * headers). */
bool route_prefers_representation(const route_call *call);

#endif
