/* Webhooks and relays carry no talk: a player's webhook and a match's
 * relay (a Slack or Discord channel anyone in it reads) get the match's
 * notifications, and neither a private nor a public message, however
 * many deliveries come after them. Talk reaches people only where the
 * service can tell who reads it (the stream, the page, their own mail). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "../../support/notify_scene.h"
#include "../../support/receiver.h"
#include "talk.h"

Test(hooks, no_webhook_or_relay_delivery_carries_talk, .timeout = 120)
{
    notify_server_env();
    receiver hook;
    receiver_start(&hook, "webhook-receiver.mjs", NULL);
    e2e_table t;
    memset(&t, 0, sizeof t);
    e2e_start(&t.server);
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", hook.port);
    static const char *const names[] = {"Robert", "Eliza", "Nigel"};
    for (int s = 0; s < 3; s++) {
        e2e_register(&t.server, names[s], &t.players[s]);
        receiver_add_secret(
            &hook, register_webhook(&t.server, &t.players[s], NULL, url));
    }
    t.seats = 3;
    e2e_response r =
        e2e_call(&t.server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":3}", &t.players[0]);
    cr_assert_eq(r.status, 201, "%s", r.body);
    snprintf(t.match, sizeof t.match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    receiver_add_secret(
        &hook, register_webhook(&t.server, &t.players[0], t.match, url));
    for (int s = 1; s < 3; s++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/matches/%s/join", t.match);
        r = e2e_call(&t.server, "POST", path, "{}", &t.players[s]);
        cr_assert_eq(r.status, 200, "%s", r.body);
        e2e_response_free(&r);
    }
    /* The start's deliveries: the first seat's and the relay's. */
    json_decref(receiver_wait(&hook, 2, 20));
    talk_say(&t, 0, 1, "between Robert and Eliza");
    talk_say(&t, 1, -1, "hello table");
    size_t before = receiver_count(&hook);
    /* Played until the turn passes: its deliveries come after the talk. */
    json_t *match = e2e_get(&t, "", NULL);
    int first = e2e_first_pending_seat(match);
    json_decref(match);
    for (int moves = 0;; moves++) {
        cr_assert_lt(moves, 100, "the turn never passed");
        cr_assert(e2e_play_one(&t));
        match = e2e_get(&t, "", NULL);
        int now = e2e_first_pending_seat(match);
        json_decref(match);
        if (now != first)
            break;
    }
    json_t *lines = receiver_wait(&hook, before + 2, 20);
    cr_assert_geq(json_array_size(lines), before + 2,
                  "only %zu deliveries came, %zu of them before the talk",
                  json_array_size(lines), before);
    char *all = json_dumps(lines, 0);
    cr_expect_null(strstr(all, "between Robert"), "%s", all);
    cr_expect_null(strstr(all, "hello table"), "%s", all);
    free(all);
    json_decref(lines);
    e2e_stop(&t.server);
    receiver_stop(&hook);
}
