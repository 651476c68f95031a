/* describe.h: what the views show of a match: its public description, who
 * must act, and a seat's own view with the moves it may make. Read-only:
 * nothing here changes a match. */
#ifndef SERVICE_PLAY_DESCRIBE_H
#define SERVICE_PLAY_DESCRIBE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "rules.h"
#include "store/matches.h"

/* pending as {"wait", "seats", "prompt", "decision", "committed",
 * "reveal"} (new reference): seats of a sealed decision that have
 * committed (a bit per seat in committed) are listed under "committed",
 * not "seats"; once every seat has, those whose own commitment is still
 * to be revealed (unrevealed) are listed under "reveal": the match waits
 * for them. */
json_t *describe_pending_json(const rules_pending *pending, uint32_t committed,
                              uint32_t unrevealed);

/* Who must act in state: the engine's answer, or nobody once an admin has
 * aborted the match or it ended by forfeit (finished while its rules still
 * wait). */
void describe_pending(const store_match *match, const rules_engine *engine,
                      const rules_state *state, rules_pending *pending);

/* Whether seat must act now in state: the rules wait for it, or it has
 * still to commit or, once every seat has committed, to reveal its choice
 * in a sealed decision (what "pending" lists under "seats" and "reveal").
 * False when the sealed choices cannot be read (a listing of matches goes
 * on without that mark). */
bool describe_seat_must_act(const store_match *match,
                            const rules_engine *engine,
                            const rules_state *state, int seat);

/* The public description of a match (no hidden information): a new
 * reference. engine may be NULL (this build lacks it), state NULL (not
 * started). NULL with err filled when what it reads beside the match (the
 * deadlines and clocks, the committed seats of a sealed decision, the
 * forfeits) cannot be read: a view must not say the match has no clock,
 * or that a committed seat is still to choose. */
json_t *describe_match(const store_match *match, const rules_engine *engine,
                       const rules_state *state, apierr *err);

/* What GET /view answers for seat: the match, the seat's view (also as a
 * person reads it, "text": notify/seat_text.h), the moves it may make
 * now, and "log": the latest EVENT_LOG_VIEW_MAX events told to that seat
 * (play/event_log.h), oldest first, with "since_seq", the seq of the
 * seat's own last action (0: none), so "since your last turn" is the
 * entries after it (new reference; the log is left out when it cannot
 * be read). state is NULL while the match waits for players. NULL with
 * err filled as describe_match. */
json_t *describe_seat_view(const store_match *match, const rules_engine *engine,
                           const rules_state *state, int seat, apierr *err);

/* What seat's action did, told to that seat ("You drew mask and blue5."):
 * before and after are the states around it. malloc'd, never NULL. */
char *describe_told(const store_match *match, const rules_engine *engine,
                    const rules_state *before, const rules_state *after,
                    int seat, const json_t *action);

#endif
