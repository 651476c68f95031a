/* Webhook deliveries end to end: the real pbemd, its outbox worker, and a
 * Node receiver that verifies every delivery with the official
 * standardwebhooks library. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "../../support/notify_scene.h"

static void url_of(const receiver *r, char *out, size_t size)
{
    snprintf(out, size, "http://127.0.0.1:%d/hook", r->port);
}

/* Lines whose webhook-id is id. */
static size_t count_id(const json_t *lines, const char *id)
{
    size_t n = 0, i;
    json_t *line;
    json_array_foreach(lines, i, line) {
        const char *got = json_string_value(json_object_get(line, "webhook-id"));
        n += got && strcmp(got, id) == 0;
    }
    return n;
}

Test(webhooks, player_and_match_webhooks_verified_by_standardwebhooks,
     .timeout = 60)
{
    notify_server_env();
    receiver hook;
    receiver_start(&hook, "webhook-receiver.mjs", NULL);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    char url[128];
    url_of(&hook, url, sizeof url);
    receiver_add_secret(&hook, register_webhook(&s, &a, NULL, url));
    receiver_add_secret(&hook, register_webhook(&s, &b, NULL, url));
    /* A match relay, registered while the match is still open. */
    e2e_response r = e2e_call(&s, "POST", "/v1/matches",
                              "{\"game\":\"artifact_stack\",\"seats\":2}", &a);
    cr_assert_eq(r.status, 201);
    char match[32], path[96];
    snprintf(match, sizeof match, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    receiver_add_secret(&hook, register_webhook(&s, &a, match, url));
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    r = e2e_call(&s, "POST", path, "{}", &b);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);

    /* One delivery to the seat that must act, one to the relay. */
    json_t *lines = receiver_wait(&hook, 2, 20);
    cr_assert_eq(json_array_size(lines), 2, "deliveries: %zu",
                 json_array_size(lines));
    int private_views = 0, public_views = 0;
    size_t i;
    json_t *line;
    json_array_foreach(lines, i, line) {
        cr_assert(json_is_true(json_object_get(line, "verified")),
                  "standardwebhooks rejected it: %s",
                  json_string_value(json_object_get(line, "error")));
        cr_assert_str_eq(json_string_value(json_object_get(line, "method")), "POST");
        cr_assert_str_eq(json_string_value(json_object_get(line, "content_type")),
                         "application/json");
        json_t *body = json_loads(
            json_string_value(json_object_get(line, "body")), 0, NULL);
        cr_assert_not_null(body);
        cr_assert_str_eq(json_string_value(json_object_get(body, "type")),
                         "match.your_turn");
        json_t *data = json_object_get(body, "data");
        cr_assert_str_eq(json_string_value(json_object_get(data, "match")), match);
        cr_assert_gt(json_integer_value(json_object_get(data, "seq")), 0);
        cr_assert_eq(json_array_size(json_object_get(data, "seats")), 1);
        cr_assert_not_null(json_object_get(data, "view"));
        if (json_object_get(data, "seat") != NULL) {
            private_views++;
            cr_assert_gt(json_array_size(json_object_get(data, "moves")), 0);
        } else {
            /* The relay gets no seat's private view and no moves. */
            public_views++;
            cr_assert_null(json_object_get(data, "moves"));
        }
        json_decref(body);
    }
    cr_assert_eq(private_views, 1);
    cr_assert_eq(public_views, 1);
    json_decref(lines);
    /* The recipients see the delivery status. */
    json_t *sent =
        wait_notification_of_either(&s, &a, &b, "webhook:", "sent", 11, NULL);
    cr_assert_not_null(sent);
    cr_assert_eq(json_integer_value(json_object_get(sent, "attempts")), 1);
    cr_assert_eq(json_array_size(json_object_get(sent, "attempt_log")), 1);
    json_decref(sent);
    stop_server(&s);
    receiver_stop(&hook);
}

