/* Vacations: a player's clocks stand still while away, deadlines move by
 * the overlap, each match caps the days, and a vacation can be cancelled
 * (one under way ends at once). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

static int pending_seat(const json_t *view)
{
    return (int)json_integer_value(json_array_get(
        json_object_get(json_object_get(view, "pending"), "seats"), 0));
}

static long long due_of(const e2e_server *s, const char *match, int seat)
{
    json_t *view = scene_public(s, match);
    json_t *waiting = json_object_get(scene_clock_of(view, seat), "waiting");
    cr_assert_not_null(waiting, "seat %d has no clock", seat);
    long long due = scene_time(json_object_get(waiting, "due_at"));
    json_decref(view);
    return due;
}

static e2e_response vacation(const e2e_server *s, const e2e_player *p,
                             const char *from, const char *until)
{
    char body[160];
    snprintf(body, sizeof body, "{\"from\":\"%s\",\"until\":\"%s\"}", from,
             until);
    return e2e_call(s, "POST", "/v1/players/me/vacation", body, p);
}

static void cancel(const e2e_server *s, const e2e_player *p, const char *id,
                   long status)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/players/me/vacation/%s", id);
    e2e_response r = e2e_call(s, "DELETE", path, NULL, p);
    cr_assert_eq(r.status, status, "%s", r.body);
    e2e_response_free(&r);
}

Test(vacation, a_vacation_moves_the_deadline_and_can_be_cancelled,
     .timeout = 90)
{
    scene_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p[2];
    e2e_register(&s, "Robert", &p[0]);
    e2e_register(&s, "Eliza", &p[1]);
    char match[32];
    scene_match(&s, p, 2, "artifact_stack",
                "{\"turn_hours\":72,\"reminder_hours\":12,"
                "\"vacation_days_max\":3}",
                match);
    json_t *view = scene_public(&s, match);
    int seat = pending_seat(view);
    json_decref(view);
    cr_assert_eq(due_of(&s, match, seat), T0 + 72 * HOUR);

    /* Two days away inside the turn: the deadline moves by two days. */
    e2e_response r =
        vacation(&s, &p[seat], "2030-01-02T00:00:00Z", "2030-01-04T00:00:00Z");
    cr_assert_eq(r.status, 201, "%s", r.body);
    char id[32];
    snprintf(id, sizeof id, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "vacation"), "id")));
    json_t *left = json_array_get(json_object_get(r.json, "matches"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(left, "match")), match);
    cr_assert_float_eq(json_real_value(json_object_get(left, "days_left")), 1.0,
                       1e-9, "%s", r.body);
    e2e_response_free(&r);
    cr_assert_eq(due_of(&s, match, seat), T0 + 120 * HOUR);
    view = scene_public(&s, match);
    json_t *shown = json_object_get(scene_clock_of(view, seat), "vacations");
    cr_assert_eq(json_array_size(shown), 1, "the vacation is in the view");
    cr_assert_eq(scene_time(json_object_get(json_array_get(shown, 0), "from")),
                 T0 + 24 * HOUR);
    json_t *waiting = json_object_get(scene_clock_of(view, seat), "waiting");
    cr_assert_eq(scene_time(json_object_get(waiting, "reminder_at")),
                 T0 + 108 * HOUR);
    json_decref(view);

    /* More than the match allows is refused, naming the match. */
    r = vacation(&s, &p[seat], "2030-01-05T00:00:00Z", "2030-01-06T12:00:00Z");
    cr_assert_eq(r.status, 422, "%s", r.body);
    cr_assert_str_eq(e2e_error_code(&r), "vacation_too_long");
    const char *message = json_string_value(
        json_object_get(json_object_get(r.json, "error"), "message"));
    cr_assert_not_null(strstr(message, match), "%s", message);
    e2e_response_free(&r);
    /* Malformed, backwards or past vacations too. */
    r = vacation(&s, &p[seat], "tomorrow", "2030-01-06T00:00:00Z");
    cr_assert_eq(r.status, 400, "%s", r.body);
    e2e_response_free(&r);
    r = vacation(&s, &p[seat], "2030-01-06T00:00:00Z", "2030-01-05T00:00:00Z");
    cr_assert_eq(r.status, 422, "%s", r.body);
    e2e_response_free(&r);
    r = vacation(&s, &p[seat], "2029-12-20T00:00:00Z", "2030-01-01T06:00:00Z");
    cr_assert_eq(r.status, 422, "%s", r.body);
    e2e_response_free(&r);

    /* The player sees it; cancelling it before it begins brings the
     * deadline back. */
    r = e2e_call(&s, "GET", "/v1/players/me/vacation", NULL, &p[seat]);
    cr_assert_eq(r.status, 200);
    cr_assert_eq(json_array_size(json_object_get(r.json, "vacations")), 1);
    e2e_response_free(&r);
    cancel(&s, &p[1 - seat], id, 404);
    cancel(&s, &p[seat], id, 200);
    cancel(&s, &p[seat], id, 404);
    cr_assert_eq(due_of(&s, match, seat), T0 + 72 * HOUR);

    /* A vacation under way, cut short after a day: the deadline moves by
     * the day that was taken. */
    r = vacation(&s, &p[seat], "2030-01-01T00:00:00Z", "2030-01-03T00:00:00Z");
    cr_assert_eq(r.status, 201, "%s", r.body);
    snprintf(id, sizeof id, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "vacation"), "id")));
    e2e_response_free(&r);
    cr_assert_eq(due_of(&s, match, seat), T0 + 120 * HOUR);
    scene_clock(T0 + 24 * HOUR);
    cancel(&s, &p[seat], id, 200);
    cr_assert_eq(due_of(&s, match, seat), T0 + 96 * HOUR);
    /* Past its end it cannot be cancelled. */
    scene_clock(T0 + 25 * HOUR);
    r = vacation(&s, &p[seat], "2030-01-02T01:00:00Z", "2030-01-02T02:00:00Z");
    cr_assert_eq(r.status, 201, "%s", r.body);
    snprintf(id, sizeof id, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "vacation"), "id")));
    e2e_response_free(&r);
    scene_clock(T0 + 27 * HOUR);
    cancel(&s, &p[seat], id, 409);

    /* A player in no match with deadlines has no cap. */
    e2e_player free_player;
    e2e_register(&s, "Nigel", &free_player);
    r = vacation(&s, &free_player, "2030-01-02T04:00:00Z",
                 "2030-03-01T00:00:00Z");
    cr_assert_eq(r.status, 201, "%s", r.body);
    cr_assert_eq(json_array_size(json_object_get(r.json, "matches")), 0);
    e2e_response_free(&r);
    stop_server(&s);
}
