/* Event streams against the real pbemd and PostgreSQL: a match's events
 * and a player's notifications as they happen, resumed after a dropped
 * connection without loss or repeats, carried from another pbemd process,
 * in both formats, with heartbeats, and bounded. */
#include <criterion/criterion.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "../../support/receiver.h"
#include "streams.h"

#define GAME "antiquity_quest"

static int pending_seat(const e2e_table *t)
{
    json_t *match = e2e_get(t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_decref(match);
    return seat;
}

/* The ids of items, in order; takes items (a list items_of made). */
static json_t *ids_of(json_t *items)
{
    json_t *ids = json_array();
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item) {
        json_t *id = json_object_get(item, "id");
        if (json_is_integer(id))
            json_array_append(ids, id);
    }
    json_decref(items);
    return ids;
}

static json_t *items_of(client_stream *s)
{
    return streams_sse_items(client_stream_body(s, NULL));
}

Test(streams, a_match_stream_sends_the_log_then_each_new_event_as_events_does)
{
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    e2e_play_one(&t);
    json_int_t head = e2e_head_seq(&t);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream *s = streams_open(&t.server, path, NULL, NULL);
    cr_assert_eq(client_stream_status(s), 200);
    cr_expect_str_eq(client_stream_header(s, "Content-Type"),
                     "text/event-stream");
    cr_assert(streams_wait_id(s, head), "the log up to %lld never came",
              (long long)head);
    e2e_play_one(&t);
    e2e_play_one(&t);
    json_int_t now = e2e_head_seq(&t);
    cr_assert(streams_wait_id(s, now), "the new events never came");

    /* Item by item what GET /events answers, ids being the seqs. */
    json_t *items = items_of(s);
    json_t *events = e2e_all_events(&t);
    cr_assert_eq(json_array_size(items), json_array_size(events));
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *item = json_array_get(items, i);
        json_t *event = json_array_get(events, i);
        cr_expect_eq(json_integer_value(json_object_get(item, "id")),
                     json_integer_value(json_object_get(event, "seq")));
        cr_expect(json_equal(json_object_get(item, "data"), event),
                  "item %zu differs from GET /events", i);
    }
    json_decref(items);
    json_decref(events);
    client_stream_close(s);
    e2e_stop(&t.server);
}

Test(streams, a_match_stream_resumes_after_a_dropped_connection_without_loss_or_repeat)
{
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream *s = streams_open(&t.server, path, NULL, NULL);
    json_int_t seen = e2e_head_seq(&t);
    cr_assert(streams_wait_id(s, seen));
    client_stream_close(s); /* the client drops */

    for (int i = 0; i < 4; i++)
        e2e_play_one(&t);
    json_int_t head = e2e_head_seq(&t);
    char last[64];
    snprintf(last, sizeof last, "Last-Event-ID: %lld", (long long)seen);
    const char *headers[] = {last, NULL};
    s = streams_open(&t.server, path, NULL, headers);
    cr_assert(streams_wait_id(s, head));
    json_t *ids = ids_of(items_of(s));
    cr_assert_eq((json_int_t)json_array_size(ids), head - seen,
                 "%zu items after a resume at %lld, head %lld",
                 json_array_size(ids), (long long)seen, (long long)head);
    for (size_t i = 0; i < json_array_size(ids); i++)
        cr_expect_eq(json_integer_value(json_array_get(ids, i)),
                     seen + 1 + (json_int_t)i);
    json_decref(ids);
    client_stream_close(s);

    /* ?after= does the same for clients that cannot set the header. */
    snprintf(path, sizeof path, "/v1/matches/%s/stream?after=%lld", t.match,
             (long long)(head - 1));
    s = streams_open(&t.server, path, NULL, NULL);
    cr_assert(streams_wait_id(s, head));
    ids = ids_of(items_of(s));
    cr_expect_eq(json_array_size(ids), 1);
    json_decref(ids);
    client_stream_close(s);
    e2e_stop(&t.server);
}

/* Plays until seat's player has n more stream items than before, or gives
 * up after a bounded number of moves. */
static void play_until_items(e2e_table *t, client_stream *s, size_t n)
{
    for (int moves = 0; moves < 200; moves++) {
        client_stream_poll(s);
        json_t *items = items_of(s);
        size_t have = json_array_size(items);
        json_decref(items);
        if (have >= n)
            return;
        if (!e2e_play_one(t))
            break;
    }
}

