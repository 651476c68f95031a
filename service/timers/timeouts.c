/* timeouts.c */
#include "timers/timeouts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/deadlines.h"
#include "play/decisions.h"
#include "core/log.h"
#include "play/append.h"
#include "play/matchstate.h"
#include "notify/notify_outbox.h"
#include "timers/absent_move.h"
#include "timers/rule_windows.h"
#include "store/matches.h"

static json_t *time_json(long long seconds)
{
    char text[32];
    clock_format(seconds, text);
    return json_string(text);
}

/* What a reminder, and the admins, are told about a deadline. */
static json_t *deadline_json(const deadline_row *row,
                             const deadline_settings *settings)
{
    json_t *d = json_pack("{s:i,s:s,s:o,s:o,s:s}", "seat", row->seat, "for",
                          row->kind, "due_at", time_json(row->times.due_at),
                          "fires_at", time_json(row->times.fire_at), "action",
                          deadline_action_name(settings->action));
    if (row->decision[0] != '\0')
        json_object_set_new(d, "decision", json_string(row->decision));
    return d;
}

bool timeouts_remind(PGconn *conn, const deadline_row *row, long long now,
                     apierr *err)
{
    store_match match;
    store_reachability reach;
    deadline_settings settings;
    if (!deadline_settings_load(conn, row->match_id, &settings, err) ||
        !store_load_match_reachable(conn, row->match_id, &match, &reach, err))
        return false;
    const rules_engine *engine = matchstate_engine(&match, err);
    rules_state *state =
        engine ? matchstate_load(conn, &match, engine, err) : NULL;
    bool ok = state != NULL;
    if (ok) {
        json_t *deadline = deadline_json(row, &settings);
        ok = notify_outbox_remind(conn, &match, &reach, engine, state,
                                  row->seat,
                                  row->opened_seq, deadline, err);
        json_decref(deadline);
        engine->destroy(state);
    }
    store_match_free(&match);
    return ok && deadlines_mark_reminded(conn, row, now, err);
}

/* Does the row still describe what the match waits for? */
static bool still_awaited(const deadline_row *row, const rules_pending *pending)
{
    if (!(pending->seats & (1u << row->seat)))
        return false;
    if (strcmp(row->kind, "turn") == 0)
        return pending->wait == RULES_WAIT_ONE ||
               pending->wait == RULES_WAIT_ANY_ORDER;
    return pending->wait == RULES_WAIT_SIMULTANEOUS &&
           strcmp(pending->decision, row->decision) == 0;
}

static const char *waited_words(const char *kind)
{
    if (strcmp(kind, "commit") == 0)
        return "commit to";
    if (strcmp(kind, "reveal") == 0)
        return "reveal its choice in";
    return "take its turn";
}

/* The public "timeout" event of row's seat. */
static json_t *timeout_event(const store_match *match, const deadline_row *row,
                             const deadline_settings *settings)
{
    char due[32], reason[320];
    clock_format(row->times.due_at, due);
    snprintf(reason, sizeof reason,
             "seat %d (%s) did not %s%s%s by its deadline %s (%d h per turn, "
             "%d h grace, %lld s of time bank used): %s",
             row->seat, match->seat_name[row->seat], waited_words(row->kind),
             row->decision[0] ? " " : "", row->decision, due,
             settings->turn_hours, settings->grace_hours, row->budget.bank,
             deadline_action_name(settings->action));
    json_t *event =
        json_pack("{s:s,s:i,s:{s:s,s:s,s:s,s:o,s:I}}", "kind", "timeout",
                  "seat", row->seat, "data", "reason", reason, "action",
                  deadline_action_name(settings->action), "waiting_for",
                  row->kind, "due_at", time_json(row->times.due_at),
                  "time_bank_used_seconds", (json_int_t)row->budget.bank);
    if (row->decision[0] != '\0')
        json_object_set_new(json_object_get(event, "data"), "decision",
                            json_string(row->decision));
    return event;
}

/* Plays the seat's turn by default moves (or passes), recording each in
 * the timeout event, until the seat no longer has to act. */
