/* A match told in sentences through pbemd's doors: every event of the
 * events list carries one, a seat's view carries the latest of them told
 * to that seat and where its own last action stands, a move's answer says
 * what the move did, and the sentences are told again from the log when
 * they are missing. The end of a match names the winner, the scores, why
 * it ended and the tie-break. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "play/event_tell.h"
#include "store/store.h"

/* Plays until the match has at least n events. */
static void play_until(e2e_table *t, long long n)
{
    for (int i = 0; i < 400; i++) {
        json_t *match = e2e_get(t, "", NULL);
        long long head = json_integer_value(
            json_object_get(json_object_get(match, "head"), "seq"));
        json_decref(match);
        if (head >= n)
            return;
        cr_assert(e2e_play_one(t), "the match ended before event %lld", n);
    }
    cr_assert_fail("event %lld never came", n);
}

/* The seq of seat's last move, commitment or reveal in events, or 0. */
static long long last_action(const json_t *events, int seat)
{
    long long last = 0;
    size_t i;
    const json_t *e;
    json_array_foreach(events, i, e)
    {
        const char *kind = json_string_value(json_object_get(e, "kind"));
        const json_t *by = json_object_get(e, "seat");
        if (json_is_integer(by) && json_integer_value(by) == seat &&
            (strcmp(kind, "move") == 0 || strcmp(kind, "committed") == 0 ||
             strcmp(kind, "revealed") == 0))
            last = json_integer_value(json_object_get(e, "seq"));
    }
    return last;
}

Test(event_log, every_event_is_told_and_a_move_answers_what_it_did,
     .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "artifact_stack", 2, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    long long head = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    json_t *view = e2e_get(&t, "/view", &t.players[seat]);
    json_t *action = json_array_get(
        json_object_get(json_object_get(view, "legal"), "moves"), 0);
    e2e_response r = e2e_post_move(&t, seat, head, action);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const char *told = json_string_value(json_object_get(r.json, "text"));
    cr_assert_not_null(told, "the move's answer tells nothing: %s", r.body);
    cr_expect_eq(strncmp(told, "You", 3), 0,
                 "a move is told to its player in the second person: %s", told);
    e2e_response_free(&r);
    json_decref(view);

    json_t *events = e2e_all_events(&t);
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e)
    {
        const char *text = json_string_value(json_object_get(e, "text"));
        cr_assert(text != NULL && text[0] != '\0', "event %zu is not told",
                  i + 1);
    }
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(events, 0), "text")),
        "A match of Artifact Stack for 2 players was created.");
    char joined[64];
    snprintf(joined, sizeof joined, "%s joined the match.", t.players[1].name);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(events, 2), "text")),
        joined);
    json_t *move = json_array_get(events, (size_t)head);
    cr_expect_str_eq(json_string_value(json_object_get(move, "kind")), "move");
    const char *public = json_string_value(json_object_get(move, "text"));
    cr_expect_eq(
        strncmp(public, t.players[seat].name, strlen(t.players[seat].name)), 0,
        "a move is told to the public by its player's name: %s", public);
    json_decref(events);
    e2e_stop(&t.server);
}

Test(event_log, a_view_tells_each_seat_the_match_and_since_its_last_turn,
     .timeout = 180)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    play_until(&t, 30);
    json_t *events = e2e_all_events(&t);
    long long head = (long long)json_array_size(events);
    for (int seat = 0; seat < 2; seat++) {
        json_t *view = e2e_get(&t, "/view", &t.players[seat]);
        json_t *log = json_object_get(view, "log");
        cr_assert_eq(json_array_size(log), (size_t)head,
                     "seat %d's log holds %zu of %lld events", seat,
                     json_array_size(log), head);
        size_t i;
        json_t *entry;
        json_array_foreach(log, i, entry)
        {
            cr_expect_eq(json_integer_value(json_object_get(entry, "seq")),
                         (long long)i + 1);
            json_t *event = json_array_get(events, i);
            json_t *by = json_object_get(event, "seat");
            json_t *actor = json_object_get(entry, "seat");
            cr_expect(json_is_integer(by) ? json_equal(by, actor)
                                          : json_is_null(actor),
                      "event %zu: actor", i + 1);
            const char *kind =
                json_string_value(json_object_get(event, "kind"));
            const char *text =
                json_string_value(json_object_get(entry, "text"));
            if (strcmp(kind, "move") == 0 && json_integer_value(by) == seat)
                cr_expect_eq(strncmp(text, "You", 3), 0,
                             "seat %d's own move: %s", seat, text);
        }
        cr_expect_eq(json_integer_value(json_object_get(view, "since_seq")),
                     last_action(events, seat), "seat %d's last action", seat);
        json_decref(view);
    }
    json_decref(events);
    e2e_stop(&t.server);
}

Test(event_log, sentences_missing_are_told_again_from_the_log, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    play_until(&t, 12);
    json_t *before = e2e_all_events(&t);
    json_t *view_before = e2e_get(&t, "/view", &t.players[0]);
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK);
    char sql[128];
    snprintf(sql, sizeof sql, "DELETE FROM event_texts WHERE match_id = %lld",
             store_parse_match_ref(t.match));
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQresultErrorMessage(r));
    cr_assert_gt(atoi(PQcmdTuples(r)), 0, "no sentence was kept");
    PQclear(r);
    PQfinish(conn);
    json_t *after = e2e_all_events(&t);
    cr_expect(json_equal(before, after), "told again differently");
    json_t *view_after = e2e_get(&t, "/view", &t.players[0]);
    cr_expect(json_equal(json_object_get(view_before, "log"),
                         json_object_get(view_after, "log")),
              "the seat's log was told again differently");
    json_decref(before);
    json_decref(after);
    json_decref(view_before);
    json_decref(view_after);
    e2e_stop(&t.server);
}

Test(event_log, the_end_names_the_winner_the_scores_why_and_the_tie_break)
{
    const char *names[] = {"Ann", "Bob", "Carol"};
    json_t *result = json_pack(
        "{s:b,s:[i,i,i],s:[[i],[i],[i]],s:s,s:s}", "over", 1, "scores", 41, 41,
        12, "ranking", 1, 0, 2, "reason", "Four Wild piles were empty.",
        "tie_break", "Tied at 41: Bob holds more money.");
    char *text = event_tell_result(result, RULES_SPECTATOR, names, 3);
    cr_expect_str_eq(text, "The match is over: Bob won with 41; Ann 41, "
                           "Carol 12. Four Wild piles were empty. Tie-break: "
                           "Tied at 41: Bob holds more money.");
    free(text);
    text = event_tell_result(result, 1, names, 3);
    cr_expect_eq(strncmp(text, "The match is over: You won with 41;", 35), 0,
                 "%s", text);
    free(text);
    json_decref(result);
    /* The rules' sentences name seats; the told one names players. */
    result = json_pack(
        "{s:b,s:[i,i],s:[[i],[i]],s:s,s:s}", "over", 1, "scores", 41, 41,
        "ranking", 1, 0, "reason", "seat 0 reached the dinner table.",
        "tie_break", "Tied at 41: seat 1 showed 4 cards, seat 0 showed 3; "
                     "seat 10 is nobody.");
    text = event_tell_result(result, RULES_SPECTATOR, names, 2);
    cr_expect_str_eq(text, "The match is over: Bob won with 41; Ann 41. Ann "
                           "reached the dinner table. Tie-break: Tied at 41: "
                           "Bob showed 4 cards, Ann showed 3; seat 10 is "
                           "nobody.");
    free(text);
    json_decref(result);
}