Test(streams, a_player_stream_resumes_after_a_dropped_connection_without_loss_or_repeat)
{
    setenv("PBEM_STREAM_HEARTBEAT_SECONDS", "1", 1);
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    unsetenv("PBEM_STREAM_HEARTBEAT_SECONDS");
    const e2e_player *me = &t.players[0];
    /* The first stream registers the player's stream; the waiting matches
     * (if any) come first, the last with the id the live part follows. */
    client_stream *s =
        streams_open(&t.server, "/v1/players/me/stream", me, NULL);
    cr_assert_eq(client_stream_status(s), 200, "%s",
                 client_stream_body(s, NULL));
    play_until_items(&t, s, 3);
    cr_assert(client_stream_wait_for(s, "\"match.your_turn\"", 0, STREAM_WAIT_MS));
    json_t *first = ids_of(items_of(s));
    cr_assert_geq(json_array_size(first), 2);
    json_int_t seen = json_integer_value(
        json_array_get(first, json_array_size(first) - 1));
    client_stream_close(s); /* the client drops */

    /* Turns pass while the bot is away: the turn leaves it and comes back
     * (a turn may take several moves). */
    bool left = false, back = false;
    for (int i = 0; i < 200 && !back && e2e_play_one(&t); i++) {
        int seat = pending_seat(&t);
        left = left || seat != 0;
        back = left && seat == 0;
    }
    cr_assert(back, "the turn never came back to the bot");
    char last[64];
    snprintf(last, sizeof last, "Last-Event-ID: %lld", (long long)seen);
    const char *headers[] = {last, NULL};
    s = streams_open(&t.server, "/v1/players/me/stream", me, headers);
    cr_assert_eq(client_stream_status(s), 200);
    cr_assert(streams_wait_id(s, seen + 1), "nothing came after %lld",
              (long long)seen);

    /* Everything stored, read from the start: the two sessions together
     * hold each item exactly once. A heartbeat follows what a stream had
     * to send when it opened, so it marks the end of the backlog. */
    client_stream *all =
        streams_open(&t.server, "/v1/players/me/stream?after=0", me, NULL);
    cr_assert(client_stream_wait_for(s, ": ping", 0, STREAM_WAIT_MS));
    cr_assert(client_stream_wait_for(all, ": ping", 0, STREAM_WAIT_MS));
    json_t *whole = ids_of(items_of(all));
    json_t *second = ids_of(items_of(s));
    json_t *joined = json_array();
    size_t i;
    json_t *id;
    json_array_foreach(first, i, id) {
        /* The waiting matches' last item carries the cursor, which is not
         * itself a stored item unless it is above 0. */
        if (json_integer_value(id) > 0)
            json_array_append(joined, id);
    }
    json_array_extend(joined, second);
    cr_assert_eq(json_array_size(joined), json_array_size(whole),
                 "first %zu + resumed %zu items, %zu stored",
                 json_array_size(first), json_array_size(second),
                 json_array_size(whole));
    json_array_foreach(whole, i, id) {
        cr_expect_eq(json_integer_value(json_array_get(joined, i)),
                     json_integer_value(id), "item %zu", i);
        cr_expect_eq(json_integer_value(id), (json_int_t)i + 1,
                     "stored ids run 1, 2, 3…");
    }
    json_decref(joined);
    json_decref(whole);
    json_decref(second);
    json_decref(first);
    client_stream_close(all);
    client_stream_close(s);
    e2e_stop(&t.server);
}

/* A match of GAME on t's server between players a (seat 0) and b. */
static void another_match(const e2e_table *t, const e2e_player *a,
                          const e2e_player *b, char id[32])
{
    e2e_response r = e2e_call(&t->server, "POST", "/v1/matches",
                              "{\"game\":\"" GAME "\",\"seats\":2}", a);
    cr_assert_eq(r.status, 201, "%s", r.body);
    snprintf(id, 32, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%.31s/join", id);
    r = e2e_call(&t->server, "POST", path, "{}", b);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
}

/* Whether player's seat must act in match id. */
static bool waits_for(const e2e_table *t, const char *id, int seat)
{
    char path[256];
    snprintf(path, sizeof path, "/v1/matches/%s", id);
    e2e_response r = e2e_call(&t->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200);
    bool waits = false;
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(json_object_get(r.json, "pending"), "seats"), i, s)
        waits = waits || json_integer_value(s) == seat;
    e2e_response_free(&r);
    return waits;
}