static bool play_for_seat(const rules_engine *engine, rules_state *state,
                          int seat, deadline_action action, json_t *timeout,
                          apierr *err)
{
    json_t *moves = json_array();
    json_object_set_new(json_object_get(timeout, "data"), "moves", moves);
    bool fell_back = false;
    for (int n = 0; n < TIMEOUTS_MOVES_MAX; n++) {
        rules_pending pending;
        engine->pending(state, &pending);
        if (!(pending.seats & (1u << seat)) ||
            pending.wait == RULES_WAIT_SIMULTANEOUS ||
            pending.wait == RULES_WAIT_NOBODY)
            break;
        bool passed = false;
        json_t *move = absent_move_choose(engine, state, seat, action, &passed);
        if (move == NULL)
            break;
        fell_back = fell_back || (action == DEADLINE_SKIP && !passed);
        char *text = engine->format_move(state, seat, move);
        rules_error rerr = {{0}};
        if (!engine->apply(state, seat, move, &rerr)) {
            free(text);
            json_decref(move);
            return apierr_set(err, 500, "default_move",
                              "the rules refuse seat %d's default move: %s",
                              seat, rerr.message);
        }
        json_array_append_new(
            moves, json_pack("{s:o,s:s?}", "action", move, "text", text));
        free(text);
    }
    if (fell_back)
        json_object_set_new(json_object_get(timeout, "data"), "note",
                            json_string("the rules offered no pass, so the "
                                        "default move was made"));
    return true;
}

/* The other seats of the match whose deadlines have come as well: they
 * forfeit together. Their rows are locked and marked; bits in *seats. A
 * seat whose window has come is not among them: it passes (rule_windows.h). */
static bool also_due(PGconn *conn, const deadline_row *row, long long now,
                     const store_match *match,
                     const deadline_settings *settings, json_t **events,
                     int *count, uint32_t *seats, apierr *err)
{
    long long *ids;
    int n;
    if (!store_deadlines_lock_due_with(conn, row->match_id, row->deadline_id,
                                       now, &ids, &n, err))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        deadline_row other;
        ok = deadlines_get(conn, row->match_id, ids[i], &other, err) &&
             deadlines_mark_fired(conn, &other, "forfeit", false, now, err);
        if (!ok || (*seats & (1u << other.seat)))
            continue;
        *seats |= 1u << other.seat;
        events[(*count)++] = timeout_event(match, &other, settings);
    }
    free(ids);
    return ok;
}

static bool forfeit(PGconn *conn, const deadline_row *row, long long now,
                    store_match *match, store_reachability *reach,
                    const rules_engine *engine,
                    const rules_state *state, const deadline_settings *settings,
                    json_t *timeout, apierr *err)
{
    json_t *events[APPEND_EVENTS_MAX] = {json_incref(timeout)};
    int count = 1;
    uint32_t seats = 1u << row->seat;
    bool ok =
        deadlines_mark_fired(conn, row, "forfeit", false, now, err) &&
        also_due(conn, row, now, match, settings, events, &count, &seats, err);
    for (int s = 0; ok && s < match->seat_count; s++) {
        if (seats & (1u << s))
            events[count++] = json_pack(
                "{s:s,s:i,s:{s:s}}", "kind", "forfeited", "seat", s, "data",
                "reason", "its deadline passed under the forfeit action");
    }
    if (ok) {
        append_change change = {.events = events,
                                .count = count,
                                .state = state,
                                .forfeited = seats,
                                .reach = reach};
        ok = append_events(conn, match, engine, &change, NULL, err);
    }
    for (int i = 0; i < count; i++)
        json_decref(events[i]);
    if (ok)
        log_info("match m_%lld: forfeited by seat(s) 0x%x at their deadline",
                 match->match_id, seats);
    return ok;
}

