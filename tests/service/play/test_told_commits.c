/* What a process keeps of a match's sentences for its seats' views
 * (play/told_cache.h) comes from commits only: an append rolled back is
 * never told, even once another event has taken its seq; and a seat's
 * sealed choice, committed and revealed, starts its "since your last
 * turn" where the database says. Through the use cases, in this process,
 * on the toy engine. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "play/append.h"
#include "play/describe.h"
#include "play/event_log.h"
#include "store/db.h"
#include "store/event_texts.h"
#include "store/store.h"
#include "toy_table.h"

/* pbem_event_texts_read_rows_total as this process counts it. */
static long long rows_read(void)
{
    char *page = metrics_render();
    const char *name = "\npbem_event_texts_read_rows_total ";
    const char *at = strstr(page, name);
    cr_assert_not_null(at);
    long long n = atoll(at + strlen(name));
    free(page);
    return n;
}

/* Appends events (count of them, stolen) to match, commits, and makes the
 * commit known, as append_commit does. */
static void append_committed(PGconn *conn, store_match *match,
                             const rules_state *before,
                             const rules_state *state, json_t **events,
                             int count)
{
    toy_table_append(conn, match, before, state, NULL, events, count);
    event_log_committed(match);
}

/* seat's "add n" as the event a move appends. */
static json_t *add_move(rules_state *state, int seat, int n)
{
    json_t *action = json_pack("{s:s,s:i}", "type", "add", "n", n);
    rules_error rerr = {{0}};
    cr_assert(toy_engine.apply(state, seat, action, &rerr), "%s", rerr.message);
    char text[16];
    snprintf(text, sizeof text, "add %d", n);
    return json_pack("{s:s,s:i,s:{s:o,s:s}}", "kind", "move", "seat", seat,
                     "data", "action", action, "text", text);
}

static int turn_of(const rules_state *state)
{
    rules_pending pending;
    toy_engine.pending(state, &pending);
    return __builtin_ctz(pending.seats);
}

/* seat's view must tell what the database tells: the same log, byte for
 * byte, and the same last action. Returns the log's last sentence
 * (malloc'd). */
static char *expect_as_database(PGconn *conn, const store_match *match,
                                const rules_state *state, int seat)
{
    apierr err;
    json_t *view = describe_seat_view(match, &toy_engine, state, seat, &err);
    cr_assert_not_null(view, "%s", err.message);
    long long acted = -1;
    json_t *want = store_event_texts_told_acted(conn, match->match_id, seat, 0,
                                                match->head_seq, &acted, &err);
    cr_assert_not_null(want, "%s", err.message);
    json_t *log = json_object_get(view, "log");
    char *got = json_dumps(log, JSON_COMPACT);
    char *expected = json_dumps(want, JSON_COMPACT);
    cr_expect_str_eq(got, expected, "seat %d's log at %lld", seat,
                     match->head_seq);
    cr_expect_eq(json_integer_value(json_object_get(view, "since_seq")), acted,
                 "seat %d's last action at %lld", seat, match->head_seq);
    char *last = strdup(json_string_value(json_object_get(
        json_array_get(log, json_array_size(log) - 1), "text")));
    free(got);
    free(expected);
    json_decref(want);
    json_decref(view);
    return last;
}

Test(told_commits, an_append_rolled_back_is_never_told, .timeout = 60)
{
    PGconn *conn = toy_table_database();
    store_match match;
    rules_state *state = toy_table_match(conn, &match);
    int seat = turn_of(state);
    free(expect_as_database(conn, &match, state, seat));

    /* "add 1", told and set aside, then rolled back. */
    store_match lost = match;
    lost.options = json_deep_copy(match.options);
    rules_state *lost_state = toy_engine.clone(state);
    json_t *move = add_move(lost_state, seat, 1);
    apierr err;
    cr_assert(store_begin(conn, &err), "%s", err.message);
    append_change change = {.events = &move,
                            .count = 1,
                            .state = lost_state,
                            .before = state,
                            .tell = APPEND_TELL_NOBODY};
    cr_assert(append_events(conn, &lost, &toy_engine, &change, NULL, &err),
              "%s", err.message);
    store_rollback(conn);
    json_decref(move);
    toy_engine.destroy(lost_state);
    store_match_free(&lost);

    /* "add 2" at the same seq, committed and kept. */
    rules_state *before = toy_engine.clone(state);
    move = add_move(state, seat, 2);
    append_committed(conn, &match, before, state, &move, 1);
    toy_engine.destroy(before);
    long long read = rows_read();
    for (int s = 0; s < 2; s++) {
        char *last = expect_as_database(conn, &match, state, s);
        cr_expect_not_null(strstr(last, "added 2"), "seat %d is told: %s", s,
                           last);
        free(last);
    }
    cr_expect_eq(rows_read(), read, "the views read back what the append told");
    toy_engine.destroy(state);
    store_match_free(&match);
}

Test(told_commits, a_sealed_choice_starts_since_your_last_turn, .timeout = 60)
{
    PGconn *conn = toy_table_database();
    store_match match;
    rules_state *state = toy_table_match(conn, &match);
    for (int s = 0; s < 2; s++)
        free(expect_as_database(conn, &match, state, s));
    for (int i = 0; i < 3; i++) {
        rules_state *before = toy_engine.clone(state);
        json_t *move = add_move(state, turn_of(state), 1);
        append_committed(conn, &match, before, state, &move, 1);
        toy_engine.destroy(before);
    }
    rules_pending pending;
    toy_engine.pending(state, &pending);
    cr_assert_eq(pending.wait, RULES_WAIT_SIMULTANEOUS);
    char zeros[65];
    memset(zeros, '0', 64);
    zeros[64] = '\0';
    /* Bob seals first, then Ann; both reveal; the decision resolves. */
    const int order[2] = {1, 0};
    for (int i = 0; i < 2; i++) {
        json_t *committed = json_pack(
            "{s:s,s:i,s:{s:s,s:s}}", "kind", "committed", "seat", order[i],
            "data", "decision", pending.decision, "commitment", zeros);
        append_committed(conn, &match, NULL, state, &committed, 1);
        for (int s = 0; s < 2; s++)
            free(expect_as_database(conn, &match, state, s));
    }
    rules_state *before = toy_engine.clone(state);
    json_t *events[3];
    json_t *choices = json_array();
    for (int s = 0; s < 2; s++) {
        json_t *guess = json_pack("{s:s,s:i}", "type", "guess", "n", s);
        rules_error rerr = {{0}};
        cr_assert(toy_engine.apply(state, s, guess, &rerr), "%s", rerr.message);
        events[s] = json_pack("{s:s,s:i,s:{s:s,s:O,s:s}}", "kind", "revealed",
                              "seat", s, "data", "decision", pending.decision,
                              "choice", guess, "nonce", zeros);
        json_array_append_new(
            choices, json_pack("{s:i,s:o}", "seat", s, "action", guess));
    }
    events[2] = json_pack("{s:s,s:{s:s,s:o}}", "kind", "decided", "data",
                          "decision", pending.decision, "choices", choices);
    append_committed(conn, &match, before, state, events, 3);
    toy_engine.destroy(before);
    long long read = rows_read();
    for (int s = 0; s < 2; s++)
        free(expect_as_database(conn, &match, state, s));
    cr_expect_eq(rows_read(), read, "the views read back what was kept");
    toy_engine.destroy(state);
    store_match_free(&match);
}