Test(streams, a_player_stream_starts_with_every_match_waiting_for_the_player)
{
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    /* Several matches; the player is seat 0 in each. Some wait for them,
     * the others for their opponent once a move is played there. */
    char ids[6][32];
    snprintf(ids[0], 32, "%s", t.match);
    for (int i = 1; i < 6; i++)
        another_match(&t, &t.players[0], &t.players[1], ids[i]);
    json_t *expected = json_array();
    for (int i = 0; i < 6; i++)
        if (waits_for(&t, ids[i], 0))
            json_array_append_new(expected, json_string(ids[i]));
    cr_assert_gt(json_array_size(expected), 0,
                 "no match waits for seat 0: the test proves nothing");

    client_stream *s =
        streams_open(&t.server, "/v1/players/me/stream", &t.players[0], NULL);
    cr_assert_eq(client_stream_status(s), 200);
    /* A first stream starts at 0: the last waiting match carries it. */
    cr_assert(streams_wait_id(s, 0), "%s", client_stream_body(s, NULL));
    json_t *items = items_of(s);
    cr_assert_eq(json_array_size(items), json_array_size(expected), "%s",
                 client_stream_body(s, NULL));
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item) {
        /* The body of a webhook delivery: type, timestamp, data. */
        json_t *body = json_object_get(item, "data");
        cr_expect_str_eq(json_string_value(json_object_get(body, "type")),
                         "match.your_turn");
        cr_expect(json_is_string(json_object_get(body, "timestamp")));
        json_t *data = json_object_get(body, "data");
        cr_expect_str_eq(json_string_value(json_object_get(data, "type")),
                         "match.your_turn");
        cr_expect_eq(json_integer_value(json_object_get(data, "seat")), 0);
        bool listed = false;
        size_t j;
        json_t *want;
        json_array_foreach(expected, j, want)
            listed = listed || strcmp(json_string_value(want),
                                      json_string_value(json_object_get(data, "match"))) == 0;
        cr_expect(listed, "%s does not wait for the player",
                  json_string_value(json_object_get(data, "match")));
        /* The webhook payload: the seat's own moves and view. */
        cr_expect(json_is_array(json_object_get(data, "moves")));
        cr_expect(json_is_object(json_object_get(data, "view")));
        /* Only the last carries an id. */
        cr_expect_eq(json_is_null(json_object_get(item, "id")),
                     i + 1 < json_array_size(items));
    }
    json_decref(items);
    json_decref(expected);
    client_stream_close(s);
    e2e_stop(&t.server);
}

