/* Deadlines are rows, not timers: two or three pbemd processes share one
 * database and one test clock; the reminder is delivered once and the
 * deadline's action applied once, even with a process restarted between
 * the two. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

static int pending_seat(const json_t *view)
{
    json_t *seats = json_object_get(json_object_get(view, "pending"), "seats");
    cr_assert_eq(json_array_size(seats), 1, "one seat must act");
    return (int)json_integer_value(json_array_get(seats, 0));
}

/* Deliveries the receiver verified whose webhook type is type. */
static size_t deliveries(const receiver *hook, const char *type, json_t **last)
{
    json_t *lines = receiver_lines(hook);
    size_t n = 0, i;
    json_t *line;
    json_array_foreach(lines, i, line)
    {
        json_t *body = json_loads(
            json_string_value(json_object_get(line, "body")), 0, NULL);
        const char *got = json_string_value(json_object_get(body, "type"));
        if (got != NULL && strcmp(got, type) == 0) {
            cr_assert(json_is_true(json_object_get(line, "verified")),
                      "standardwebhooks refused it");
            n++;
            if (last != NULL) {
                json_decref(*last);
                *last = json_incref(body);
            }
        }
        json_decref(body);
    }
    json_decref(lines);
    return n;
}

static void wait_deliveries(const receiver *hook, const char *type,
                            size_t count)
{
    for (int i = 0; i < 400 && deliveries(hook, type, NULL) < count; i++)
        pause_ms(50);
    cr_assert_eq(deliveries(hook, type, NULL), count, "%s deliveries", type);
}

Test(exactly_once,
     reminder_and_default_move_once_with_two_services_and_a_restart,
     .timeout = 120)
{
    scene_env();
    receiver hook;
    receiver_start(&hook, "webhook-receiver.mjs", NULL);
    e2e_server a = {0}, b;
    e2e_start(&a);
    e2e_player p[2];
    e2e_register(&a, "Robert", &p[0]);
    e2e_register(&a, "Eliza", &p[1]);
    char url[128], match[32];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", hook.port);
    for (int i = 0; i < 2; i++)
        receiver_add_secret(&hook, register_webhook(&a, &p[i], NULL, url));
    scene_start_twin(&b, &a);
    scene_match(&a, p, 2, "artifact_stack",
                "{\"turn_hours\":72,\"reminder_hours\":12,"
                "\"action\":\"default_move\"}",
                match);

    /* The clock of the seat on turn runs from the start. */
    json_t *view = scene_public(&b, match);
    int seat = pending_seat(view);
    json_t *deadline = json_object_get(view, "deadline");
    cr_assert_str_eq(json_string_value(json_object_get(deadline, "action")),
                     "default_move");
    json_t *waiting = json_object_get(scene_clock_of(view, seat), "waiting");
    cr_assert_not_null(waiting, "seat %d has no running clock", seat);
    cr_assert_str_eq(json_string_value(json_object_get(waiting, "for")),
                     "turn");
    cr_assert_eq(scene_time(json_object_get(waiting, "since")), T0);
    cr_assert_eq(scene_time(json_object_get(waiting, "reminder_at")),
                 T0 + 60 * HOUR);
    cr_assert_eq(scene_time(json_object_get(waiting, "due_at")),
                 T0 + 72 * HOUR);
    cr_assert_eq(scene_time(json_object_get(waiting, "fires_at")),
                 T0 + 72 * HOUR);
    cr_assert_null(json_object_get(scene_clock_of(view, 1 - seat), "waiting"));
    long long head = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    json_decref(view);
    wait_deliveries(&hook, "match.your_turn", 1);

    /* Before the reminder time: nothing. */
    scene_clock(T0 + 59 * HOUR);
    scene_worker_passes(&a, 2);
    scene_worker_passes(&b, 2);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM outbox"
                                  " WHERE reason = 'deadline_reminder'"),
                 0);

    /* Past it: one reminder, whichever process saw it first. */
    scene_clock(T0 + 61 * HOUR);
    wait_deliveries(&hook, "match.deadline_reminder", 1);
    scene_worker_passes(&a, 2);
    scene_worker_passes(&b, 2);
    json_t *reminder = NULL;
    cr_assert_eq(deliveries(&hook, "match.deadline_reminder", &reminder), 1);
    json_t *data = json_object_get(reminder, "data");
    cr_assert_eq(json_integer_value(json_object_get(data, "seat")), seat);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(data, "deadline"), "due_at")),
                     "2030-01-04T00:00:00Z");
    cr_assert_gt(json_array_size(json_object_get(data, "moves")), 0);
    json_decref(reminder);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM outbox"
                                  " WHERE reason = 'deadline_reminder'"),
                 1);
    cr_assert_eq(scene_metric(&a, "pbem_deadline_reminders_total") +
                     scene_metric(&b, "pbem_deadline_reminders_total"),
                 1);

    /* One process restarts; the deadline is a row, so it still comes. */
    stop_server(&a);
    e2e_start(&a);
    scene_clock(T0 + 73 * HOUR);
    json_t *timeouts = scene_wait_events(&a, match, "timeout", 1, 20);
    cr_assert_eq(json_array_size(timeouts), 1);
    json_decref(timeouts);
    scene_worker_passes(&a, 2);
    scene_worker_passes(&b, 2);
    timeouts = scene_events(&b, match, "timeout");
    cr_assert_eq(json_array_size(timeouts), 1, "the action applied once");
    json_t *timeout = json_array_get(timeouts, 0);
    cr_assert_eq(json_integer_value(json_object_get(timeout, "seat")), seat);
    cr_assert_gt(json_integer_value(json_object_get(timeout, "seq")), head);
    data = json_object_get(timeout, "data");
    cr_assert_str_eq(json_string_value(json_object_get(data, "action")),
                     "default_move");
    cr_assert_str_eq(json_string_value(json_object_get(data, "waiting_for")),
                     "turn");
    cr_assert_not_null(
        strstr(json_string_value(json_object_get(data, "reason")),
               "did not take its turn"),
        "%s", json_string_value(json_object_get(data, "reason")));
    cr_assert_gt(json_array_size(json_object_get(data, "moves")), 0);
    json_decref(timeouts);
    cr_assert_eq(scene_metric(&a, "pbem_deadline_actions_total") +
                     scene_metric(&b, "pbem_deadline_actions_total"),
                 1);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE outcome = 'default_move'"),
                 1);
    cr_assert_eq(deliveries(&hook, "match.deadline_reminder", NULL), 1);

    /* The other seat's turn and clock begin at the deadline. */
    view = scene_public(&a, match);
    cr_assert_eq(pending_seat(view), 1 - seat);
    waiting = json_object_get(scene_clock_of(view, 1 - seat), "waiting");
    cr_assert_eq(scene_time(json_object_get(waiting, "since")), T0 + 73 * HOUR);
    cr_assert_eq(scene_time(json_object_get(waiting, "due_at")),
                 T0 + 145 * HOUR);
    cr_assert_null(json_object_get(scene_clock_of(view, seat), "waiting"));
    json_decref(view);

    /* The log with its timeout still verifies and replays. */
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/verify", match);
    e2e_response r = e2e_call(&b, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200);
    cr_assert(json_is_true(json_object_get(r.json, "ok")), "%s", r.body);
    e2e_response_free(&r);
    stop_server(&a);
    stop_server(&b);
    receiver_stop(&hook);
}

