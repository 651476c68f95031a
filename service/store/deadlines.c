/* deadlines.c: see deadlines.h. */
#include "store/deadlines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"

/* ---- options ------------------------------------------------------------ */

bool store_deadlines_save_options(PGconn *conn, long long match_id,
                                  const store_deadline_options *options,
                                  apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, options->turn_hours);
    db_params_int(&p, options->reminder_hours);
    db_params_text(&p, options->action);
    db_params_int(&p, options->grace_hours);
    db_params_int(&p, options->time_bank_hours);
    db_params_int(&p, options->vacation_days_max);
    return db_command(conn,
                      "INSERT INTO match_deadlines (match_id, turn_hours,"
                      " reminder_hours, action, grace_hours, time_bank_hours,"
                      " vacation_days_max) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                      p.count, p.values, err);
}

bool store_deadlines_load_options(PGconn *conn, long long match_id,
                                  store_deadline_options *out, bool *found,
                                  apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *r = db_query(conn,
                           "SELECT turn_hours, reminder_hours, action,"
                           " grace_hours, time_bank_hours, vacation_days_max"
                           " FROM match_deadlines WHERE match_id = $1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *found = PQntuples(r) == 1;
    if (*found) {
        out->turn_hours = atoi(PQgetvalue(r, 0, 0));
        out->reminder_hours = atoi(PQgetvalue(r, 0, 1));
        snprintf(out->action, sizeof out->action, "%s", PQgetvalue(r, 0, 2));
        out->grace_hours = atoi(PQgetvalue(r, 0, 3));
        out->time_bank_hours = atoi(PQgetvalue(r, 0, 4));
        out->vacation_days_max = atoi(PQgetvalue(r, 0, 5));
    }
    PQclear(r);
    return true;
}

/* ---- rows --------------------------------------------------------------- */

/* The columns read_row reads, of the deadlines table as d. */
#define ROW_COLUMNS                                                            \
    "d.match_id, d.deadline_id, d.seat, d.kind, d.awaited, d.opened_seq,"      \
    " d.turn_seconds, d.reminder_seconds, d.grace_seconds, d.bank_seconds,"    \
    " extract(epoch FROM d.started_at)::bigint,"                               \
    " coalesce(extract(epoch FROM d.remind_at)::bigint, 0),"                   \
    " extract(epoch FROM d.due_at)::bigint,"                                   \
    " extract(epoch FROM d.grace_end_at)::bigint,"                             \
    " extract(epoch FROM d.fire_at)::bigint,"                                  \
    " d.reminded_at IS NOT NULL, d.fired_at IS NOT NULL"

static void read_row(const PGresult *r, int i, store_deadline *row)
{
    memset(row, 0, sizeof *row);
    row->match_id = atoll(PQgetvalue(r, i, 0));
    row->deadline_id = atoll(PQgetvalue(r, i, 1));
    row->seat = atoi(PQgetvalue(r, i, 2));
    snprintf(row->kind, sizeof row->kind, "%s", PQgetvalue(r, i, 3));
    snprintf(row->awaited, sizeof row->awaited, "%s", PQgetvalue(r, i, 4));
    row->opened_seq = atoll(PQgetvalue(r, i, 5));
    row->turn_seconds = atoll(PQgetvalue(r, i, 6));
    row->reminder_seconds = atoll(PQgetvalue(r, i, 7));
    row->grace_seconds = atoll(PQgetvalue(r, i, 8));
    row->bank_seconds = atoll(PQgetvalue(r, i, 9));
    row->started_at = atoll(PQgetvalue(r, i, 10));
    row->remind_at = atoll(PQgetvalue(r, i, 11));
    row->due_at = atoll(PQgetvalue(r, i, 12));
    row->grace_end_at = atoll(PQgetvalue(r, i, 13));
    row->fire_at = atoll(PQgetvalue(r, i, 14));
    row->reminded = strcmp(PQgetvalue(r, i, 15), "t") == 0;
    row->fired = strcmp(PQgetvalue(r, i, 16), "t") == 0;
}

/* Every row of r (columns: ROW_COLUMNS) as a malloc'd array; r is
 * cleared. */
static void read_rows(PGresult *r, store_deadline **out, int *count)
{
    int n = PQntuples(r);
    *out = NULL;
    if (n > 0) {
        *out = calloc((size_t)n, sizeof **out);
        if (*out == NULL)
            abort();
    }
    for (int i = 0; i < n; i++)
        read_row(r, i, &(*out)[i]);
    *count = n;
    PQclear(r);
}

/* Appends row's remind_at, due_at, grace_end_at and fire_at; with no
 * reminder planned, remind_at is NULL. */
static void moments(db_params *p, const store_deadline *row)
{
    if (row->remind_at)
        db_params_int(p, row->remind_at);
    else
        db_params_text(p, NULL);
    db_params_int(p, row->due_at);
    db_params_int(p, row->grace_end_at);
    db_params_int(p, row->fire_at);
}

bool store_deadlines_open(PGconn *conn, const store_deadline *row, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, row->match_id);
    db_params_int(&p, row->seat);
    db_params_text(&p, row->kind);
    db_params_text(&p, row->awaited);
    db_params_int(&p, row->opened_seq);
    db_params_int(&p, row->turn_seconds);
    db_params_int(&p, row->reminder_seconds);
    db_params_int(&p, row->grace_seconds);
    db_params_int(&p, row->bank_seconds);
    db_params_int(&p, row->started_at);
    moments(&p, row);
    return db_command(
        conn,
        "INSERT INTO deadlines (match_id, seat, kind, awaited, opened_seq,"
        " turn_seconds, reminder_seconds, grace_seconds, bank_seconds,"
        " started_at, remind_at, due_at, grace_end_at, fire_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
        " to_timestamp($10::bigint), to_timestamp($11::bigint),"
        " to_timestamp($12::bigint), to_timestamp($13::bigint),"
        " to_timestamp($14::bigint))"
        " ON CONFLICT (match_id, seat, awaited) DO NOTHING",
        p.count, p.values, err);
}