Test(webhooks, failing_receiver_gets_it_once_with_the_same_id, .timeout = 60)
{
    const char *args[] = {"--fail", "3", NULL};
    receiver hook;
    e2e_server s = {0};
    e2e_player a, b;
    notify_scene(&hook, args, &s, &a, &b);
    char url[128], match[32];
    url_of(&hook, url, sizeof url);
    e2e_response r = e2e_call(&s, "POST", "/v1/matches",
                              "{\"game\":\"artifact_stack\",\"seats\":2}", &a);
    cr_assert_eq(r.status, 201);
    snprintf(match, sizeof match, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    receiver_add_secret(&hook, register_webhook(&s, &a, match, url));
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    r = e2e_call(&s, "POST", path, "{}", &b);
    cr_assert_eq(r.status, 200);
    e2e_response_free(&r);
    json_t *sent = wait_notification(&s, &a, "webhook:", "sent", 30);
    cr_assert_not_null(sent, "never delivered");
    json_t *lines = receiver_lines(&hook);
    const char *id = json_string_value(json_object_get(sent, "id"));
    cr_assert_eq(json_array_size(lines), 4, "requests: %zu", json_array_size(lines));
    cr_assert_eq(count_id(lines, id), 4, "every attempt carries webhook-id %s", id);
    size_t i;
    json_t *line;
    int successes = 0;
    json_array_foreach(lines, i, line) {
        cr_assert(json_is_true(json_object_get(line, "verified")));
        successes += json_integer_value(json_object_get(line, "status")) == 204;
    }
    cr_assert_eq(successes, 1);
    cr_assert_eq(json_integer_value(json_object_get(sent, "attempts")), 4);
    json_t *log = json_object_get(sent, "attempt_log");
    cr_assert_eq(json_array_size(log), 4);
    for (i = 0; i < 3; i++) {
        json_t *attempt = json_array_get(log, i);
        cr_assert_str_eq(json_string_value(json_object_get(attempt, "outcome")), "failed");
        cr_assert_eq(json_integer_value(json_object_get(attempt, "code")), 500);
    }
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(log, 3), "outcome")),
                     "sent");
    /* Nothing more arrives. */
    pause_ms(500);
    json_t *after = receiver_lines(&hook);
    cr_assert_eq(json_array_size(after), 4);
    json_decref(after);
    json_decref(lines);
    json_decref(sent);
    stop_server(&s);
    receiver_stop(&hook);
}

Test(webhooks, gone_disables_the_endpoint, .timeout = 60)
{
    const char *args[] = {"--fail", "100", "--status", "410", NULL};
    receiver hook;
    e2e_server s = {0};
    e2e_player a, b;
    notify_scene(&hook, args, &s, &a, &b);
    char url[128], match[32];
    url_of(&hook, url, sizeof url);
    receiver_add_secret(&hook, register_webhook(&s, &a, NULL, url));
    receiver_add_secret(&hook, register_webhook(&s, &b, NULL, url));
    two_player_match(&s, &a, &b, match);
    int whose = -1;
    json_t *dead =
        wait_notification_of_either(&s, &a, &b, "webhook:", "dead", 15, &whose);
    cr_assert_not_null(dead);
    cr_assert_eq(json_integer_value(json_object_get(dead, "attempts")), 1);
    json_t *lines = receiver_lines(&hook);
    cr_assert_eq(json_array_size(lines), 1);
    json_decref(lines);
    e2e_response r = e2e_call(&s, "GET", "/v1/players/me/webhooks", NULL,
                              whose == 0 ? &a : &b);
    cr_assert_eq(r.status, 200);
    json_t *hook_row = json_array_get(json_object_get(r.json, "webhooks"), 0);
    cr_assert(json_is_false(json_object_get(hook_row, "enabled")));
    cr_assert_null(json_object_get(hook_row, "secret"), "the secret is shown once");
    e2e_response_free(&r);
    json_decref(dead);
    stop_server(&s);
    receiver_stop(&hook);
}