/* skip or default_move. */
static bool act_for_seat(PGconn *conn, const deadline_row *row, long long now,
                         store_match *match, store_reachability *reach,
                         const rules_engine *engine,
                         rules_state *state, const deadline_settings *settings,
                         json_t *timeout, apierr *err)
{
    const char *outcome = deadline_action_name(settings->action);
    if (!deadlines_mark_fired(conn, row, outcome, false, now, err))
        return false;
    if (strcmp(row->kind, "turn") == 0) {
        append_change change = {.events = &timeout,
                                .count = 1,
                                .state = state,
                                .tell = APPEND_TELL_PENDING,
                                .reach = reach};
        return play_for_seat(engine, state, row->seat, settings->action,
                             timeout, err) &&
               append_events(conn, match, engine, &change, NULL, err);
    }
    bool passed = false;
    json_t *choice =
        absent_move_choose(engine, state, row->seat, settings->action, &passed);
    if (choice == NULL)
        return apierr_set(err, 500, "default_move",
                          "the rules name no choice for seat %d", row->seat);
    bool ok;
    if (strcmp(row->kind, "commit") == 0) {
        ok = decisions_commit_default(conn, match->match_id, row->seat, choice,
                                      timeout, err);
    } else {
        json_object_set(json_object_get(timeout, "data"), "choice", choice);
        ok = decisions_void_reveal(conn, match->match_id, row->seat, timeout,
                                   err);
    }
    json_decref(choice);
    return ok;
}

static bool notify_admins(PGconn *conn, const deadline_row *row, long long now,
                          store_match *match, const rules_engine *engine,
                          rules_state *state, const deadline_settings *settings,
                          json_t *timeout, apierr *err)
{
    json_t *deadline = deadline_json(row, settings);
    json_object_set(
        deadline, "reason",
        json_object_get(json_object_get(timeout, "data"), "reason"));
    append_change change = {.events = &timeout, .count = 1, .state = state};
    /* The row stays current: it fires once, until the seat acts. */
    bool ok =
        deadlines_mark_fired(conn, row, "notify_admins", true, now, err) &&
        append_events(conn, match, engine, &change, NULL, err) &&
        notify_outbox_admins(conn, match, engine, state, deadline, err);
    json_decref(deadline);
    return ok;
}

bool timeouts_fire(PGconn *conn, long long match_id, long long deadline_id,
                   long long now, apierr *err)
{
    deadline_row row;
    deadline_settings settings;
    store_match match;
    store_reachability reach;
    if (!deadlines_get(conn, match_id, deadline_id, &row, err) ||
        !deadline_settings_load(conn, match_id, &settings, err) ||
        !store_load_match_reachable(conn, match_id, &match, &reach, err))
        return false;
    const rules_engine *engine = matchstate_engine(&match, err);
    rules_state *state = NULL;
    json_t *timeout = NULL;
    bool ok = false;
    if (engine == NULL)
        goto done;
    if (strcmp(match.status, "active") != 0) {
        ok = deadlines_mark_fired(conn, &row, "ended", false, now, err);
        goto done;
    }
    state = matchstate_load(conn, &match, engine, err);
    if (state == NULL)
        goto done;
    /* The rules' window: a pass, with or without the match's deadlines. */
    if (strcmp(row.kind, "window") == 0) {
        ok = rule_windows_close(conn, &row, now, &match, engine, state, err);
        goto done;
    }
    rules_pending pending;
    engine->pending(state, &pending);
    if (!settings.enabled || row.seat >= match.seat_count ||
        !still_awaited(&row, &pending)) {
        apierr_set(err, 409, "stale_deadline",
                   "deadline %lld no longer matches what the match waits for",
                   deadline_id);
        goto done;
    }
    timeout = timeout_event(&match, &row, &settings);
    switch (settings.action) {
    case DEADLINE_NOTIFY_ADMINS:
        ok = notify_admins(conn, &row, now, &match, engine, state, &settings,
                           timeout, err);
        break;
    case DEADLINE_FORFEIT:
        ok = forfeit(conn, &row, now, &match, &reach, engine, state, &settings,
                     timeout, err);
        break;
    case DEADLINE_SKIP:
    case DEADLINE_DEFAULT_MOVE:
        ok = act_for_seat(conn, &row, now, &match, &reach, engine, state,
                          &settings, timeout, err);
        break;
    }
    if (ok)
        log_info("match m_%lld: seat %d's deadline passed (%s): %s", match_id,
                 row.seat, row.kind, deadline_action_name(settings.action));
done:
    json_decref(timeout);
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return ok;
}