bool store_deadlines_get(PGconn *conn, long long match_id,
                         long long deadline_id, store_deadline *out,
                         apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, deadline_id);
    PGresult *r = db_query(conn,
                           "SELECT " ROW_COLUMNS " FROM deadlines d"
                           " WHERE d.match_id = $1 AND d.deadline_id = $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    bool found = PQntuples(r) == 1;
    if (found)
        read_row(r, 0, out);
    PQclear(r);
    if (!found)
        return apierr_set(err, 404, "no_such_deadline",
                          "deadline %lld of match %lld is gone", deadline_id,
                          match_id);
    return true;
}

bool store_deadlines_current(PGconn *conn, long long match_id, bool lock,
                             store_deadline **out, int *count, apierr *err)
{
    *out = NULL;
    *count = 0;
    db_params p = {0};
    db_params_int(&p, match_id);
    /* Held in the rows' order of age, so two writers of one match's rows
     * take them in the same order. */
    PGresult *r = db_query(conn,
                           lock ? "SELECT " ROW_COLUMNS " FROM deadlines d"
                                  " WHERE d.match_id = $1"
                                  " AND d.closed_at IS NULL"
                                  " ORDER BY d.deadline_id FOR UPDATE"
                                : "SELECT " ROW_COLUMNS " FROM deadlines d"
                                  " WHERE d.match_id = $1"
                                  " AND d.closed_at IS NULL"
                                  " ORDER BY d.seat",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    read_rows(r, out, count);
    return true;
}

bool store_deadlines_lock_of_player(PGconn *conn, long long player_id,
                                    store_deadline **out, int *count,
                                    apierr *err)
{
    *out = NULL;
    *count = 0;
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           "SELECT " ROW_COLUMNS " FROM deadlines d"
                           " JOIN seats s ON s.match_id = d.match_id"
                           " AND s.seat = d.seat WHERE s.player_id = $1"
                           " AND d.closed_at IS NULL AND d.fired_at IS NULL"
                           " AND d.kind <> 'window'"
                           " ORDER BY d.match_id, d.deadline_id"
                           " FOR UPDATE OF d",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    read_rows(r, out, count);
    return true;
}

bool store_deadlines_move(PGconn *conn, const store_deadline *row, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, row->match_id);
    db_params_int(&p, row->deadline_id);
    moments(&p, row);
    return db_command(conn,
                      "UPDATE deadlines SET"
                      " remind_at = to_timestamp($3::bigint),"
                      " due_at = to_timestamp($4::bigint),"
                      " grace_end_at = to_timestamp($5::bigint),"
                      " fire_at = to_timestamp($6::bigint)"
                      " WHERE match_id = $1 AND deadline_id = $2",
                      p.count, p.values, err);
}

