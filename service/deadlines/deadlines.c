/* deadlines.c */
#include "deadlines/deadlines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/deadlines.h"
#include "store/log_marks.h"
#include "deadlines/deadline_settings.h"
#include "deadlines/pauses.h"
#include "store/sealed_choices.h"

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
    uint32_t committed = 0, unrevealed_client = 0;
    if (!sealed_choices_progress(conn, match->match_id, pending->decision,
                                 &committed, &unrevealed_client, err))
        return false;
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
    return store_deadlines_bank_charge(conn, match_id, seat, used, err);
}

/* Closes a current row whose seat no longer must act. A move made after
 * the grace period used the time bank; a fired row paid already; a window
 * row has no bank to pay from. */
static bool close_row(PGconn *conn, const store_match *match,
                      const store_deadline *row, bool over, long long now,
                      apierr *err)
{
    int seat = row->seat;
    bool window = strcmp(row->kind, "window") == 0;
    long long used = 0;
    if (!row->fired && !over && !window && now > row->grace_end_at &&
        seat < match->seat_count) {
        deadline_span pauses[PAUSES_MAX];
        int n = pauses_of_player(conn, match->seat_player[seat],
                                 row->grace_end_at, pauses, PAUSES_MAX, err);
        if (n < 0)
            return false;
        deadline_times times = {.grace_end_at = row->grace_end_at};
        deadline_budget budget = {.bank = row->bank_seconds};
        used = deadline_math_bank_used(&times, &budget, now, pauses, n);
    }
    return store_deadlines_close(conn, match->match_id, row->deadline_id, now,
                                 over ? "ended" : "acted", used, err) &&
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
    return store_deadlines_bank_left(
        conn, match_id, seat, settings->time_bank_hours * 3600LL, left, err);
}

/* Inserts the current row of seat for what it awaits now (awaited: see
 * migrations 006 and 008), started at now. */
static bool insert_row(PGconn *conn, const store_match *match, int seat,
                       const char *kind, const char *awaited,
                       const deadline_budget *budget, const deadline_times *t,
                       long long now, apierr *err)
{
    store_deadline row = {
        .match_id = match->match_id,
        .seat = seat,
        .opened_seq = match->head_seq,
        .turn_seconds = budget->turn,
        .reminder_seconds = budget->reminder,
        .grace_seconds = budget->grace,
        .bank_seconds = budget->bank,
        .started_at = now,
        .remind_at = t->remind_at,
        .due_at = t->due_at,
        .grace_end_at = t->grace_end_at,
        .fire_at = t->fire_at,
    };
    snprintf(row.kind, sizeof row.kind, "%s", kind);
    snprintf(row.awaited, sizeof row.awaited, "%s", awaited);
    return store_deadlines_open(conn, &row, err);
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
    store_deadline *rows;
    int current;
    if (!store_deadlines_current(conn, match->match_id, true, &rows, &current,
                                 err))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < current; i++) {
        if (!still_wanted(want, count, rows[i].seat, rows[i].kind,
                          rows[i].awaited, &pending, &window))
            ok = close_row(conn, match, &rows[i], over, now, err);
    }
    free(rows);
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

/* A stored row as the worker and the actions read it. */
static void row_of(const store_deadline *stored, deadline_row *row)
{
    memset(row, 0, sizeof *row);
    row->match_id = stored->match_id;
    row->deadline_id = stored->deadline_id;
    row->seat = stored->seat;
    snprintf(row->kind, sizeof row->kind, "%s", stored->kind);
    /* awaited: "turn:<seq>", "commit:<decision>", "reveal:<decision>",
     * "window:<window id>@<seq>". */
    const char *colon = strchr(stored->awaited, ':');
    if (strcmp(row->kind, "window") == 0)
        window_id_of(stored->awaited, row->window);
    else if (strcmp(row->kind, "turn") != 0 && colon != NULL)
        snprintf(row->decision, sizeof row->decision, "%s", colon + 1);
    row->opened_seq = stored->opened_seq;
    row->budget.turn = stored->turn_seconds;
    row->budget.reminder = stored->reminder_seconds;
    row->budget.grace = stored->grace_seconds;
    row->budget.bank = stored->bank_seconds;
    row->times.remind_at = stored->remind_at;
    row->times.due_at = stored->due_at;
    row->times.grace_end_at = stored->grace_end_at;
    row->times.fire_at = stored->fire_at;
    row->reminded = stored->reminded;
    row->fired = stored->fired;
    row->started_at = stored->started_at;
}