Test(webhooks, retry_after_is_honoured_and_redirects_are_not_followed,
     .timeout = 60)
{
    notify_server_env();
    receiver hook, redirect;
    const char *args[] = {"--fail", "1", "--status", "503", "--retry-after",
                          "2", NULL};
    receiver_start(&hook, "webhook-receiver.mjs", args);
    const char *redirect_args[] = {"--fail", "100", "--status", "302", NULL};
    receiver_start(&redirect, "webhook-receiver.mjs", redirect_args);
    setenv("PBEM_NOTIFY_MAX_ATTEMPTS", "2", 1);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    char url[128], match[32];
    url_of(&hook, url, sizeof url);
    e2e_response r = e2e_call(&s, "POST", "/v1/matches",
                              "{\"game\":\"artifact_stack\",\"seats\":2}", &a);
    cr_assert_eq(r.status, 201);
    snprintf(match, sizeof match, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    receiver_add_secret(&hook, register_webhook(&s, &a, match, url));
    url_of(&redirect, url, sizeof url);
    receiver_add_secret(&redirect, register_webhook(&s, &a, match, url));
    char redirect_channel[64];
    snprintf(redirect_channel, sizeof redirect_channel, "%s", last_webhook_channel);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    r = e2e_call(&s, "POST", path, "{}", &b);
    cr_assert_eq(r.status, 200);
    e2e_response_free(&r);
    json_t *lines = receiver_wait(&hook, 2, 20);
    cr_assert_eq(json_array_size(lines), 2);
    long long first = json_integer_value(json_object_get(json_array_get(lines, 0), "at"));
    long long second = json_integer_value(json_object_get(json_array_get(lines, 1), "at"));
    /* Backoff alone would retry within 200 ms; Retry-After asked for 2 s. */
    cr_assert_geq(second - first, 1900, "retried after %lld ms", second - first);
    json_decref(lines);
    /* The redirecting endpoint: two attempts, each one POST, no GET of the
     * Location, then dead. */
    json_t *dead = wait_notification(&s, &a, redirect_channel, "dead", 20);
    cr_assert_not_null(dead);
    json_t *hops = receiver_lines(&redirect);
    cr_assert_eq(json_array_size(hops), 2);
    size_t i;
    json_t *line;
    json_array_foreach(hops, i, line) {
        cr_assert_str_eq(json_string_value(json_object_get(line, "method")), "POST");
        cr_assert_str_eq(json_string_value(json_object_get(line, "url")), "/hook");
    }
    cr_assert_not_null(strstr(json_string_value(json_object_get(dead, "last_error")),
                              "302"));
    json_decref(hops);
    json_decref(dead);
    stop_server(&s);
    receiver_stop(&hook);
    receiver_stop(&redirect);
}

/* A Retry-After too large to count in milliseconds waits the longest
 * delay the worker allows; it does not wrap around into "retry now". */
Test(webhooks, a_huge_retry_after_waits_the_longest_delay, .timeout = 60)
{
    notify_server_env();
    receiver hook;
    const char *args[] = {"--fail", "1", "--status", "503", "--retry-after",
                          "99999999999999999999", NULL};
    receiver_start(&hook, "webhook-receiver.mjs", args);
    setenv("PBEM_NOTIFY_MAX_ATTEMPTS", "2", 1);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    char url[128], match[32];
    url_of(&hook, url, sizeof url);
    receiver_add_secret(&hook, register_webhook(&s, &a, NULL, url));
    receiver_add_secret(&hook, register_webhook(&s, &b, NULL, url));
    two_player_match(&s, &a, &b, match);
    json_t *lines = receiver_wait(&hook, 1, 20);
    cr_assert_geq(json_array_size(lines), 1);
    char id[64];
    snprintf(id, sizeof id, "%s",
             json_string_value(
                 json_object_get(json_array_get(lines, 0), "webhook-id")));
    json_decref(lines);
    /* Backoff alone would retry within 200 ms. */
    lines = receiver_wait(&hook, 2, 3);
    cr_assert_eq(count_id(lines, id), 1, "%s was retried at once", id);
    json_decref(lines);
    stop_server(&s);
    receiver_stop(&hook);
}

Test(webhooks, internal_addresses_are_refused_by_default, .timeout = 60)
{
    notify_server_env();
    unsetenv("PBEM_WEBHOOK_ALLOW_LOOPBACK");
    setenv("PBEM_NOTIFY_MAX_ATTEMPTS", "2", 1);
    receiver hook;
    receiver_start(&hook, "webhook-receiver.mjs", NULL);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    char url[128], match[32];
    url_of(&hook, url, sizeof url);
    receiver_add_secret(&hook, register_webhook(&s, &a, NULL, url));
    receiver_add_secret(&hook, register_webhook(&s, &b, NULL, url));
    two_player_match(&s, &a, &b, match);
    json_t *dead =
        wait_notification_of_either(&s, &a, &b, "webhook:", "dead", 20, NULL);
    cr_assert_not_null(dead);
    json_t *attempt = json_array_get(json_object_get(dead, "attempt_log"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(attempt, "outcome")), "blocked");
    cr_assert_not_null(strstr(json_string_value(json_object_get(attempt, "error")),
                              "127.0.0.1"));
    json_t *lines = receiver_lines(&hook);
    cr_assert_eq(json_array_size(lines), 0, "the receiver was reached");
    json_decref(lines);
    json_decref(dead);
    /* Registration refuses what is not an http(s) URL. */
    e2e_response r = e2e_call(&s, "POST", "/v1/players/me/webhooks",
                              "{\"url\":\"file:///etc/passwd\"}", &a);
    cr_assert_eq(r.status, 400);
    e2e_response_free(&r);
    stop_server(&s);
    receiver_stop(&hook);
}

Test(webhooks, killed_mid_delivery_loses_nothing, .timeout = 90)
{
    const char *args[] = {"--hang", "1", NULL};
    receiver hook;
    e2e_server s = {0};
    e2e_player a, b;
    notify_scene(&hook, args, &s, &a, &b);
    char url[128], match[32];
    url_of(&hook, url, sizeof url);
    receiver_add_secret(&hook, register_webhook(&s, &a, NULL, url));
    receiver_add_secret(&hook, register_webhook(&s, &b, NULL, url));
    two_player_match(&s, &a, &b, match);
    /* The first delivery is in flight (the receiver holds it): kill -9. */
    json_t *lines = receiver_wait(&hook, 1, 20);
    cr_assert_eq(json_array_size(lines), 1);
    const char *id = json_string_value(json_object_get(json_array_get(lines, 0),
                                                       "webhook-id"));
    char first_id[64];
    snprintf(first_id, sizeof first_id, "%s", id);
    json_decref(lines);
    kill(s.pid, SIGKILL);
    waitpid(s.pid, NULL, 0);
    /* Restarted with the same service key, it delivers it again. */
    e2e_start(&s);
    lines = receiver_wait(&hook, 2, 30);
    cr_assert_eq(json_array_size(lines), 2, "not redelivered");
    cr_assert_eq(count_id(lines, first_id), 2);
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(lines, 1), "status")),
                 204);
    cr_assert(json_is_true(json_object_get(json_array_get(lines, 1), "verified")));
    json_decref(lines);
    json_t *sent =
        wait_notification_of_either(&s, &a, &b, "webhook:", "sent", 15, NULL);
    cr_assert_not_null(sent);
    cr_assert_str_eq(json_string_value(json_object_get(sent, "id")), first_id);
    json_decref(sent);
    stop_server(&s);
    receiver_stop(&hook);
}

