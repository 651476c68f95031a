/* test_move_answer.c: what a move's answer says, through the real pbemd:
 * its own seq and the events it caused beside the match's new head, so a
 * bot that made the last move of a match finds its move (not only the
 * finished event that followed it) in the log. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "../../support/e2e.h"

/* One legal move of the seat that must act, posted; its answer, or a
 * response with status 0 when the match is over. */
static e2e_response play_one(e2e_table *t, long long *played_on)
{
    json_t *match = e2e_get(t, "", NULL);
    const char *status = json_string_value(json_object_get(match, "status"));
    if (strcmp(status, "finished") == 0) {
        json_decref(match);
        return (e2e_response){0};
    }
    int seat = e2e_first_pending_seat(match);
    cr_assert_geq(seat, 0, "an active match waits for nobody");
    json_decref(match);
    json_t *view = e2e_get(t, "/view", &t->players[seat]);
    json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
    cr_assert_gt(json_array_size(moves), 0, "seat %d has no legal move", seat);
    *played_on = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    json_t *action = json_array_get(
        moves, randombytes_uniform((uint32_t)json_array_size(moves)));
    e2e_response r = e2e_post_move(t, seat, *played_on, action);
    json_decref(view);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    return r;
}

static long long integer(const json_t *object, const char *key)
{
    return json_integer_value(json_object_get(object, key));
}

Test(move_answer, the_last_move_gives_its_own_seq_and_the_finished_event,
     .timeout = 300)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    json_t *last = NULL;
    long long last_played_on = 0, moves = 0;
    for (;;) {
        long long played_on = 0;
        e2e_response r = play_one(&t, &played_on);
        if (r.status == 0)
            break;
        moves++;
        json_t *events = json_object_get(r.json, "events");
        if (json_object_get(r.json, "decision") == NULL) {
            /* A plain move: its event is the one after the head it was
             * played on, and comes first among what it caused. */
            cr_expect_eq(integer(r.json, "move_seq"), played_on + 1, "%s",
                         r.body);
            cr_assert_geq(json_array_size(events), 1, "%s", r.body);
            cr_expect_eq(integer(json_array_get(events, 0), "seq"),
                         played_on + 1);
            cr_expect_str_eq(json_string_value(json_object_get(
                                 json_array_get(events, 0), "kind")),
                             "move");
        }
        json_decref(last);
        last = json_incref(r.json);
        last_played_on = played_on;
        e2e_response_free(&r);
    }
    cr_assert_not_null(last, "no move was played");
    cr_log_info("%lld moves", moves);
    cr_assert(json_is_true(json_object_get(last, "over")), "%s",
              json_dumps(last, 0));
    long long move_seq = integer(last, "move_seq");
    long long head = integer(last, "seq");
    cr_expect_eq(move_seq, last_played_on + 1);
    cr_expect_eq(head, move_seq + 1, "the head is the finished event's");
    json_t *events = json_object_get(last, "events");
    cr_assert_eq(json_array_size(events), 2);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(events, 1), "kind")),
        "finished");
    cr_expect_eq(integer(json_array_get(events, 1), "seq"), head);
    /* The log agrees: the move at move_seq, finished at the head. */
    json_t *log = e2e_all_events(&t);
    json_t *move = json_array_get(log, (size_t)move_seq - 1);
    json_t *finished = json_array_get(log, (size_t)head - 1);
    cr_expect_eq(integer(move, "seq"), move_seq);
    cr_expect_str_eq(json_string_value(json_object_get(move, "kind")), "move");
    cr_expect_eq(integer(finished, "seq"), head);
    cr_expect_str_eq(json_string_value(json_object_get(finished, "kind")),
                     "finished");
    json_decref(log);
    json_decref(last);
    e2e_stop(&t.server);
}