bool deadlines_get(PGconn *conn, long long match_id, long long deadline_id,
                   deadline_row *row, apierr *err)
{
    store_deadline stored;
    if (!store_deadlines_get(conn, match_id, deadline_id, &stored, err))
        return false;
    row_of(&stored, row);
    return true;
}

bool deadlines_mark_fired(PGconn *conn, const deadline_row *row,
                          const char *outcome, bool keep_current, long long now,
                          apierr *err)
{
    return store_deadlines_fire(conn, row->match_id, row->deadline_id, now,
                                outcome, row->budget.bank, keep_current, err) &&
           charge_bank(conn, row->match_id, row->seat, row->budget.bank, err);
}

bool deadlines_mark_reminded(PGconn *conn, const deadline_row *row,
                             long long now, apierr *err)
{
    return store_deadlines_reminded(conn, row->match_id, row->deadline_id, now,
                                    err);
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
                          long long bank, const store_deadline *rows, int count,
                          long long now, apierr *err)
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
    for (int i = 0; i < count; i++) {
        if (rows[i].seat != seat)
            continue;
        deadline_row row;
        row_of(&rows[i], &row);
        json_object_set_new(clock, "waiting", waiting_json(&row));
    }
    return clock;
}

json_t *deadlines_describe(PGconn *conn, const store_match *match, apierr *err)
{
    deadline_settings settings;
    if (!deadline_settings_load(conn, match->match_id, &settings, err))
        return NULL;
    long long banks[STORE_MAX_SEATS];
    for (int s = 0; s < STORE_MAX_SEATS; s++)
        banks[s] = settings.time_bank_hours * 3600LL;
    store_deadline *rows;
    int count;
    if (!store_deadlines_current(conn, match->match_id, false, &rows, &count,
                                 err))
        return NULL;
    if (!store_deadlines_banks(conn, match->match_id, banks, STORE_MAX_SEATS,
                               err)) {
        free(rows);
        return NULL;
    }
    long long now = clock_now();
    json_t *clocks = json_array();
    for (int s = 0; clocks != NULL && s < match->seat_count; s++) {
        if (match->seat_player[s] == 0)
            continue;
        json_t *clock =
            seat_clock(conn, match, s, banks[s], rows, count, now, err);
        if (clock == NULL) {
            json_decref(clocks);
            clocks = NULL;
        } else {
            json_array_append_new(clocks, clock);
        }
    }
    free(rows);
    return clocks;
}

bool deadlines_replan_player(PGconn *conn, long long player_id, apierr *err)
{
    store_deadline *rows;
    int count;
    if (!store_deadlines_lock_of_player(conn, player_id, &rows, &count, err))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        store_deadline *row = &rows[i];
        deadline_budget budget = {
            .turn = row->turn_seconds,
            .reminder = row->reminder_seconds,
            .grace = row->grace_seconds,
            .bank = row->bank_seconds,
        };
        deadline_span pauses[PAUSES_MAX];
        int n = pauses_of_player(conn, player_id, row->started_at, pauses,
                                 PAUSES_MAX, err);
        if (n < 0) {
            ok = false;
            break;
        }
        deadline_times t;
        deadline_math_times(row->started_at, &budget, pauses, n, &t);
        row->remind_at = t.remind_at;
        row->due_at = t.due_at;
        row->grace_end_at = t.grace_end_at;
        row->fire_at = t.fire_at;
        ok = store_deadlines_move(conn, row, err);
    }
    free(rows);
    return ok;
}

bool deadlines_forfeited(PGconn *conn, long long match_id, uint32_t *seats,
                         apierr *err)
{
    return store_log_marks_forfeited(conn, match_id, seats, err);
}
