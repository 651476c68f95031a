/* deadlines.h: the rows of the deadline tables (migrations 006 and 008):
 * a match's deadline options (match_deadlines), the clocks of the seats
 * that must act (deadlines) and what is left of each seat's time bank
 * (time_banks). deadlines/ decides when a row opens, closes and falls due;
 * timers/ claims the rows that are due. Times are match time
 * (core/clock.h), unix seconds; durations are seconds. */
#ifndef SERVICE_STORE_DEADLINES_H
#define SERVICE_STORE_DEADLINES_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* A match's deadline options as stored (deadlines/deadline_settings.h
 * reads and checks them). */
typedef struct store_deadline_options {
    int turn_hours;
    int reminder_hours;
    char action[16]; /* skip | default_move | forfeit | notify_admins */
    int grace_hours;
    int time_bank_hours;
    int vacation_days_max;
} store_deadline_options;

/* One deadline row: which seat must act by when, for what. */
typedef struct store_deadline {
    long long match_id;
    long long deadline_id;
    int seat;
    char kind[8]; /* turn | commit | reveal | window */
    /* "turn:<seq>", "commit:<decision>", "reveal:<decision>",
     * "window:<window id>@<seq>": unique per match and seat. */
    char awaited[96];
    long long opened_seq;
    /* The budgets the row was opened with. */
    long long turn_seconds;
    long long reminder_seconds;
    long long grace_seconds;
    long long bank_seconds;
    /* Its moments; remind_at 0 when there is no reminder. */
    long long started_at;
    long long remind_at;
    long long due_at;
    long long grace_end_at;
    long long fire_at;
    bool reminded;
    bool fired;
} store_deadline;

/* A row's key, as the worker claims rows. */
typedef struct store_deadline_ref {
    long long match_id;
    long long deadline_id;
} store_deadline_ref;

/* ---- options (match_deadlines) ---------------------------------------- */

/* Stores the options of a new match, inside the caller's transaction. */
bool store_deadlines_save_options(PGconn *conn, long long match_id,
                                  const store_deadline_options *options,
                                  apierr *err);

/* The options of match_id into *out, *found false (and *out untouched)
 * when the match has none. False with err filled on a database error. */
bool store_deadlines_load_options(PGconn *conn, long long match_id,
                                  store_deadline_options *out, bool *found,
                                  apierr *err);

/* ---- rows (deadlines) ------------------------------------------------- */

/* Inserts row as a current row (its deadline_id, reminded and fired are
 * not read), unless the match already has one for the same seat and
 * awaited. */
bool store_deadlines_open(PGconn *conn, const store_deadline *row, apierr *err);

/* Reads one row; 404 "no_such_deadline" when there is none. */
bool store_deadlines_get(PGconn *conn, long long match_id,
                         long long deadline_id, store_deadline *out,
                         apierr *err);

/* The current (not closed) rows of match_id: with lock, in deadline order
 * and held (FOR UPDATE) until the transaction ends; without, in seat
 * order. A malloc'd array the caller frees (NULL when there are none),
 * its length in *count; false with err filled on a database error. */
bool store_deadlines_current(PGconn *conn, long long match_id, bool lock,
                             store_deadline **out, int *count, apierr *err);

/* The current rows of every seat of player_id that have not fired, window
 * rows aside (a vacation moves them), held until the transaction ends.
 * Returned as store_deadlines_current returns them. */
bool store_deadlines_lock_of_player(PGconn *conn, long long player_id,
                                    store_deadline **out, int *count,
                                    apierr *err);

/* Writes row's remind_at, due_at, grace_end_at and fire_at (0 remind_at:
 * none) to the stored row of the same key. */
bool store_deadlines_move(PGconn *conn, const store_deadline *row, apierr *err);

/* Closes a row at now: outcome is kept if the row has one already (it
 * fired), and bank_used seconds are added to what it used. */
bool store_deadlines_close(PGconn *conn, long long match_id,
                           long long deadline_id, long long now,
                           const char *outcome, long long bank_used,
                           apierr *err);

/* Records that the row's action applied at now with outcome, having used
 * bank_used seconds of the time bank; the row closes then unless
 * keep_current. */
bool store_deadlines_fire(PGconn *conn, long long match_id,
                          long long deadline_id, long long now,
                          const char *outcome, long long bank_used,
                          bool keep_current, apierr *err);

/* Records that the row's action failed at now: it counts as fired (so it
 * does not fire again) but stays current. */
bool store_deadlines_fail(PGconn *conn, long long match_id,
                          long long deadline_id, long long now, apierr *err);

/* Records that the row's reminder was queued at now. */
bool store_deadlines_reminded(PGconn *conn, long long match_id,
                              long long deadline_id, long long now,
                              apierr *err);

/* Claims, earliest first, up to max current rows whose reminder is due at
 * now and not sent, skipping rows another transaction holds, and holds
 * them until the transaction ends. Their count, or -1 with err filled. */
int store_deadlines_claim_reminders(PGconn *conn, long long now, int max,
                                    store_deadline_ref *out, apierr *err);

/* Claims the current row that fell due first by now, not fired, of a
 * match not in skip[0..skip_count), skipping rows another transaction
 * holds, and holds it until the transaction ends: 1 with *out filled, 0
 * when there is none, -1 with err filled. */
int store_deadlines_claim_due(PGconn *conn, long long now,
                              const long long *skip, int skip_count,
                              store_deadline_ref *out, apierr *err);

/* The ids of the other current rows of match_id (not except_id) due by
 * now and not fired, window rows aside, in seat order, held until the
 * transaction ends: a malloc'd array the caller frees (NULL when there
 * are none), its length in *count; false with err filled. */
bool store_deadlines_lock_due_with(PGconn *conn, long long match_id,
                                   long long except_id, long long now,
                                   long long **ids, int *count, apierr *err);

/* ---- time banks (time_banks) ------------------------------------------ */

/* What is left of seat's time bank in *left, the bank made with initial
 * seconds if the seat has none yet. */
bool store_deadlines_bank_left(PGconn *conn, long long match_id, int seat,
                               long long initial, long long *left, apierr *err);

/* Takes used seconds from seat's time bank (never below 0). */
bool store_deadlines_bank_charge(PGconn *conn, long long match_id, int seat,
                                 long long used, apierr *err);

/* What is left of the banks of match_id: remaining[s] for every seat s
 * below seats that has a bank; the others are left as they were. */
bool store_deadlines_banks(PGconn *conn, long long match_id,
                           long long *remaining, int seats, apierr *err);

#endif
