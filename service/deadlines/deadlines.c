/* deadlines.c */
#include "deadlines/deadlines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/db.h"
#include "store/db_params.h"
#include "deadlines/deadline_settings.h"
#include "deadlines/pauses.h"

/* What a seat must do now, as sync wants it. */
typedef struct wanted {
    int seat;
    const char *kind;
    bool present; /* a current row already covers it */
} wanted;

/* The seats that must act now and for what: every seat in the rules'
 * window waits in it; with deadlines, every other pending seat of a turn,
 * and in a sealed decision the seats that have not committed, and once
 * all have, the client-mode seats that have not revealed. */
static bool wanted_now(PGconn *conn, const store_match *match,
                       const rules_pending *pending, const rules_window *window,
                       bool timed, wanted *out, int *count, apierr *err)
{
    *count = 0;
    if (strcmp(match->status, "active") != 0 ||
        pending->wait == RULES_WAIT_NOBODY)
        return true;
    if (pending->wait != RULES_WAIT_SIMULTANEOUS) {
        for (int s = 0; s < match->seat_count; s++) {
            uint32_t bit = 1u << s;
            if (window->seats & pending->seats & bit)
                out[(*count)++] = (wanted){s, "window", false};
            else if (timed && (pending->seats & bit))
                out[(*count)++] = (wanted){s, "turn", false};
        }
        return true;
    }
    if (!timed)
        return true;
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_text(&p, pending->decision);
    PGresult *r = db_query(conn,
                           "SELECT seat, mode = 'client', revealed"
                           " FROM sealed_choices"
                           " WHERE match_id = $1 AND decision = $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    uint32_t committed = 0, unrevealed_client = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        int seat = atoi(PQgetvalue(r, i, 0));
        if (seat < 0 || seat >= 32)
            continue;
        committed |= 1u << seat;
        if (strcmp(PQgetvalue(r, i, 1), "t") == 0 &&
            strcmp(PQgetvalue(r, i, 2), "f") == 0)
            unrevealed_client |= 1u << seat;
    }
    PQclear(r);
    bool all_committed = (pending->seats & ~committed) == 0;
    for (int s = 0; s < match->seat_count; s++) {
        if (!(pending->seats & (1u << s)))
            continue;
        if (!(committed & (1u << s)))
            out[(*count)++] = (wanted){s, "commit", false};
        else if (all_committed && (unrevealed_client & (1u << s)))
            out[(*count)++] = (wanted){s, "reveal", false};
    }
    return true;
}

