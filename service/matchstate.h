/* matchstate.h: a match's rules state at its head, rebuilt from the event
 * log: an in-process cache keyed by (match, head seq), else the latest
 * snapshot plus the events after it, else setup from the seed and every
 * move. The cache is only a cache: several processes may serve one match. */
#ifndef SERVICE_MATCHSTATE_H
#define SERVICE_MATCHSTATE_H

#include <libpq-fe.h>

#include "apierr.h"
#include "rules.h"
#include "store.h"

/* The engine a match was created with; 409 when this build's engine has
 * another version (the match would replay differently) or is missing. */
const rules_engine *matchstate_engine(const store_match *match, apierr *err);

/* The state at match->head_seq (a new state the caller destroys), or NULL
 * with err filled. An open match (not started) has no state: 409. */
rules_state *matchstate_load(PGconn *conn, const store_match *match,
                             const rules_engine *engine, apierr *err);

/* The engine seed of a match: its secret seed (decrypted with the service
 * key) mixed with each seat's join entropy. entropy_hex[s] may be NULL. */
bool matchstate_seed(const store_match *match, const char *const *entropy_hex,
                     uint8_t seed[RULES_SEED_BYTES], apierr *err);

/* Remembers state (cloned) as the state at (match_id, seq). */
void matchstate_remember(const rules_engine *engine, long long match_id,
                         long long seq, const rules_state *state);

void matchstate_forget_all(void);

#endif