Test(streams, ndjson_when_accept_asks_for_it)
{
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    e2e_play_one(&t);
    json_int_t head = e2e_head_seq(&t);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    const char *headers[] = {"Accept: application/x-ndjson", NULL};
    client_stream *s = streams_open(&t.server, path, NULL, headers);
    cr_assert_eq(client_stream_status(s), 200);
    cr_expect_str_eq(client_stream_header(s, "Content-Type"),
                     "application/x-ndjson");
    char needle[48];
    /* Each event ends with its public sentence, after its seq. */
    snprintf(needle, sizeof needle, "\"seq\":%lld,\"text\":",
             (long long)head);
    cr_assert(client_stream_wait_for(s, needle, 0, STREAM_WAIT_MS));
    size_t at = (size_t)(strstr(client_stream_body(s, NULL), needle) -
                         client_stream_body(s, NULL));
    cr_assert(client_stream_wait_for(s, "}\n", at, STREAM_WAIT_MS));
    /* One JSON object a line, in seq order. */
    char *body = strdup(client_stream_body(s, NULL));
    json_int_t seq = 0;
    for (char *line = strtok(body, "\n"); line; line = strtok(NULL, "\n")) {
        json_t *event = json_loads(line, 0, NULL);
        cr_assert_not_null(event, "not JSON: %s", line);
        e2e_record_stream_item(event);
        cr_expect_eq(json_integer_value(json_object_get(event, "seq")), ++seq);
        const char *told = json_string_value(json_object_get(event, "text"));
        cr_expect(told != NULL && told[0] != '\0', "event %lld is not told",
                  (long long)seq);
        json_decref(event);
    }
    cr_expect_eq(seq, head);
    free(body);
    client_stream_close(s);

    /* The player stream's lines carry their id. */
    s = streams_open(&t.server, "/v1/players/me/stream?after=0",
                     &t.players[0], headers);
    cr_assert_eq(client_stream_status(s), 200);
    cr_expect_str_eq(client_stream_header(s, "Content-Type"),
                     "application/x-ndjson");
    for (int i = 0; i < 40 && strstr(client_stream_body(s, NULL), "\"stream_id\":1") == NULL; i++) {
        e2e_play_one(&t);
        client_stream_poll(s);
    }
    cr_assert(client_stream_wait_for(s, "\"stream_id\":1", 0, STREAM_WAIT_MS));
    /* Each whole line is an item (kept for the check against the spec). */
    const char *all = client_stream_body(s, NULL);
    for (const char *nl = strchr(all, '\n'); nl; nl = strchr(all, '\n')) {
        json_t *item = json_loadb(all, (size_t)(nl - all), 0, NULL);
        if (item != NULL)
            e2e_record_stream_item(item);
        json_decref(item);
        all = nl + 1;
    }
    client_stream_close(s);
    e2e_stop(&t.server);
}

Test(streams, heartbeats_keep_an_idle_stream_alive_past_the_request_deadline)
{
    setenv("PBEM_STREAM_HEARTBEAT_SECONDS", "1", 1);
    setenv("PBEM_HTTP_REQUEST_SECONDS", "1", 1);
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    unsetenv("PBEM_STREAM_HEARTBEAT_SECONDS");
    unsetenv("PBEM_HTTP_REQUEST_SECONDS");
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream *s = streams_open(&t.server, path, NULL, NULL);
    cr_assert(streams_wait_id(s, e2e_head_seq(&t)));
    /* Three heartbeats a second apart: the stream outlived the reaper's
     * one-second deadline for a request, and still carries moves. */
    size_t from = 0;
    for (int beat = 0; beat < 3; beat++) {
        cr_assert(client_stream_wait_for(s, ": ping\n\n", from, STREAM_WAIT_MS),
                  "heartbeat %d never came", beat + 1);
        from = strstr(client_stream_body(s, NULL) + from, ": ping\n\n") -
               client_stream_body(s, NULL) + 1;
    }
    e2e_play_one(&t);
    cr_assert(streams_wait_id(s, e2e_head_seq(&t)));
    client_stream_close(s);

    /* An NDJSON heartbeat is an empty line. */
    const char *headers[] = {"Accept: application/x-ndjson", NULL};
    s = streams_open(&t.server, path, NULL, headers);
    cr_assert(client_stream_wait_for(s, "}\n\n", 0, STREAM_WAIT_MS));
    client_stream_close(s);
    e2e_stop(&t.server);
}

/* How many heartbeats (SSE comments) a body holds. */
static int pings_in(const char *body)
{
    int n = 0;
    for (const char *at = body; (at = strstr(at, ": ping\n\n")) != NULL; at++)
        n++;
    return n;
}

#define SPREAD_STREAMS 16

