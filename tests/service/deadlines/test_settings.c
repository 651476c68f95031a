/* Deadline options at match creation: refused with a sentence that names
 * the setting, shown in the public view and recorded in the created event;
 * a match without them has no clocks at all. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

Test(settings, bad_deadline_options_are_named, .timeout = 60)
{
    scene_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p;
    e2e_register(&s, "Robert", &p);
    static const struct {
        const char *deadline;
        long status;
        const char *words;
    } cases[] = {
        {"72", 400, "must be an object"},
        {"{\"turn_hours\":72,\"action\":\"vanish\"}", 400, "deadline.action"},
        {"{\"reminder_hours\":2}", 400, "turn_hours is required"},
        {"{\"turn_hours\":72,\"grace\":2}", 400, "no setting called grace"},
        {"{\"turn_hours\":6,\"reminder_hours\":8}", 422, "reminder_hours"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[256];
        snprintf(body, sizeof body,
                 "{\"game\":\"artifact_stack\",\"seats\":2,\"deadline\":%s}",
                 cases[i].deadline);
        e2e_response r = e2e_call(&s, "POST", "/v1/matches", body, &p);
        cr_expect_eq(r.status, cases[i].status, "%s: %s", cases[i].deadline,
                     r.body);
        cr_expect_str_eq(e2e_error_code(&r), "bad_deadline");
        const char *message = json_string_value(
            json_object_get(json_object_get(r.json, "error"), "message"));
        cr_expect_not_null(message && strstr(message, cases[i].words), "%s",
                           r.body);
        e2e_response_free(&r);
    }
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM matches"), 0);
    stop_server(&s);
}

Test(settings, deadline_options_are_public_and_in_the_log, .timeout = 60)
{
    scene_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p[2];
    e2e_register(&s, "Robert", &p[0]);
    e2e_register(&s, "Eliza", &p[1]);
    char with[32], without[32];
    scene_match(
        &s, p, 2, "quarriors",
        "{\"turn_hours\":48,\"reminder_hours\":6,\"action\":\"forfeit\","
        "\"grace_hours\":1,\"time_bank_hours\":4}",
        with);
    scene_match(&s, p, 2, "quarriors", NULL, without);
    json_t *view = scene_public(&s, with);
    json_t *expected =
        json_pack("{s:i,s:i,s:s,s:i,s:i,s:i}", "turn_hours", 48,
                  "reminder_hours", 6, "action", "forfeit", "grace_hours", 1,
                  "time_bank_hours", 4, "vacation_days_max", 14);
    cr_assert(json_equal(json_object_get(view, "deadline"), expected));
    cr_assert_eq(json_array_size(json_object_get(view, "clocks")), 2);
    for (int seat = 0; seat < 2; seat++)
        cr_assert_eq(json_integer_value(json_object_get(
                         scene_clock_of(view, seat), "time_bank_seconds")),
                     4 * HOUR);
    json_decref(view);
    json_t *created = scene_events(&s, with, "created");
    cr_assert(
        json_equal(
            json_object_get(json_object_get(json_array_get(created, 0), "data"),
                            "deadline"),
            expected),
        "the deadline rules are in the public record");
    json_decref(created);
    json_decref(expected);

    view = scene_public(&s, without);
    cr_assert_null(json_object_get(view, "deadline"));
    cr_assert_null(json_object_get(view, "clocks"));
    json_decref(view);
    created = scene_events(&s, without, "created");
    cr_assert_null(json_object_get(
        json_object_get(json_array_get(created, 0), "data"), "deadline"));
    json_decref(created);
    char sql[160];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM deadlines WHERE match_id = %s", without + 2);
    cr_assert_eq(scene_sql_number(sql), 0);
    /* Time passes; a match without deadlines waits for ever. */
    scene_clock(T0 + 1000 * DAY);
    scene_worker_passes(&s, 2);
    json_t *timeouts = scene_events(&s, without, "timeout");
    cr_assert_eq(json_array_size(timeouts), 0);
    json_decref(timeouts);
    stop_server(&s);
}