/* The first parameters of every change to one row: $1 its match, $2 its
 * id, $3 the time of the change. */
static void row_change(db_params *p, long long match_id, long long deadline_id,
                       long long now)
{
    db_params_int(p, match_id);
    db_params_int(p, deadline_id);
    db_params_int(p, now);
}

bool store_deadlines_close(PGconn *conn, long long match_id,
                           long long deadline_id, long long now,
                           const char *outcome, long long bank_used,
                           apierr *err)
{
    db_params p = {0};
    row_change(&p, match_id, deadline_id, now);
    db_params_text(&p, outcome);
    db_params_int(&p, bank_used);
    return db_command(
        conn,
        "UPDATE deadlines SET closed_at = to_timestamp($3::bigint),"
        " outcome = coalesce(outcome, $4),"
        " bank_used_seconds = bank_used_seconds + $5::bigint"
        " WHERE match_id = $1 AND deadline_id = $2",
        p.count, p.values, err);
}

bool store_deadlines_fire(PGconn *conn, long long match_id,
                          long long deadline_id, long long now,
                          const char *outcome, long long bank_used,
                          bool keep_current, apierr *err)
{
    db_params p = {0};
    row_change(&p, match_id, deadline_id, now);
    db_params_text(&p, outcome);
    db_params_int(&p, bank_used);
    db_params_text(&p, keep_current ? "true" : "false");
    return db_command(
        conn,
        "UPDATE deadlines SET fired_at = to_timestamp($3::bigint),"
        " outcome = $4, bank_used_seconds = $5::bigint,"
        " closed_at = CASE WHEN $6::boolean THEN NULL"
        "   ELSE to_timestamp($3::bigint) END"
        " WHERE match_id = $1 AND deadline_id = $2",
        p.count, p.values, err);
}

/* Runs sql, a change to one row of row_change's parameters only. */
static bool change_row(PGconn *conn, const char *sql, long long match_id,
                       long long deadline_id, long long now, apierr *err)
{
    db_params p = {0};
    row_change(&p, match_id, deadline_id, now);
    return db_command(conn, sql, p.count, p.values, err);
}

bool store_deadlines_fail(PGconn *conn, long long match_id,
                          long long deadline_id, long long now, apierr *err)
{
    return change_row(
        conn,
        "UPDATE deadlines SET fired_at = to_timestamp($3::bigint),"
        " outcome = 'failed'"
        " WHERE match_id = $1 AND deadline_id = $2",
        match_id, deadline_id, now, err);
}

bool store_deadlines_reminded(PGconn *conn, long long match_id,
                              long long deadline_id, long long now, apierr *err)
{
    return change_row(conn,
                      "UPDATE deadlines SET reminded_at ="
                      " to_timestamp($3::bigint)"
                      " WHERE match_id = $1 AND deadline_id = $2",
                      match_id, deadline_id, now, err);
}

/* Reads (match_id, deadline_id) rows into out, at most max. */
static int read_refs(PGresult *r, store_deadline_ref *out, int max)
{
    int n = PQntuples(r);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        out[i].match_id = atoll(PQgetvalue(r, i, 0));
        out[i].deadline_id = atoll(PQgetvalue(r, i, 1));
    }
    PQclear(r);
    return n;
}

