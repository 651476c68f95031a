/* deadlines.h: the deadline rows of matches played with deadlines
 * (deadline_settings.h), and of every match whose rules bound a wait in
 * time (rule_windows.h). A row says which seat must act by when: one per
 * (match, seat, what is awaited): the turn it has had to take since event
 * N, its commitment or reveal in decision D, or its answer in a window the
 * rules leave open for a while (whether or not the match has deadline
 * options; such a seat has no turn clock for that wait). Rows are opened
 * and closed in the same transaction as the append that changes who must
 * act, so they survive restarts and every process sees the same clocks;
 * the deadline worker (deadline_worker.h) fires them. Times are match time
 * (clock.h), unix seconds; the arithmetic is deadline_math.h's. */
#ifndef SERVICE_DEADLINES_DEADLINES_H
#define SERVICE_DEADLINES_DEADLINES_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "deadlines/deadline_math.h"
#include "rules.h"
#include "store/matches.h"

/* One row, as the worker and the actions need it. */
typedef struct deadline_row {
    long long match_id;
    long long deadline_id;
    int seat;
    char kind[8];      /* turn | commit | reveal | window */
    char decision[64]; /* commit and reveal: the decision id */
    char window[64];   /* window: the rules' id of the window */
    long long opened_seq;
    long long started_at;
    deadline_budget budget;
    deadline_times times;
    bool reminded;
    bool fired;
} deadline_row;

/* The window the rules leave open in state (rules.h window): true with
 * *out filled when some seats wait in one; false (and *out zeroed) for an
 * engine without windows or when none is open. Pure. */
bool deadlines_window_open(const rules_engine *engine, const rules_state *state,
                           rules_window *out);

/* After an append, inside its transaction (match at its new head, state
 * the rules state there): closes the rows of seats that no longer must act
 * (charging the time bank for a late move) and opens one for each seat
 * that now must act, its times planned around its player's vacations; a
 * seat in a rules' window gets a window row instead, lasting as long as
 * the rules say from when it began to wait in that window. A finished
 * match closes every row. Nothing happens for a match without deadlines
 * whose engine has no windows. */
bool deadlines_sync(PGconn *conn, const store_match *match,
                    const rules_engine *engine, const rules_state *state,
                    apierr *err);

/* Reads one row (false with err 404 when there is none). */
bool deadlines_get(PGconn *conn, long long match_id, long long deadline_id,
                   deadline_row *row, apierr *err);

/* Records that the row's action was applied at now with outcome (an
 * action name), and uses up the time bank the row had. The row is closed
 * unless keep_current (notify_admins: it stays current, so it fires once,
 * until the seat acts). */
bool deadlines_mark_fired(PGconn *conn, const deadline_row *row,
                          const char *outcome, bool keep_current, long long now,
                          apierr *err);

/* Records that the row's reminder was queued at now. */
bool deadlines_mark_reminded(PGconn *conn, const deadline_row *row,
                             long long now, apierr *err);

/* The clocks of a match for its public view, one entry per seated seat:
 * {"seat", "time_bank_seconds", "vacations": [{"from", "until"}],
 *  "waiting": {"for": turn|commit|reveal|window, "decision"?, "since",
 *  "reminder_at"?, "due_at", "grace_until", "fires_at", "reminded",
 *  "fired"} (only while it must act)}. A new array, or NULL with err
 * filled. */
json_t *deadlines_describe(PGconn *conn, const store_match *match, apierr *err);

/* After a player's vacations changed (inside that transaction): every
 * current row of theirs that has not fired is planned again (window rows
 * excepted: a vacation stops the player's clocks, not the rules' time). */
bool deadlines_replan_player(PGconn *conn, long long player_id, apierr *err);

/* The seats that forfeited a match, from its log's "forfeited" events (a
 * bit per seat in *seats). */
bool deadlines_forfeited(PGconn *conn, long long match_id, uint32_t *seats,
                         apierr *err);

#endif
