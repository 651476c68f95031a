/* matches_internal.h: what matches.c shares with the other match use
 * cases (decisions, repair, import, deadlines, vacations, nudges). Not for
 * the HTTP layer or the stores. */
#ifndef SERVICE_MATCHES_INTERNAL_H
#define SERVICE_MATCHES_INTERNAL_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "play/matches.h"
#include "rules.h"
#include "store/store.h"

/* pending as {"wait", "seats", "prompt", "decision", "committed"} (new
 * reference): seats of a sealed decision that have committed (a bit per
 * seat in committed) are listed under "committed", not "seats". */
json_t *matches_pending_json(const rules_pending *pending, uint32_t committed);

/* Who must act in state: the engine's answer, or nobody once an admin has
 * aborted the match or it ended by forfeit (finished while its rules still
 * wait). */
void matches_pending(const store_match *match, const rules_engine *engine,
                     const rules_state *state, rules_pending *pending);

/* The match's secret seed, decrypted, in hex: what the event that ends a
 * match reveals so anyone can replay every shuffle. 500 when this
 * service's key file cannot open it. */
bool matches_reveal_seed(const store_match *match,
                         char hex[2 * SEAL_SEED_BYTES + 1], apierr *err);

/* Lower-case hex of len bytes into out (2*len+1 bytes). */
void matches_hex(const uint8_t *bytes, size_t len, char *out);

/* The public description of a match; state may be NULL (not started). */
json_t *matches_describe(const store_match *match, const rules_engine *engine,
                         const rules_state *state);

/* True when the match is being played; false with err filled (409
 * "aborted" with a sentence saying so, else "not_in_play"). */
bool matches_in_play(const store_match *match, apierr *err);

/* The seat player_id holds in match, or -1. */
int matches_seat_of(const store_match *match, long long player_id);

/* The action a request body asks for: {"action": {...}} or {"move": "text"}
 * (new reference), or NULL with err filled (400/422). */
json_t *matches_requested_action(const json_t *body, const rules_engine *engine,
                                 const rules_state *state, int seat,
                                 apierr *err);

/* Outbox rows for every seat that must act in state (or all seats when the
 * match is over), about event match->head_seq. */
bool matches_notify_pending(PGconn *conn, const store_match *match,
                            const rules_engine *engine,
                            const rules_state *state, apierr *err);

/* Appends count events (borrowed) that brought the match to state, inside
 * the caller's transaction: adds the "finished" event revealing the seed
 * when state is over (*over set), queues notifications for whoever must act
 * now when notify is true (false when who must act has not changed), moves
 * the deadline clocks (deadlines.h), and saves a snapshot every
 * MATCHES_SNAPSHOT_EVERY events. */
bool matches_append_play(PGconn *conn, store_match *match,
                         const rules_engine *engine, const rules_state *state,
                         json_t *const *events, int count, bool notify,
                         bool *over, apierr *err);

/* Ends the match because the seats in forfeited (a bit per seat) let a
 * deadline pass under the "forfeit" action: appends events (borrowed: the
 * timeout and forfeited events) and a "finished" event whose result is
 * forfeit_result (forfeit.h), tells every seat, and closes the clocks;
 * inside the caller's transaction. */
bool matches_append_forfeit(PGconn *conn, store_match *match,
                            const rules_engine *engine,
                            const rules_state *state, json_t *const *events,
                            int count, uint32_t forfeited, apierr *err);

#endif
