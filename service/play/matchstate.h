/* matchstate.h: a match's rules state at its head (or any earlier event),
 * rebuilt from the event log: an in-process cache keyed by (match, head
 * seq), else the latest snapshot plus the events after it, else setup from
 * the seed and every event that counts (replay.h: an admin's rewind undoes
 * the events it goes back over). The cache is only a cache: several
 * processes may serve one match. */
#ifndef SERVICE_PLAY_MATCHSTATE_H
#define SERVICE_PLAY_MATCHSTATE_H

#include <libpq-fe.h>

#include "core/apierr.h"
#include "rules.h"
#include "store/matches.h"
#include "store/reachability.h"

/* The engine a match was created with; 409 when this build's engine has
 * another version (the match would replay differently) or is missing. */
const rules_engine *matchstate_engine(const store_match *match, apierr *err);

/* Whether the match has a rules state: it has started (an open match has
 * not; an aborted one only if it was aborted after it started). */
bool matchstate_has_state(const store_match *match);

/* The state at match->head_seq (a new state the caller destroys), or NULL
 * with err filled. A match that has not started has no state: 409. */
rules_state *matchstate_load(PGconn *conn, const store_match *match,
                             const rules_engine *engine, apierr *err);

/* The state right after event upto (1 <= upto <= head) as the match stood
 * then; not cached. */
rules_state *matchstate_at(PGconn *conn, const store_match *match,
                           const rules_engine *engine, long long upto,
                           apierr *err);

/* The state after the first upto events of a log held in memory (an
 * import), from the match's sealed seed. With check_requests, text moves
 * are checked against their signed requests and a failure is a 422 naming
 * the event; otherwise a 500. */
rules_state *matchstate_from_log(const store_match *match,
                                 const rules_engine *engine,
                                 const json_t *events, long long upto,
                                 bool check_requests, apierr *err);

/* The engine seed of a match: its secret seed (decrypted with the service
 * key) mixed with each seat's join entropy. entropy_hex[s] may be NULL. */
bool matchstate_seed(const store_match *match, const char *const *entropy_hex,
                     uint8_t seed[RULES_SEED_BYTES], apierr *err);

/* Remembers state (cloned) as the state at (match_id, seq). */
void matchstate_remember(const rules_engine *engine, long long match_id,
                         long long seq, const rules_state *state);

/* Remembers state, which the cache owns from now on (the caller must not
 * use or destroy it), and the match row (copied) at match->head_seq: for a
 * row read from the database or written by this process at that head, so
 * a request naming that head can skip reading the match. Beside it, reach
 * (copied; NULL: not known): who could be notified in it. */
void matchstate_keep(const rules_engine *engine, const store_match *match,
                     const store_reachability *reach, rules_state *state);

/* How long a cached reading of who can be notified is used (for the same
 * seats, and while this process changed none of it): a change made through
 * another process reaches this one's notifications within this time. */
#define MATCHSTATE_REACHABILITY_MS 5000

/* The match row and its state as this process last saw them at exactly
 * (match_id, seq), as copies the caller frees (store_match_free,
 * engine->destroy), and who could be notified in it into *reach (may be
 * NULL); false when they are not cached. Head, status and seats change
 * only with events, so they are exact for seq; who can be notified is
 * not: *reach is the kept reading while store_reachability_current says
 * so (MATCHSTATE_REACHABILITY_MS), else it is unknown. Another process may
 * have moved the match past seq: a write from the copy relies on
 * store_append's head guard. */
bool matchstate_recall(long long match_id, long long seq, store_match *match,
                       store_reachability *reach, const rules_engine **engine,
                       rules_state **state);

void matchstate_forget_all(void);

#endif