Test(exactly_once, many_deadlines_at_once_shared_by_three_services,
     .timeout = 180)
{
    enum { MATCHES = 12, SERVICES = 3 };
    scene_env();
    e2e_server s[SERVICES];
    memset(s, 0, sizeof s);
    e2e_start(&s[0]);
    for (int i = 1; i < SERVICES; i++)
        scene_start_twin(&s[i], &s[0]);
    e2e_player p[2];
    e2e_register(&s[0], "Robert", &p[0]);
    e2e_register(&s[1], "Eliza", &p[1]);
    char matches[MATCHES][32];
    for (int m = 0; m < MATCHES; m++)
        scene_match(&s[m % SERVICES], p, 2, "artifact_stack",
                    "{\"turn_hours\":24,\"reminder_hours\":2,"
                    "\"action\":\"default_move\"}",
                    matches[m]);
    /* The reminders all come due at the same moment, then the deadlines:
     * three deadline workers race for every one of them. */
    scene_clock(T0 + 23 * HOUR);
    for (int i = 0; i < 400 && scene_sql_number(
                                   "SELECT count(*) FROM deadlines"
                                   " WHERE reminded_at IS NOT NULL") < MATCHES;
         i++)
        pause_ms(25);
    for (int i = 0; i < SERVICES; i++)
        scene_worker_passes(&s[i], 2);
    long reminders = 0;
    for (int i = 0; i < SERVICES; i++)
        reminders += scene_metric(&s[i], "pbem_deadline_reminders_total");
    cr_assert_eq(reminders, MATCHES, "each reminder queued once");
    scene_clock(T0 + 25 * HOUR);
    for (int m = 0; m < MATCHES; m++) {
        json_t *timeouts = scene_wait_events(&s[(m + 1) % SERVICES],
                                             matches[m], "timeout", 1, 20);
        cr_assert_eq(json_array_size(timeouts), 1, "match %d", m);
        json_decref(timeouts);
    }
    for (int i = 0; i < SERVICES; i++)
        scene_worker_passes(&s[i], 2);
    for (int m = 0; m < MATCHES; m++) {
        json_t *timeouts = scene_events(&s[0], matches[m], "timeout");
        cr_assert_eq(json_array_size(timeouts), 1, "match %d: one action", m);
        json_decref(timeouts);
    }
    long actions = 0;
    for (int i = 0; i < SERVICES; i++)
        actions += scene_metric(&s[i], "pbem_deadline_actions_total");
    cr_assert_eq(actions, MATCHES);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE outcome = 'default_move'"),
                 MATCHES);
    for (int i = 0; i < SERVICES; i++)
        stop_server(&s[i]);
}
