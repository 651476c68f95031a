/* A match's export for its players (GET /v1/matches/{id}/export): the
 * public log as GET …/events gives it, the talk the reader may read and
 * the reader's own view; never another pair's private message. (The
 * export of a finished match for anyone is in test_table.c, at the end
 * of the match played there.) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../support/e2e.h"
#include "talk.h"

/* GET …/export as seat's player (-1: unsigned). */
static e2e_response export_as(const e2e_table *t, int seat)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/export", t->match);
    return e2e_call(&t->server, "GET", path, NULL,
                    seat >= 0 ? &t->players[seat] : NULL);
}

/* The texts of the export's messages, joined by "|". */
static void expect_talk(const json_t *export, const char *expected)
{
    char got[512] = "";
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(export, "messages"), i, m)
    {
        if (i > 0)
            strcat(got, "|");
        strncat(got, json_string_value(json_object_get(m, "text")), 200);
    }
    cr_expect_str_eq(got, expected);
}

Test(export, each_seat_exports_the_log_its_talk_and_its_view, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    talk_say(&t, 0, -1, "Good luck, everyone!");
    talk_say(&t, 0, 1, "Bob, shall we gang up on Carol?");
    talk_say(&t, 1, 0, "Deal, Alice.");
    cr_assert(e2e_play_one(&t));
    json_t *events = e2e_all_events(&t);

    e2e_response bob = export_as(&t, 1);
    cr_assert_eq(bob.status, 200, "%s", bob.body);
    cr_expect_str_eq(json_string_value(json_object_get(bob.json, "format")),
                     "pbem-player-export/1");
    cr_expect_eq(json_integer_value(json_object_get(bob.json, "seat")), 1);
    expect_talk(bob.json, "Good luck, everyone!|Bob, shall we gang up on "
                          "Carol?|Deal, Alice.");
    /* The log is the public one, every event with its hashes, so it is
     * checked as the log is. */
    cr_expect(json_equal(json_object_get(bob.json, "events"), events),
              "the export's events are not GET …/events'");
    cr_expect_eq(json_integer_value(json_object_get(bob.json, "head")),
                 (json_int_t)json_array_size(events));
    json_t *view = e2e_get(&t, "/view", &t.players[1]);
    cr_expect(json_equal(json_object_get(bob.json, "view"), view),
              "the export's view is not Bob's view");
    json_decref(view);
    e2e_response_free(&bob);

    /* Carol's holds the public talk and her own view, nothing of the
     * pair's private talk. */
    e2e_response carol = export_as(&t, 2);
    cr_assert_eq(carol.status, 200, "%s", carol.body);
    expect_talk(carol.json, "Good luck, everyone!");
    cr_expect_null(strstr(carol.body, "gang up"), "%s", carol.body);
    cr_expect_null(strstr(carol.body, "Deal, Alice"), "%s", carol.body);
    cr_expect_eq(json_integer_value(json_object_get(
                     json_object_get(carol.json, "view"), "seat")),
                 2);
    e2e_response_free(&carol);

    /* Someone not at the table exports nothing while it is played. */
    e2e_response anyone = export_as(&t, -1);
    cr_expect_eq(anyone.status, 403, "%s", anyone.body);
    cr_expect_str_eq(e2e_error_code(&anyone), "not_seated");
    e2e_response_free(&anyone);
    json_decref(events);
    e2e_stop(&t.server);
}
