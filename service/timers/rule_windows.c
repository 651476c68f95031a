/* rule_windows.c */
#include "timers/rule_windows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "deadlines/deadline_settings.h"
#include "core/log.h"
#include "deadlines/deadlines.h"
#include "play/append.h"
#include "timers/absent_move.h"

static json_t *time_json(long long seconds)
{
    char text[32];
    clock_format(seconds, text);
    return json_string(text);
}

/* The public "timeout" event of a seat whose window closed. */
static json_t *window_event(const store_match *match, const deadline_row *row)
{
    char due[32], length[32], reason[320];
    clock_format(row->times.due_at, due);
    if (row->budget.turn % 3600 == 0)
        snprintf(length, sizeof length, "%lld h", row->budget.turn / 3600);
    else
        snprintf(length, sizeof length, "%lld s", row->budget.turn);
    snprintf(reason, sizeof reason,
             "seat %d (%s) did not answer in the window the rules leave open "
             "(%s, closed at %s): pass",
             row->seat, match->seat_name[row->seat], length, due);
    return json_pack("{s:s,s:i,s:{s:s,s:s,s:s,s:o,s:i,s:[]}}", "kind",
                     "timeout", "seat", row->seat, "data", "reason", reason,
                     "action", "pass", "waiting_for", "window", "due_at",
                     time_json(row->times.due_at), "time_bank_used_seconds", 0,
                     "moves");
}

bool rule_windows_close(PGconn *conn, const deadline_row *row, long long now,
                        store_match *match, const rules_engine *engine,
                        rules_state *state, apierr *err)
{
    rules_window window;
    if (row->seat < 0 || row->seat >= match->seat_count ||
        !deadlines_window_open(engine, state, &window) ||
        !(window.seats & (1u << row->seat)) ||
        strcmp(window.id, row->window) != 0)
        return apierr_set(err, 409, "stale_deadline",
                          "deadline %lld no longer matches what the match "
                          "waits for",
                          row->deadline_id);
    bool passed = false;
    json_t *move =
        absent_move_choose(engine, state, row->seat, DEADLINE_SKIP, &passed);
    if (move == NULL || !passed) {
        json_decref(move);
        return apierr_set(err, 500, "default_move",
                          "the rules offer seat %d no pass in window %s",
                          row->seat, window.id);
    }
    char *text = engine->format_move(state, row->seat, move);
    rules_error rerr = {{0}};
    if (!engine->apply(state, row->seat, move, &rerr)) {
        free(text);
        json_decref(move);
        return apierr_set(err, 500, "default_move",
                          "the rules refuse seat %d's pass: %s", row->seat,
                          rerr.message);
    }
    json_t *event = window_event(match, row);
    json_array_append_new(
        json_object_get(json_object_get(event, "data"), "moves"),
        json_pack("{s:o,s:s?}", "action", move, "text", text));
    free(text);
    /* A pass only takes a seat off those who must act: nobody new has to
     * be told anything. */
    append_change change = {.events = &event, .count = 1, .state = state};
    bool ok = deadlines_mark_fired(conn, row, "pass", false, now, err) &&
              append_events(conn, match, engine, &change, NULL, err);
    json_decref(event);
    if (ok)
        log_info("match m_%lld: seat %d passed at the end of window %s",
                 match->match_id, row->seat, window.id);
    return ok;
}
