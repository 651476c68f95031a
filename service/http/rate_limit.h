/* rate_limit.h: token buckets, one per client (an address, or a key id),
 * in a table of fixed size.
 *
 * A bucket holds up to quota points and refills at quota points per window
 * seconds; a request takes its cost from its client's bucket or is refused
 * with how long until it would be served. The table never grows: clients
 * are hashed (with a key chosen at random per table, so nobody can aim many
 * names at one place) to a set of a few slots; a new client takes the slot
 * of a bucket that has refilled completely (forgetting it loses nothing: a
 * full bucket is what a new client gets) or else the one used least
 * recently. A flood of distinct addresses therefore costs a fixed amount
 * of memory and can only make the limit forget, never remember, too much.
 *
 * Pure and thread-safe: the caller says what time it is (milliseconds on
 * a clock that does not go back), so tests can move it. */
#ifndef SERVICE_HTTP_RATE_LIMIT_H
#define SERVICE_HTTP_RATE_LIMIT_H

#include <stdbool.h>
#include <stddef.h>

/* quota points per window seconds, both >= 1. */
typedef struct rate_budget {
    long long quota;
    long long window;
} rate_budget;

/* What became of one request. */
typedef struct rate_verdict {
    bool allowed;
    long long remaining;   /* whole points left after this request */
    long long reset;       /* seconds until the bucket is full again */
    long long retry_after; /* seconds until this cost would be served (0
                              when allowed) */
} rate_verdict;

typedef struct rate_limit rate_limit;

/* A table of at least slots buckets (rounded up to whole sets), each with
 * budget; aborts when out of memory. */
rate_limit *rate_limit_new(size_t slots, rate_budget budget);

void rate_limit_free(rate_limit *rl);

/* Takes cost points from client's bucket (client: any text up to 63
 * bytes; longer is cut) at now_ms: fills *verdict and returns whether the
 * request may go on. A refused request takes nothing. A cost above the
 * quota is taken as the whole quota, so it waits for a full bucket
 * rather than forever. */
bool rate_limit_take(rate_limit *rl, const char *client, long long cost,
                     long long now_ms, rate_verdict *verdict);

/* What rate_limit_take would answer, taking nothing. */
bool rate_limit_peek(rate_limit *rl, const char *client, long long cost,
                     long long now_ms, rate_verdict *verdict);

/* cost points as the microseconds of debt they add to a bucket (a cost
 * above the quota counts as the quota), for a bucket kept elsewhere. */
long long rate_limit_cost_us(const rate_limit *rl, long long cost);

/* Records what a bucket kept elsewhere (shared by several processes,
 * store/rate_buckets.h) answered about client: a request of cost allowed
 * or not, after which the bucket owes owed_us. The local bucket then owes
 * the same, so a client over its budget is refused here without asking
 * again until it has earned points back (the shared bucket owes at least
 * as much as the local one: every process's charges are in it). Fills
 * *verdict as rate_limit_take would have. */
void rate_limit_mirror(rate_limit *rl, const char *client, bool allowed,
                       long long owed_us, long long cost, long long now_ms,
                       rate_verdict *verdict);

/* The slots holding a client (at most the table's size). */
size_t rate_limit_count(rate_limit *rl);

/* The table's size in buckets. */
size_t rate_limit_slots(const rate_limit *rl);

#endif