int store_deadlines_claim_reminders(PGconn *conn, long long now, int max,
                                    store_deadline_ref *out, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, now);
    db_params_int(&p, max);
    PGresult *r = db_query(conn,
                           "SELECT match_id, deadline_id FROM deadlines"
                           " WHERE closed_at IS NULL AND fired_at IS NULL"
                           "   AND reminded_at IS NULL"
                           "   AND remind_at <= to_timestamp($1::bigint)"
                           " ORDER BY remind_at LIMIT $2::int"
                           " FOR UPDATE SKIP LOCKED",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    return read_refs(r, out, max);
}

int store_deadlines_claim_due(PGconn *conn, long long now,
                              const long long *skip, int skip_count,
                              store_deadline_ref *out, apierr *err)
{
    char *skipped = db_params_int_array(skip, skip_count);
    db_params p = {0};
    db_params_int(&p, now);
    db_params_text(&p, skipped);
    PGresult *r = db_query(conn,
                           "SELECT match_id, deadline_id FROM deadlines"
                           " WHERE closed_at IS NULL AND fired_at IS NULL"
                           "   AND fire_at <= to_timestamp($1::bigint)"
                           "   AND match_id <> ALL ($2::bigint[])"
                           " ORDER BY fire_at LIMIT 1 FOR UPDATE SKIP LOCKED",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    free(skipped);
    if (r == NULL)
        return -1;
    return read_refs(r, out, 1);
}

bool store_deadlines_lock_due_with(PGconn *conn, long long match_id,
                                   long long except_id, long long now,
                                   long long **ids, int *count, apierr *err)
{
    *ids = NULL;
    *count = 0;
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, except_id);
    db_params_int(&p, now);
    PGresult *r = db_query(conn,
                           "SELECT deadline_id FROM deadlines"
                           " WHERE match_id = $1 AND deadline_id <> $2"
                           " AND closed_at IS NULL AND fired_at IS NULL"
                           " AND fire_at <= to_timestamp($3::bigint)"
                           " AND kind <> 'window'"
                           " ORDER BY seat FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    int n = PQntuples(r);
    if (n > 0) {
        *ids = calloc((size_t)n, sizeof **ids);
        if (*ids == NULL)
            abort();
    }
    for (int i = 0; i < n; i++)
        (*ids)[i] = atoll(PQgetvalue(r, i, 0));
    *count = n;
    PQclear(r);
    return true;
}

/* ---- time banks --------------------------------------------------------- */

bool store_deadlines_bank_left(PGconn *conn, long long match_id, int seat,
                               long long initial, long long *left, apierr *err)
{
    *left = 0;
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, initial);
    /* The insert's row is not visible to the SELECT of the same statement:
     * the union yields the new bank or the existing one. */
    PGresult *r =
        db_query(conn,
                 "WITH created AS (INSERT INTO time_banks (match_id, seat,"
                 "   remaining_seconds) VALUES ($1, $2, $3::bigint)"
                 "   ON CONFLICT DO NOTHING RETURNING remaining_seconds)"
                 " SELECT remaining_seconds FROM created UNION ALL"
                 " SELECT remaining_seconds FROM time_banks"
                 "  WHERE match_id = $1 AND seat = $2",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    if (PQntuples(r) > 0)
        *left = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}

bool store_deadlines_bank_charge(PGconn *conn, long long match_id, int seat,
                                 long long used, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, used);
    return db_command(conn,
                      "UPDATE time_banks SET remaining_seconds ="
                      " greatest(remaining_seconds - $3::bigint, 0)"
                      " WHERE match_id = $1 AND seat = $2",
                      p.count, p.values, err);
}

bool store_deadlines_banks(PGconn *conn, long long match_id,
                           long long *remaining, int seats, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *r = db_query(conn,
                           "SELECT seat, remaining_seconds FROM time_banks"
                           " WHERE match_id = $1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    for (int i = 0; i < PQntuples(r); i++) {
        int seat = atoi(PQgetvalue(r, i, 0));
        if (seat >= 0 && seat < seats)
            remaining[seat] = atoll(PQgetvalue(r, i, 1));
    }
    PQclear(r);
    return true;
}
