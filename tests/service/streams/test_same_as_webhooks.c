/* A player's stream carries exactly what their webhook receives: the same
 * delivery body, item for item, checked against a real Standard Webhooks
 * receiver; and the notifications that are not turns (a nudge, the end of
 * the match) come the same way. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/receiver.h"
#include "streams.h"

/* The webhook deliveries' bodies (parsed), verified by standardwebhooks. */
static json_t *delivered_bodies(const receiver *hook, size_t count)
{
    json_t *lines = receiver_wait(hook, count, 30);
    json_t *bodies = json_array();
    size_t i;
    json_t *line;
    json_array_foreach(lines, i, line) {
        cr_assert(json_is_true(json_object_get(line, "verified")),
                  "standardwebhooks rejected a delivery");
        json_array_append_new(bodies,
                              json_loads(json_string_value(json_object_get(line, "body")),
                                         0, NULL));
    }
    json_decref(lines);
    return bodies;
}

static int pending_seat(const e2e_table *t)
{
    json_t *match = e2e_get(t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_decref(match);
    return seat;
}

Test(streams_webhooks, the_stream_carries_the_webhook_bodies_item_for_item,
     .timeout = 120)
{
    setenv("PBEM_WEBHOOK_ALLOW_LOOPBACK", "1", 1);
    setenv("PBEM_NOTIFY_POLL_MS", "1000", 1);
    unsetenv("PBEM_SMTP_URL");
    receiver hook;
    receiver_start(&hook, "webhook-receiver.mjs", NULL);
    e2e_table t = {.seats = 2};
    e2e_start(&t.server);
    e2e_register(&t.server, "Robert", &t.players[0]);
    e2e_register(&t.server, "Eliza", &t.players[1]);
    unsetenv("PBEM_WEBHOOK_ALLOW_LOOPBACK");
    unsetenv("PBEM_NOTIFY_POLL_MS");
    const e2e_player *me = &t.players[0];

    char url[96], body[160];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", hook.port);
    snprintf(body, sizeof body, "{\"url\":\"%s\"}", url);
    e2e_response r =
        e2e_call(&t.server, "POST", "/v1/players/me/webhooks", body, me);
    cr_assert_eq(r.status, 201, "%s", r.body);
    receiver_add_secret(&hook, json_string_value(json_object_get(
                                   json_object_get(r.json, "webhook"), "secret")));
    e2e_response_free(&r);

    /* The stream is open before the match exists: all it gets is live. */
    client_stream *s =
        streams_open(&t.server, "/v1/players/me/stream?after=0", me, NULL);
    cr_assert_eq(client_stream_status(s), 200);
    r = e2e_call(&t.server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":2}", me);
    cr_assert_eq(r.status, 201, "%s", r.body);
    snprintf(t.match, sizeof t.match, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", t.match);
    r = e2e_call(&t.server, "POST", path, "{}", &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);

    /* Until the turn has come to the player twice. */
    int turns = pending_seat(&t) == 0 ? 1 : 0;
    int last = pending_seat(&t);
    for (int i = 0; i < 200 && turns < 2 && e2e_play_one(&t); i++) {
        int now = pending_seat(&t);
        if (now == 0 && last != 0)
            turns++;
        last = now;
    }
    cr_assert_eq(turns, 2, "the turn did not come to the player twice");

    /* The other player nudges the waiting one: a nudge, not a turn. */
    snprintf(path, sizeof path, "/v1/matches/%s/nudge", t.match);
    r = e2e_call(&t.server, "POST", path, NULL, &t.players[1]);
    cr_assert_eq(r.status, 202, "nudge: %ld %s", r.status, r.body);
    e2e_response_free(&r);

    cr_assert(streams_wait_id(s, 3), "%s", client_stream_body(s, NULL));
    cr_assert(client_stream_wait_for(s, "\"match.nudge\"", 0, STREAM_WAIT_MS));
    json_t *items = streams_sse_items(client_stream_body(s, NULL));
    json_t *bodies = delivered_bodies(&hook, json_array_size(items));
    cr_assert_eq(json_array_size(bodies), json_array_size(items),
                 "%zu deliveries, %zu stream items", json_array_size(bodies),
                 json_array_size(items));
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item) {
        cr_expect_eq(json_integer_value(json_object_get(item, "id")),
                     (json_int_t)i + 1);
        json_t *streamed = json_object_get(item, "data");
        bool same = false;
        size_t j;
        json_t *delivered;
        json_array_foreach(bodies, j, delivered)
            same = same || json_equal(delivered, streamed);
        char *text = json_dumps(streamed, JSON_COMPACT);
        cr_expect(same, "no webhook delivery has the body %.300s", text);
        free(text);
    }
    json_decref(items);
    json_decref(bodies);
    client_stream_close(s);
    e2e_stop(&t.server);
    receiver_stop(&hook);
}