Test(streams, idle_streams_get_their_heartbeats_spread_over_the_period)
{
    /* A server with thousands of streams must not write a heartbeat to
     * all of them in one instant: a move told then reaches its last
     * watcher twice as late. Sixteen streams opened together each get a
     * heartbeat once a period, at moments spread over it. */
    setenv("PBEM_STREAM_HEARTBEAT_SECONDS", "2", 1);
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    unsetenv("PBEM_STREAM_HEARTBEAT_SECONDS");
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream *s[SPREAD_STREAMS];
    for (int i = 0; i < SPREAD_STREAMS; i++)
        s[i] = streams_open(&t.server, path, NULL, NULL);
    for (int i = 0; i < SPREAD_STREAMS; i++)
        cr_assert(streams_wait_id(s[i], e2e_head_seq(&t)));

    /* When each stream's next heartbeat, and the one after, arrive. */
    int seen[SPREAD_STREAMS];
    double first[SPREAD_STREAMS] = {0}, second[SPREAD_STREAMS] = {0};
    for (int i = 0; i < SPREAD_STREAMS; i++)
        seen[i] = pings_in(client_stream_body(s[i], NULL));
    int done = 0;
    double until = receiver_now() + STREAM_WAIT_MS / 1000.0;
    while (done < SPREAD_STREAMS && receiver_now() < until) {
        struct pollfd fds[SPREAD_STREAMS];
        for (int i = 0; i < SPREAD_STREAMS; i++)
            fds[i] = (struct pollfd){.fd = client_stream_fd(s[i]),
                                     .events = POLLIN};
        poll(fds, SPREAD_STREAMS, 100);
        double now = receiver_now();
        for (int i = 0; i < SPREAD_STREAMS; i++) {
            if (!(fds[i].revents & POLLIN))
                continue;
            cr_assert(client_stream_poll(s[i]), "stream %d ended", i);
            int pings = pings_in(client_stream_body(s[i], NULL));
            if (pings > seen[i] && first[i] == 0)
                first[i] = now;
            if (pings > seen[i] + 1 && second[i] == 0) {
                second[i] = now;
                done++;
            }
        }
    }
    cr_assert_eq(done, SPREAD_STREAMS,
                 "only %d of %d streams had two heartbeats within %d ms", done,
                 SPREAD_STREAMS, STREAM_WAIT_MS);
    double earliest = first[0], latest = first[0];
    for (int i = 0; i < SPREAD_STREAMS; i++) {
        if (first[i] < earliest)
            earliest = first[i];
        if (first[i] > latest)
            latest = first[i];
        /* Still one a period: 2 s apart, well short of two periods
         * even when this client reads late on a busy machine. */
        cr_assert_lt(second[i] - first[i], 3.5,
                     "stream %d waited %.2f s between two heartbeats", i,
                     second[i] - first[i]);
    }
    /* All at once they arrive within milliseconds; spread in sixteenths
     * of two seconds, over more than one. */
    cr_assert_gt(latest - earliest, 0.5,
                 "sixteen streams' heartbeats came within %.0f ms of each "
                 "other: all at once, not spread over the period",
                 (latest - earliest) * 1000);
    for (int i = 0; i < SPREAD_STREAMS; i++)
        client_stream_close(s[i]);
    e2e_stop(&t.server);
}

Test(streams, a_move_on_another_pbemd_reaches_streams_open_on_this_one)
{
    e2e_table a;
    e2e_sit_down(&a, GAME, 2, NULL);
    e2e_table b = a;
    b.server.http = NULL;
    e2e_start(&b.server); /* same database, same key file */

    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", a.match);
    client_stream *match = streams_open(&a.server, path, NULL, NULL);
    client_stream *players[2];
    for (int p = 0; p < 2; p++)
        players[p] = streams_open(&a.server, "/v1/players/me/stream?after=0",
                                  &a.players[p], NULL);
    cr_assert(streams_wait_id(match, e2e_head_seq(&a)));

    /* Moves through B only: A learns of them by LISTEN/NOTIFY. Play on
     * until the turn has passed to each player (a turn may take several
     * moves). */
    bool told[2] = {false, false};
    for (int i = 0; i < 60 && !(told[0] && told[1]); i++) {
        int seat = pending_seat(&b);
        e2e_play_one(&b);
        int next = pending_seat(&b);
        if (next >= 0 && next != seat) {
            /* That player's stream on A must say so. */
            cr_assert(client_stream_wait_for(players[next],
                                             "\"match.your_turn\"", 0,
                                             STREAM_WAIT_MS),
                      "player %d heard of no turn through A", next);
            told[next] = true;
        }
    }
    cr_expect(told[0] && told[1], "the turn never passed to both players");
    cr_assert(streams_wait_id(match, e2e_head_seq(&b)),
              "B's moves never reached A's match stream");
    for (int p = 0; p < 2; p++)
        client_stream_close(players[p]);
    client_stream_close(match);
    e2e_stop(&b.server);
    e2e_stop(&a.server);
}

