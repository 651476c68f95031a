/* event_tell.h: one event of a match's log told as sentences, to the
 * public and to each seat, with its outcome: a move, a timeout's moves and
 * a sealed decision's choices by the engine (rules_tell: "You drew mask
 * and blue5." to the drawer, "Bob drew 2 cards." to the others), the
 * service's own events in plain words ("Ann joined.", "Bob sealed a
 * secret choice."), and the end of a match with who won, the scores, why
 * it ended and the tie-break. Pure: no database; play/event_log.h keeps
 * what it tells. */
#ifndef SERVICE_PLAY_EVENT_TELL_H
#define SERVICE_PLAY_EVENT_TELL_H

#include <jansson.h>
#include <stdbool.h>

#include "rules.h"

/* Whether telling event needs the rules state before it (it changes the
 * state: a move, a timeout's moves, a decision's choices). */
bool event_tell_needs_state(const json_t *event);

/* Tells event (borrowed), number seq of its match, and appends its rows to
 * rows: {"seq", "viewer": -1, "seat": who acted or null, "text"} for the
 * public, then one row per seat whose sentence differs from the public
 * one (viewer: the seat). names holds the seats' names (seats of them).
 * When the event changes the state, state (may be NULL) is the state
 * before it and is moved on to the state after it; without a state
 * (engine NULL, or a state that could not be had) a move is told by its
 * notation as the event recorded it. A move the rules refuse leaves state
 * as it was and is told by its notation. */
void event_tell(const rules_engine *engine, rules_state *state,
                const json_t *event, long long seq, const char *const *names,
                int seats, json_t *rows);

/* The sentence of the end of a match told to viewer (a seat, or
 * RULES_SPECTATOR): who won by name and with what, the other scores, why it
 * ended and the tie-break, from result (borrowed, as result() or
 * forfeit_result() gives it). malloc'd; the caller frees it. */
char *event_tell_result(const json_t *result, int viewer,
                        const char *const *names, int seats);

#endif