/* A registration answers its secret once: the same signed request sent
 * again (a retry, or a replay by someone who captured it) registers
 * nothing and shows no secret. */
Test(webhooks, a_replayed_registration_yields_no_second_secret, .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    const char *body = "{\"url\":\"http://127.0.0.1:9/hook\"}";
    e2e_response first = e2e_call_signed(&s, "POST", "/v1/players/me/webhooks",
                                          body, &a, (int64_t)time(NULL),
                                          "register-once-1", NULL, false);
    cr_assert_eq(first.status, 201, "%s", first.body);
    e2e_response again = e2e_call_signed(&s, "POST", "/v1/players/me/webhooks",
                                          body, &a, (int64_t)time(NULL),
                                          "register-once-1", NULL, false);
    cr_expect_eq(again.status, 409, "%s", again.body);
    cr_expect_str_eq(e2e_error_code(&again), "already_registered");
    cr_expect_null(strstr(again.body, "whsec_"), "a replay showed a secret");
    e2e_response list = e2e_call(&s, "GET", "/v1/players/me/webhooks", NULL, &a);
    cr_expect_eq(json_array_size(json_object_get(list.json, "webhooks")), 1,
                 "%s", list.body);
    e2e_response_free(&list);
    e2e_response_free(&again);
    e2e_response_free(&first);
    stop_server(&s);
}