Test(streams, past_the_limits_a_stream_is_refused_with_429_or_503)
{
    setenv("PBEM_STREAMS_PER_KEY", "2", 1);
    setenv("PBEM_STREAMS_MAX", "3", 1);
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    unsetenv("PBEM_STREAMS_PER_KEY");
    unsetenv("PBEM_STREAMS_MAX");
    client_stream *open[3];
    for (int i = 0; i < 2; i++) {
        open[i] = streams_open(&t.server, "/v1/players/me/stream",
                               &t.players[0], NULL);
        cr_assert_eq(client_stream_status(open[i]), 200);
    }
    client_stream *refused =
        streams_open(&t.server, "/v1/players/me/stream", &t.players[0], NULL);
    cr_assert_eq(client_stream_status(refused), 429);
    cr_expect_not_null(client_stream_header(refused, "Retry-After"));
    cr_assert(client_stream_wait_end(refused, STREAM_WAIT_MS));
    json_t *error = json_loads(client_stream_body(refused, NULL), 0, NULL);
    json_t *e = json_object_get(error, "error");
    cr_expect_str_eq(json_string_value(json_object_get(e, "code")),
                     "too_many_streams");
    cr_expect(strstr(json_string_value(json_object_get(e, "message")),
                     "close one") != NULL);
    json_decref(error);
    client_stream_close(refused);

    /* The bot drops a stream and opens a new one: the server has not
     * written to the dropped one since, but a refusal makes it look, so
     * the slot frees well before the next heartbeat (15 s). */
    client_stream_close(open[0]);
    long status = 0;
    for (int tries = 0; tries < 50 && status != 200; tries++) {
        if (tries > 0) {
            client_stream_close(open[0]);
            pause_ms(100);
        }
        open[0] = streams_open(&t.server, "/v1/players/me/stream",
                               &t.players[0], NULL);
        status = client_stream_status(open[0]);
    }
    cr_assert_eq(status, 200, "the dropped stream still held its slot");

    /* Another key may still open one: the third of the server's three. */
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    open[2] = streams_open(&t.server, "/v1/players/me/stream", &t.players[1],
                           NULL);
    cr_assert_eq(client_stream_status(open[2]), 200);
    refused = streams_open(&t.server, path, NULL, NULL);
    cr_assert_eq(client_stream_status(refused), 503);
    cr_expect_not_null(client_stream_header(refused, "Retry-After"));
    cr_assert(client_stream_wait_end(refused, STREAM_WAIT_MS));
    error = json_loads(client_stream_body(refused, NULL), 0, NULL);
    e = json_object_get(error, "error");
    cr_expect_str_eq(json_string_value(json_object_get(e, "code")),
                     "streams_full");
    json_decref(error);
    client_stream_close(refused);
    /* Moves are not streams: they still answer. */
    e2e_play_one(&t);
    for (int i = 0; i < 3; i++)
        client_stream_close(open[i]);
    e2e_stop(&t.server);
}

Test(streams, bad_requests_are_told_what_to_fix)
{
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    const char *bad[] = {"Last-Event-ID: soon", NULL};
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream *s = streams_open(&t.server, path, NULL, bad);
    cr_expect_eq(client_stream_status(s), 400);
    client_stream_close(s);
    const char *future[] = {"Last-Event-ID: 999999", NULL};
    s = streams_open(&t.server, path, NULL, future);
    cr_expect_eq(client_stream_status(s), 400);
    client_stream_wait_end(s, STREAM_WAIT_MS);
    cr_expect(strstr(client_stream_body(s, NULL), "past the last event") != NULL);
    client_stream_close(s);
    s = streams_open(&t.server, "/v1/matches/m_999999999/stream", NULL, NULL);
    cr_expect_eq(client_stream_status(s), 404);
    client_stream_close(s);
    s = streams_open(&t.server, "/v1/players/me/stream", NULL, NULL);
    cr_expect_eq(client_stream_status(s), 401);
    client_stream_close(s);
    e2e_stop(&t.server);
}

/* The server's grace period is 30 s: a stop that waited for the open
 * streams would overrun the test's timeout. */
