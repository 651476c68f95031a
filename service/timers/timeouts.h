/* timeouts.h: what a deadline does when it comes (deadlines.h holds the
 * rows, deadline_worker.h decides when).
 *
 * A reminder is an outbox row to the seat (notify_outbox_remind). At the
 * deadline (due time + grace + what is left of the seat's time bank, which
 * is used up) the match's action applies, exactly once, as events appended
 * through the normal append with its expected head:
 *   - every action starts with a public "timeout" event of the seat:
 *     {"reason", "action", "waiting_for": turn|commit|reveal,
 *      "decision"?, "due_at", "time_bank_used_seconds", ...};
 *   - default_move: the seat's whole turn is played by the engine's
 *     default moves (rules.h default_move; the first legal move for an
 *     engine without one), listed in the timeout's "moves" and replayed
 *     from there; in a sealed decision the default choice is committed for
 *     the seat, sealed by the service like any plain move; a commitment
 *     that was never revealed is void and the default choice, published in
 *     the timeout's "choice", stands in for it;
 *   - skip: the same, but a pass (a listed {"type": "pass"}) is made
 *     wherever the rules offer one;
 *   - forfeit: a "forfeited" event for the seat (and for every other seat
 *     of the match whose deadline has come too) and a "finished" event
 *     whose result is forfeit_result (forfeit.h);
 *   - notify_admins: an outbox row for the admins; the game does not
 *     change and the seat's clock stays fired until it acts.
 * A window row (a wait the rules bound in time) is not the match's
 * deadline: whatever the action, the seat passes (rule_windows.h). */
#ifndef SERVICE_TIMERS_TIMEOUTS_H
#define SERVICE_TIMERS_TIMEOUTS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "deadlines/deadline_settings.h"
#include "deadlines/deadlines.h"
#include "rules.h"

/* At most this many moves are made for an absent seat in one turn. */
#define TIMEOUTS_MOVES_MAX 64

/* Queues the reminder of row and marks it sent, inside the worker's
 * transaction (which holds the row). */
bool timeouts_remind(PGconn *conn, const deadline_row *row, long long now,
                     apierr *err);

/* Applies the action of deadline (match_id, deadline_id) at now, inside
 * the worker's transaction, which holds the deadline row and the match row
 * locked. False with err filled when it cannot be applied (roll back). */
bool timeouts_fire(PGconn *conn, long long match_id, long long deadline_id,
                   long long now, apierr *err);

#endif
