/* rate_policy.h: who pays for a request, how much, and what the client is
 * told. Two budgets (rate_limit.h buckets), read once from the
 * environment:
 *
 *   anonymous  per client address (peers.h: behind a trusted proxy, the
 *              address it forwards for): requests without a signature,
 *              registrations (anyone can make a new key), and every
 *              request whose signature does not hold (it is charged to
 *              where it came from, not to the key it claims);
 *   player     per key id, for requests whose signature holds, so players
 *              who share an address (a household, a proxy) are not held
 *              back by each other or by anonymous load from it.
 *
 * Admin and mail-server requests that authenticate are not limited: only
 * the operator holds those keys.
 *
 * A request costs the points of its class: a read 1, a write more, and
 * the few routes that cost much CPU or make an account most (routes.c says
 * which). Past the budget the answer is 429 "rate_limited" with
 * Retry-After; every limited answer carries the IETF httpapi
 * RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-
 * headers-09, structured fields: `"anonymous";q=600;w=60` and
 * `"anonymous";r=570;t=3`).
 *
 * Each process keeps its own buckets unless PBEM_RATE_SHARED is on: then
 * the buckets live in PostgreSQL (store/rate_buckets.h), one statement
 * per limited request, and several pbemd behind one proxy hold a client
 * to the figure configured, not to that figure per process. The local
 * bucket mirrors the shared one, so a client already refused is refused
 * again without a statement; while the database cannot be reached the
 * local bucket alone decides.
 *
 * Configuration (core/config.h, docs/configuration.md):
 *   PBEM_RATE_ANONYMOUS  quota/window seconds per address, or "off"
 *   PBEM_RATE_PLAYER     quota/window seconds per key, or "off"
 *   PBEM_RATE_COSTS      e.g. "read=1,write=2,heavy=30", and a route's
 *                        own: "GET /v1/matches/{id}/events=5"
 *   PBEM_RATE_TABLE      buckets kept per budget (memory is fixed)
 *   PBEM_RATE_SHARED     1: the buckets hold across processes */
#ifndef SERVICE_HTTP_RATE_POLICY_H
#define SERVICE_HTTP_RATE_POLICY_H

#include <microhttpd.h>
#include <stdbool.h>

#include "http/answer.h"

typedef enum rate_class {
    RATE_READ,
    RATE_WRITE,
    RATE_HEAVY,
    RATE_CLASSES
} rate_class;

typedef enum rate_party {
    RATE_ANONYMOUS,
    RATE_PLAYER,
    RATE_PARTIES
} rate_party;

/* A request's charge, kept until its answer is labelled. */
typedef struct rate_ticket {
    bool taken;   /* a budget was charged (or is off) */
    bool limited; /* a budget applies: the answer carries its fields */
    rate_party party;
    long long remaining;
    long long reset;
} rate_ticket;

/* Reads the environment once (later calls do nothing); an unreadable
 * value is logged and its default used. Registers each route name's cost
 * for /metrics: call with every (route, class) before serving. */
void rate_policy_route(const char *route, rate_class cls);

/* Charges the request on conn (route, of cls) to party: the client's
 * address for RATE_ANONYMOUS, key_id for RATE_PLAYER. True when it may go
 * on; false with *out replaced by the 429. Either way *ticket remembers
 * the charge for rate_policy_label. */
bool rate_policy_take(struct MHD_Connection *conn, rate_party party,
                      const char *key_id, const char *route, rate_class cls,
                      rate_ticket *ticket, answer *out);

/* Writes ticket's RateLimit fields (and, refused, Retry-After) into out. */
void rate_policy_label(const rate_ticket *ticket, answer *out);

#endif