Test(streams, sigterm_ends_open_streams_promptly, .timeout = 20)
{
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream *s = streams_open(&t.server, path, NULL, NULL);
    client_stream *p =
        streams_open(&t.server, "/v1/players/me/stream", &t.players[1], NULL);
    cr_assert(streams_wait_id(s, e2e_head_seq(&t)));
    /* Both idle, parked; the server must end them, not wait out its grace
     * period (30 s) for them. */
    cr_expect_eq(e2e_stop(&t.server), 0);
    cr_expect(client_stream_wait_end(s, 1000), "the match stream stayed open");
    cr_expect(client_stream_wait_end(p, 1000), "the player stream stayed open");
    client_stream_close(s);
    client_stream_close(p);
}

Test(streams, the_end_of_a_match_reaches_its_players_and_spectators,
     .timeout = 300)
{
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream *match = streams_open(&t.server, path, NULL, NULL);
    client_stream *players[2];
    for (int p = 0; p < 2; p++)
        players[p] = streams_open(&t.server, "/v1/players/me/stream?after=0",
                                  &t.players[p], NULL);
    int moves = 0;
    while (moves < 5000 && e2e_play_one(&t))
        moves++;
    cr_assert(streams_wait_id(match, e2e_head_seq(&t)));
    cr_expect(client_stream_wait_for(match, "\"kind\":\"finished\"", 0,
                                     STREAM_WAIT_MS),
              "spectators never saw the finished event");
    for (int p = 0; p < 2; p++)
        cr_expect(client_stream_wait_for(players[p], "\"type\":\"match.over\"",
                                         0, STREAM_WAIT_MS),
                  "player %d was not told the match is over", p);
    /* The streams stay open: a finished match simply sends nothing more. */
    cr_expect(!client_stream_ended(match));
    for (int p = 0; p < 2; p++)
        client_stream_close(players[p]);
    client_stream_close(match);
    e2e_stop(&t.server);
}

Test(streams, a_resume_point_older_than_what_is_kept_is_refused_with_410,
     .timeout = 120)
{
    setenv("PBEM_STREAM_KEEP_HOURS", "1", 1);
    setenv("PBEM_STREAM_PRUNE_SECONDS", "1", 1);
    /* The attempts before the pruning open streams the client drops at
     * once; the server counts them until their next heartbeat. */
    setenv("PBEM_STREAMS_PER_KEY", "1000", 1);
    e2e_table t;
    e2e_sit_down(&t, GAME, 2, NULL);
    unsetenv("PBEM_STREAM_KEEP_HOURS");
    unsetenv("PBEM_STREAM_PRUNE_SECONDS");
    unsetenv("PBEM_STREAMS_PER_KEY");
    const e2e_player *me = &t.players[0];
    client_stream *s =
        streams_open(&t.server, "/v1/players/me/stream?after=0", me, NULL);
    play_until_items(&t, s, 1);
    cr_assert(streams_wait_id(s, 1));
    client_stream_close(s);

    /* The player's items age past the hour kept. */
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK);
    char sql[160];
    snprintf(sql, sizeof sql,
             "UPDATE player_stream SET created_at = now() - interval '2 hours'"
             " WHERE player_id = %lld",
             atoll(me->id + 2));
    PGresult *r = PQexec(db, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(db);

    /* Once the server's pruning pass has run (each second here), a resume
     * from before them is refused, saying how to start again. */
    const char *headers[] = {"Last-Event-ID: 0", NULL};
    long status = 0;
    char body[1024] = "";
    for (int tries = 0; tries < 150 && status != 410; tries++) {
        if (tries > 0)
            pause_ms(100);
        s = streams_open(&t.server, "/v1/players/me/stream", me, headers);
        status = client_stream_status(s);
        if (status == 410) {
            client_stream_wait_end(s, STREAM_WAIT_MS);
            snprintf(body, sizeof body, "%s", client_stream_body(s, NULL));
        }
        client_stream_close(s);
    }
    cr_assert_eq(status, 410, "the old items were never pruned");
    cr_expect(strstr(body, "\"stream_expired\"") != NULL, "%s", body);
    cr_expect(strstr(body, "without Last-Event-ID") != NULL, "%s", body);
    s = streams_open(&t.server, "/v1/players/me/stream", me, NULL);
    client_stream_wait_for(s, "\n", 0, 1000);
    cr_expect_eq(client_stream_status(s), 200, "%ld %s", client_stream_status(s),
                 client_stream_body(s, NULL));
    client_stream_close(s);
    e2e_stop(&t.server);
}
