/* append.h: the one way a change reaches a match.
 *
 * Every change to a match ends here, whatever door it came through: a
 * move, a join, a sealed decision (play/), a deadline's action or the end
 * of a rules' window (timers/), an admin's rewind, seat replacement or
 * abort, an import (admin/). Inside the caller's transaction,
 * append_events does, in this order:
 *   1. the "finished" event that reveals the seed, when the change ends
 *      the match (the rules say nobody must act, or seats forfeited);
 *   2. store_append: the events, hash-chained, at the head the caller read
 *      (a writer that lost a race gets 409 "stale_seq"), with the new
 *      match status; and the events told as sentences to the public and
 *      to each seat (play/event_log.h);
 *   3. outbox rows (notify/notify_outbox.h) for those the change concerns;
 *   4. the deadline rows (deadlines/deadlines.h) in step with who must act;
 *   5. a snapshot of the state every APPEND_SNAPSHOT_EVERY events;
 *   6. the metrics' count of appended events.
 * Then append_commit keeps the request's answer with its nonce
 * (play/retry.h) and commits. Nothing else in service/ calls
 * store_append, so these steps cannot drift apart between use cases. */
#ifndef SERVICE_PLAY_APPEND_H
#define SERVICE_PLAY_APPEND_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "auth/caller.h"
#include "core/apierr.h"
#include "ledger/seal.h"
#include "rules.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/reachability.h"
#include "store/store.h"

/* Snapshot every this many events. */
#define APPEND_SNAPSHOT_EVERY 32

/* At most this many events in one change (a sealed decision's reveals and
 * decision, a forfeit's timeouts for every seat, the finished event). */
#define APPEND_EVENTS_MAX (2 * STORE_MAX_SEATS + 4)

/* Whom the outbox tells about the change. */
typedef enum append_tell {
    APPEND_TELL_NOBODY,  /* who must act has not changed */
    APPEND_TELL_PENDING, /* whoever must act now; everyone when it ends */
    APPEND_TELL_SEATS,   /* whichever of .seats must act now (a seat's new
                            player, an import) */
    APPEND_TELL_ABORTED, /* every seat, with .reason: an admin aborted */
} append_tell;

/* One change to a match. */
typedef struct append_change {
    json_t *const *events;    /* borrowed; count of them (0: none) */
    int count;
    const rules_state *state; /* the rules state after the events; NULL
                                 for a match that has not started, or whose
                                 engine this build lacks */
    const rules_state *before; /* the rules state before the events, to
                                 tell what they did (event_log.h); NULL:
                                 read from the log when an event changes
                                 the state */
    const char *status;       /* the match's new status, or NULL: as it is
                                 ("finished" is set by step 1) */
    append_tell tell;
    uint32_t seats;           /* APPEND_TELL_SEATS: a bit per seat */
    const char *reason;       /* APPEND_TELL_ABORTED: the admin's words */
    uint32_t forfeited;       /* seats whose forfeit ends the match (a bit
                                 per seat; 0: none): the result is
                                 forfeit_result's (ledger/forfeit.h) */
    bool snapshot_now;        /* a snapshot at the new head whatever the
                                 count: replays start there (a rewind, an
                                 import) */
    store_reachability *reach; /* who can be notified, as read with the
                                 match (store_load_match_reachable) or kept
                                 with it (matchstate_recall); NULL or
                                 unknown: read here when the change tells
                                 whoever must act, and then kept in it when
                                 given. APPEND_TELL_SEATS reads it again. */
} append_change;

/* Appends change to match (moved to its new head) inside the caller's
 * transaction; *over (may be NULL) tells whether the change ended the
 * match. False with err filled: the caller rolls back. */
bool append_events(PGconn *conn, store_match *match,
                   const rules_engine *engine, const append_change *change,
                   bool *over, apierr *err);

/* Keeps answer (stolen) with the request's nonce, as its stored answer
 * for retries, and commits: returns answer, now the caller's again. On
 * failure rolls back, frees answer and returns NULL with err filled.
 * match may be NULL for a request that changed no match (an import). */
json_t *append_commit(PGconn *conn, const caller *who,
                      const store_match *match, int status, json_t *answer,
                      apierr *err);

/* append_commit for a request that may wait for its commit without
 * holding its thread (store/db.h db_commit_queue; waiter NULL: it
 * blocks). *answer stays the caller's: DB_COMMITTED; DB_FAILED (rolled
 * back, *answer freed and NULL, err filled); DB_QUEUED with *queued, for
 * append_commit_outcome once waiter->ready was called. */
int append_commit_queue(PGconn *conn, const caller *who,
                        const store_match *match, int status, json_t **answer,
                        const db_waiter *waiter, db_shared **queued,
                        apierr *err);

/* A queued commit's outcome: answer (stolen) when it committed, else NULL
 * with err filled and answer freed. Frees queued. */
json_t *append_commit_outcome(db_shared *queued, json_t *answer, apierr *err);

/* The match's secret seed, decrypted, in hex: what the event that ends a
 * match (finished, or an admin's abort) reveals so anyone can replay every
 * shuffle. 500 when this service's key file cannot open it. */
bool append_reveal_seed(const store_match *match,
                        char hex[2 * SEAL_SEED_BYTES + 1], apierr *err);

#endif
