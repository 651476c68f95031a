/* rule_windows.h: the waits the rules themselves bound in time (rules.h
 * window), such as the "Can I have it?" window of Another Man's Treasure
 * (claim_window_hours). Each seat in such a window has a deadline row of
 * kind "window" (deadlines.h) in every match of the engine, whether or not
 * the match was created with deadline options; the deadline worker fires
 * it like any other row. When its time is up the seat passes, whatever
 * the match's deadline action: the rules, not the match's deadline
 * options, say what an unanswered window means. */
#ifndef SERVICE_TIMERS_RULE_WINDOWS_H
#define SERVICE_TIMERS_RULE_WINDOWS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "deadlines/deadlines.h"
#include "rules.h"
#include "store/matches.h"

/* Closes row's window for its seat at now, inside the deadline worker's
 * transaction, which holds the row and the match row locked (match at its
 * head, state the rules state there): marks the row fired ("pass") and
 * appends, through the normal append with its expected head, a public
 * "timeout" event of the seat {"reason", "action": "pass", "waiting_for":
 * "window", "due_at", "time_bank_used_seconds": 0, "moves": [the pass]}
 * that replays like any timeout. False with err filled (roll back) when
 * the seat is no longer in that window (409 "stale_deadline") or the rules
 * offer it no pass (500). */
bool rule_windows_close(PGconn *conn, const deadline_row *row, long long now,
                        store_match *match, const rules_engine *engine,
                        rules_state *state, apierr *err);

#endif