static bool charge_bank(PGconn *conn, long long match_id, int seat,
                        long long used, apierr *err)
{
    if (used <= 0)
        return true;
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

/* Closes a current row whose seat no longer must act (r: sync's query).
 * A move made after the grace period used the time bank; a fired row paid
 * already; a window row has no bank to pay from. */
static bool close_row(PGconn *conn, const store_match *match, const PGresult *r,
                      int i, bool over, long long now, apierr *err)
{
    long long deadline_id = atoll(PQgetvalue(r, i, 0));
    int seat = atoi(PQgetvalue(r, i, 1));
    bool window = strcmp(PQgetvalue(r, i, 2), "window") == 0;
    long long bank = atoll(PQgetvalue(r, i, 4));
    long long grace_end = atoll(PQgetvalue(r, i, 5));
    bool fired = strcmp(PQgetvalue(r, i, 6), "t") == 0;
    long long used = 0;
    if (!fired && !over && !window && now > grace_end &&
        seat < match->seat_count) {
        deadline_span pauses[PAUSES_MAX];
        int n = pauses_of_player(conn, match->seat_player[seat], grace_end,
                                 pauses, PAUSES_MAX, err);
        if (n < 0)
            return false;
        deadline_times times = {.grace_end_at = grace_end};
        deadline_budget budget = {.bank = bank};
        used = deadline_math_bank_used(&times, &budget, now, pauses, n);
    }
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_int(&p, deadline_id);
    db_params_int(&p, now);
    db_params_text(&p, over ? "ended" : "acted");
    db_params_int(&p, used);
    return db_command(
               conn,
               "UPDATE deadlines SET closed_at = to_timestamp($3::bigint),"
               " outcome = coalesce(outcome, $4),"
               " bank_used_seconds = bank_used_seconds + $5::bigint"
               " WHERE match_id = $1 AND deadline_id = $2",
               p.count, p.values, err) &&
           charge_bank(conn, match->match_id, seat, used, err);
}

/* What is left of seat's time bank, creating the bank on first use. */
static bool bank_left(PGconn *conn, long long match_id, int seat,
                      const deadline_settings *settings, long long *left,
                      apierr *err)
{
    *left = 0;
    if (settings->time_bank_hours <= 0)
        return true;
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, settings->time_bank_hours * 3600LL);
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

/* Inserts the current row of seat for what it awaits now (awaited: see
 * migrations 006 and 008), started at now. */
static bool insert_row(PGconn *conn, const store_match *match, int seat,
                       const char *kind, const char *awaited,
                       const deadline_budget *budget, const deadline_times *t,
                       long long now, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_int(&p, seat);
    db_params_text(&p, kind);
    db_params_text(&p, awaited);
    db_params_int(&p, match->head_seq);
    db_params_int(&p, budget->turn);
    db_params_int(&p, budget->reminder);
    db_params_int(&p, budget->grace);
    db_params_int(&p, budget->bank);
    db_params_int(&p, now);
    /* No reminder planned: remind_at stays NULL. */
    if (t->remind_at)
        db_params_int(&p, t->remind_at);
    else
        db_params_text(&p, NULL);
    db_params_int(&p, t->due_at);
    db_params_int(&p, t->grace_end_at);
    db_params_int(&p, t->fire_at);
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

/* A turn, commit or reveal row: the match's deadline options, the seat's
 * time bank, planned around its player's vacations. */
static bool open_row(PGconn *conn, const store_match *match,
                     const deadline_settings *settings, const wanted *w,
                     const char *decision, long long now, apierr *err)
{
    deadline_budget budget = {
        .turn = settings->turn_hours * 3600LL,
        .reminder = settings->reminder_hours * 3600LL,
        .grace = settings->grace_hours * 3600LL,
    };
    if (!bank_left(conn, match->match_id, w->seat, settings, &budget.bank, err))
        return false;
    deadline_span pauses[PAUSES_MAX];
    int n = pauses_of_player(conn, match->seat_player[w->seat], now, pauses,
                             PAUSES_MAX, err);
    if (n < 0)
        return false;
    deadline_times t;
    deadline_math_times(now, &budget, pauses, n, &t);
    char awaited[96];
    if (strcmp(w->kind, "turn") == 0)
        snprintf(awaited, sizeof awaited, "turn:%lld", match->head_seq);
    else
        snprintf(awaited, sizeof awaited, "%s:%s", w->kind, decision);
    return insert_row(conn, match, w->seat, w->kind, awaited, &budget, &t, now,
                      err);
}

/* A window row: the rules' length only. No reminder (every seat in the
 * window was told of the move that opened it, and its end only passes for
 * the seat, which costs it nothing it had: there is no late turn to warn
 * of), no grace and no time bank (those are the match's allowance for a
 * seat's own turn, and the rules, not the match, set how long a window
 * lasts), and no vacation pause (a vacation stops the player's clock, not
 * the rules' window, which the next player may close by acting at any
 * time anyway). The event seq beside the window id keeps awaited unique
 * though the rules may use an id again later in the match. */
static bool open_window_row(PGconn *conn, const store_match *match, int seat,
                            const rules_window *window, long long now,
                            apierr *err)
{
    deadline_budget budget = {.turn = window->seconds};
    deadline_times t;
    deadline_math_times(now, &budget, NULL, 0, &t);
    char awaited[96];
    snprintf(awaited, sizeof awaited, "window:%s@%lld", window->id,
             match->head_seq);
    return insert_row(conn, match, seat, "window", awaited, &budget, &t, now,
                      err);
}

/* The window id in a window row's awaited ("window:<id>@<seq>"). */
static void window_id_of(const char *awaited, char out[64])
{
    const char *colon = strchr(awaited, ':');
    const char *at = strrchr(awaited, '@');
    out[0] = '\0';
    if (colon != NULL && at != NULL && at > colon)
        snprintf(out, 64, "%.*s", (int)(at - colon - 1), colon + 1);
}

/* Whether current row (seat, kind, awaited) still covers what one of want
 * awaits; marks that one present. A turn row lasts while its seat keeps
 * having to act; a decision row is about that decision only; a window row
 * about that window only. */
static bool still_wanted(wanted *want, int count, int seat, const char *kind,
                         const char *awaited, const rules_pending *pending,
                         const rules_window *window)
{
    char expected[96], window_id[64];
    snprintf(expected, sizeof expected, "%s:%s", kind, pending->decision);
    window_id_of(awaited, window_id);
    for (int k = 0; k < count; k++) {
        if (want[k].present || want[k].seat != seat ||
            strcmp(want[k].kind, kind) != 0)
            continue;
        bool same =
            strcmp(kind, "turn") == 0 ||
            (strcmp(kind, "window") == 0 ? strcmp(window_id, window->id) == 0
                                         : strcmp(awaited, expected) == 0);
        if (same) {
            want[k].present = true;
            return true;
        }
    }
    return false;
}

bool deadlines_window_open(const rules_engine *engine,
                           const rules_state *state, rules_window *out)
{
    memset(out, 0, sizeof *out);
    if (engine->window == NULL || !engine->window(state, out)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    return out->seats != 0;
}

bool deadlines_sync(PGconn *conn, const store_match *match,
                    const rules_engine *engine, const rules_state *state,
                    apierr *err)
{
    deadline_settings settings;
    if (!deadline_settings_load(conn, match->match_id, &settings, err))
        return false;
    if (!settings.enabled && engine->window == NULL)
        return true;
    long long now = clock_now();
    rules_pending pending;
    engine->pending(state, &pending);
    rules_window window;
    deadlines_window_open(engine, state, &window);
    wanted want[STORE_MAX_SEATS];
    int count = 0;
    if (!wanted_now(conn, match, &pending, &window, settings.enabled, want,
                    &count, err))
        return false;
    bool over = count == 0 && (strcmp(match->status, "active") != 0 ||
                               pending.wait == RULES_WAIT_NOBODY);
    db_params p = {0};
    db_params_int(&p, match->match_id);
    PGresult *r =
        db_query(conn,
                 "SELECT deadline_id, seat, kind, awaited, bank_seconds,"
                 " extract(epoch FROM grace_end_at)::bigint, fired_at IS"
                 " NOT NULL FROM deadlines WHERE match_id = $1 AND"
                 " closed_at IS NULL ORDER BY deadline_id FOR UPDATE",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    bool ok = true;
    for (int i = 0; ok && i < PQntuples(r); i++) {
        int seat = atoi(PQgetvalue(r, i, 1));
        if (!still_wanted(want, count, seat, PQgetvalue(r, i, 2),
                          PQgetvalue(r, i, 3), &pending, &window))
            ok = close_row(conn, match, r, i, over, now, err);
    }
    PQclear(r);
    for (int k = 0; ok && k < count; k++) {
        if (want[k].present)
            continue;
        if (strcmp(want[k].kind, "window") == 0)
            ok = open_window_row(conn, match, want[k].seat, &window, now, err);
        else
            ok = open_row(conn, match, &settings, &want[k], pending.decision,
                          now, err);
    }
    return ok;
}

static const char row_columns[] =
    "match_id, deadline_id, seat, kind, awaited, opened_seq, turn_seconds,"
    " reminder_seconds, grace_seconds, bank_seconds, coalesce(extract(epoch"
    " FROM remind_at)::bigint, 0), extract(epoch FROM due_at)::bigint,"
    " extract(epoch FROM grace_end_at)::bigint, extract(epoch FROM"
    " fire_at)::bigint, reminded_at IS NOT NULL, fired_at IS NOT NULL,"
    " extract(epoch FROM started_at)::bigint";

static void read_row(const PGresult *r, int i, deadline_row *row)
{
    memset(row, 0, sizeof *row);
    row->match_id = atoll(PQgetvalue(r, i, 0));
    row->deadline_id = atoll(PQgetvalue(r, i, 1));
    row->seat = atoi(PQgetvalue(r, i, 2));
    snprintf(row->kind, sizeof row->kind, "%s", PQgetvalue(r, i, 3));
    /* awaited: "turn:<seq>", "commit:<decision>", "reveal:<decision>",
     * "window:<window id>@<seq>". */
    const char *awaited = PQgetvalue(r, i, 4);
    const char *colon = strchr(awaited, ':');
    if (strcmp(row->kind, "window") == 0)
        window_id_of(awaited, row->window);
    else if (strcmp(row->kind, "turn") != 0 && colon != NULL)
        snprintf(row->decision, sizeof row->decision, "%s", colon + 1);
    row->opened_seq = atoll(PQgetvalue(r, i, 5));
    row->budget.turn = atoll(PQgetvalue(r, i, 6));
    row->budget.reminder = atoll(PQgetvalue(r, i, 7));
    row->budget.grace = atoll(PQgetvalue(r, i, 8));
    row->budget.bank = atoll(PQgetvalue(r, i, 9));
    row->times.remind_at = atoll(PQgetvalue(r, i, 10));
    row->times.due_at = atoll(PQgetvalue(r, i, 11));
    row->times.grace_end_at = atoll(PQgetvalue(r, i, 12));
    row->times.fire_at = atoll(PQgetvalue(r, i, 13));
    row->reminded = strcmp(PQgetvalue(r, i, 14), "t") == 0;
    row->fired = strcmp(PQgetvalue(r, i, 15), "t") == 0;
    row->started_at = atoll(PQgetvalue(r, i, 16));
}

bool deadlines_get(PGconn *conn, long long match_id, long long deadline_id,
                   deadline_row *row, apierr *err)
{
    char sql[1024];
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, deadline_id);
    snprintf(sql, sizeof sql,
             "SELECT %s FROM deadlines WHERE match_id = $1"
             " AND deadline_id = $2",
             row_columns);
    PGresult *r = db_query(conn, sql, p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    bool found = PQntuples(r) == 1;
    if (found)
        read_row(r, 0, row);
    PQclear(r);
    if (!found)
        return apierr_set(err, 404, "no_such_deadline",
                          "deadline %lld of match %lld is gone", deadline_id,
                          match_id);
    return true;
}

bool deadlines_mark_fired(PGconn *conn, const deadline_row *row,
                          const char *outcome, bool keep_current, long long now,
                          apierr *err)
{
    db_params p = {0};
    db_params_int(&p, row->match_id);
    db_params_int(&p, row->deadline_id);
    db_params_int(&p, now);
    db_params_text(&p, outcome);
    db_params_int(&p, row->budget.bank);
    db_params_text(&p, keep_current ? "true" : "false");
    return db_command(
               conn,
               "UPDATE deadlines SET fired_at = to_timestamp($3::bigint),"
               " outcome = $4, bank_used_seconds = $5::bigint,"
               " closed_at = CASE WHEN $6::boolean THEN NULL"
               "   ELSE to_timestamp($3::bigint) END"
               " WHERE match_id = $1 AND deadline_id = $2",
               p.count, p.values, err) &&
           charge_bank(conn, row->match_id, row->seat, row->budget.bank, err);
}

bool deadlines_mark_reminded(PGconn *conn, const deadline_row *row,
                             long long now, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, row->match_id);
    db_params_int(&p, row->deadline_id);
    db_params_int(&p, now);
    return db_command(
        conn,
        "UPDATE deadlines SET reminded_at = to_timestamp($3::bigint)"
        " WHERE match_id = $1 AND deadline_id = $2",
        p.count, p.values, err);
}

static json_t *time_json(long long seconds)
{
    char text[32];
    clock_format(seconds, text);
    return json_string(text);
}

static json_t *waiting_json(const deadline_row *row)
{
    json_t *w = json_pack("{s:s,s:o,s:o,s:o,s:o,s:b,s:b}", "for", row->kind,
                          "since", time_json(row->started_at), "due_at",
                          time_json(row->times.due_at), "grace_until",
                          time_json(row->times.grace_end_at), "fires_at",
                          time_json(row->times.fire_at), "reminded",
                          row->reminded, "fired", row->fired);
    if (row->times.remind_at > 0)
        json_object_set_new(w, "reminder_at", time_json(row->times.remind_at));
    if (row->decision[0] != '\0')
        json_object_set_new(w, "decision", json_string(row->decision));
    return w;
}

/* One seat's clock: its bank, its vacations to come, what it waits for. */
static json_t *seat_clock(PGconn *conn, const store_match *match, int seat,
                          long long bank, const PGresult *rows, long long now,
                          apierr *err)
{
    deadline_span pauses[PAUSES_MAX];
    int n = pauses_of_player(conn, match->seat_player[seat], now, pauses,
                             PAUSES_MAX, err);
    if (n < 0)
        return NULL;
    json_t *vacations = json_array();
    for (int v = 0; v < n; v++)
        json_array_append_new(
            vacations, json_pack("{s:o,s:o}", "from", time_json(pauses[v].from),
                                 "until", time_json(pauses[v].until)));
    json_t *clock =
        json_pack("{s:i,s:I,s:o}", "seat", seat, "time_bank_seconds",
                  (json_int_t)bank, "vacations", vacations);
    for (int i = 0; i < PQntuples(rows); i++) {
        deadline_row row;
        read_row(rows, i, &row);
        if (row.seat == seat)
            json_object_set_new(clock, "waiting", waiting_json(&row));
    }
    return clock;
}

json_t *deadlines_describe(PGconn *conn, const store_match *match, apierr *err)
{
    deadline_settings settings;
    if (!deadline_settings_load(conn, match->match_id, &settings, err))
        return NULL;
    char sql[1024];
    db_params p = {0};
    db_params_int(&p, match->match_id);
    snprintf(sql, sizeof sql,
             "SELECT %s FROM deadlines"
             " WHERE match_id = $1 AND closed_at IS NULL ORDER BY seat",
             row_columns);
    PGresult *rows =
        db_query(conn, sql, p.count, p.values, PGRES_TUPLES_OK, err);
    if (rows == NULL)
        return NULL;
    PGresult *banks = db_query(conn,
                               "SELECT seat, remaining_seconds FROM time_banks"
                               " WHERE match_id = $1",
                               p.count, p.values, PGRES_TUPLES_OK, err);
    if (banks == NULL) {
        PQclear(rows);
        return NULL;
    }
    long long now = clock_now();
    json_t *clocks = json_array();
    for (int s = 0; clocks != NULL && s < match->seat_count; s++) {
        if (match->seat_player[s] == 0)
            continue;
        long long bank = settings.time_bank_hours * 3600LL;
        for (int i = 0; i < PQntuples(banks); i++) {
            if (atoi(PQgetvalue(banks, i, 0)) == s)
                bank = atoll(PQgetvalue(banks, i, 1));
        }
        json_t *clock = seat_clock(conn, match, s, bank, rows, now, err);
        if (clock == NULL) {
            json_decref(clocks);
            clocks = NULL;
        } else {
            json_array_append_new(clocks, clock);
        }
    }
    PQclear(rows);
    PQclear(banks);
    return clocks;
}

bool deadlines_replan_player(PGconn *conn, long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           "SELECT d.match_id, d.deadline_id,"
                           " extract(epoch FROM d.started_at)::bigint,"
                           " d.turn_seconds, d.reminder_seconds,"
                           " d.grace_seconds, d.bank_seconds FROM deadlines"
                           " d JOIN seats s   ON s.match_id = d.match_id"
                           " AND s.seat = d.seat WHERE s.player_id = $1 AND"
                           " d.closed_at IS NULL   AND d.fired_at IS NULL"
                           " AND d.kind <> 'window'"
                           " ORDER BY d.match_id, d.deadline_id FOR UPDATE"
                           " OF d",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    bool ok = true;
    for (int i = 0; ok && i < PQntuples(r); i++) {
        long long start = atoll(PQgetvalue(r, i, 2));
        deadline_budget budget = {
            .turn = atoll(PQgetvalue(r, i, 3)),
            .reminder = atoll(PQgetvalue(r, i, 4)),
            .grace = atoll(PQgetvalue(r, i, 5)),
            .bank = atoll(PQgetvalue(r, i, 6)),
        };
        deadline_span pauses[PAUSES_MAX];
        int n = pauses_of_player(conn, player_id, start, pauses, PAUSES_MAX,
                                 err);
        if (n < 0) {
            ok = false;
            break;
        }
        deadline_times t;
        deadline_math_times(start, &budget, pauses, n, &t);
        /* The ids travel as the query returned them. */
        db_params update = {0};
        db_params_text(&update, PQgetvalue(r, i, 0));
        db_params_text(&update, PQgetvalue(r, i, 1));
        if (t.remind_at)
            db_params_int(&update, t.remind_at);
        else
            db_params_text(&update, NULL);
        db_params_int(&update, t.due_at);
        db_params_int(&update, t.grace_end_at);
        db_params_int(&update, t.fire_at);
        ok = db_command(conn,
                        "UPDATE deadlines SET"
                        " remind_at = to_timestamp($3::bigint),"
                        " due_at = to_timestamp($4::bigint),"
                        " grace_end_at = to_timestamp($5::bigint),"
                        " fire_at = to_timestamp($6::bigint)"
                        " WHERE match_id = $1 AND deadline_id = $2",
                        update.count, update.values, err);
    }
    PQclear(r);
    return ok;
}

bool deadlines_forfeited(PGconn *conn, long long match_id, uint32_t *seats,
                         apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *r = db_query(conn,
                           "SELECT seat FROM events WHERE match_id = $1"
                           " AND kind = 'forfeited'",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    *seats = 0;
    if (r == NULL)
        return false;
    for (int i = 0; i < PQntuples(r); i++) {
        int seat = atoi(PQgetvalue(r, i, 0));
        if (seat >= 0 && seat < 32)
            *seats |= 1u << seat;
    }
    PQclear(r);
    return true;
}
