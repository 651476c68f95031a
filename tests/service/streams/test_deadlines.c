/* A deadline reminder reaches the waiting player's stream, like any other
 * notification, with no webhook and no mail configured. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "streams.h"

#define HOUR 3600LL
/* 2030-01-01T00:00:00Z, the match time the test clock starts at. */
#define T0 1893456000LL

static char clock_path[64];

/* Moves the test clock every pbemd of the test reads (core/clock.h). */
static void set_clock(long long now)
{
    char next[80];
    snprintf(next, sizeof next, "%s.next", clock_path);
    FILE *f = fopen(next, "w");
    cr_assert_not_null(f);
    fprintf(f, "%lld\n", now);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(rename(next, clock_path), 0);
}

Test(streams_deadlines, a_deadline_reminder_reaches_the_waiting_players_stream,
     .timeout = 120)
{
    snprintf(clock_path, sizeof clock_path, "/tmp/pbem-clock-XXXXXX");
    int fd = mkstemp(clock_path);
    cr_assert_geq(fd, 0);
    close(fd);
    set_clock(T0);
    setenv("PBEM_CLOCK_FILE", clock_path, 1);
    setenv("PBEM_DEADLINE_POLL_MS", "50", 1);
    unsetenv("PBEM_SMTP_URL");
    e2e_table t = {.seats = 2};
    e2e_start(&t.server);
    unsetenv("PBEM_CLOCK_FILE");
    unsetenv("PBEM_DEADLINE_POLL_MS");
    e2e_register(&t.server, "Robert", &t.players[0]);
    e2e_register(&t.server, "Eliza", &t.players[1]);
    client_stream *streams[2];
    for (int p = 0; p < 2; p++)
        streams[p] = streams_open(&t.server, "/v1/players/me/stream?after=0",
                                  &t.players[p], NULL);

    e2e_response r = e2e_call(
        &t.server, "POST", "/v1/matches",
        "{\"game\":\"antiquity_quest\",\"seats\":2,\"deadline\":"
        "{\"turn_hours\":72,\"reminder_hours\":12,\"action\":\"default_move\"}}",
        &t.players[0]);
    cr_assert_eq(r.status, 201, "%s", r.body);
    snprintf(t.match, sizeof t.match, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", t.match);
    r = e2e_call(&t.server, "POST", path, "{}", &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_decref(match);
    cr_assert_geq(seat, 0);
    cr_assert(client_stream_wait_for(streams[seat], "\"match.your_turn\"", 0,
                                     STREAM_WAIT_MS));

    /* Past the reminder time (60 h into the 72 h turn). */
    set_clock(T0 + 61 * HOUR);
    cr_assert(client_stream_wait_for(streams[seat],
                                     "\"type\":\"match.deadline_reminder\"", 0,
                                     STREAM_WAIT_MS),
              "no reminder on the stream: %s",
              client_stream_body(streams[seat], NULL));
    json_t *items = streams_sse_items(client_stream_body(streams[seat], NULL));
    json_t *last = json_object_get(
        json_array_get(items, json_array_size(items) - 1), "data");
    json_t *deadline = json_object_get(json_object_get(last, "data"), "deadline");
    cr_expect_str_eq(json_string_value(json_object_get(deadline, "due_at")),
                     "2030-01-04T00:00:00Z");
    json_decref(items);
    /* The other player waits for nothing: no reminder for them. */
    client_stream_poll(streams[1 - seat]);
    cr_expect(strstr(client_stream_body(streams[1 - seat], NULL),
                     "match.deadline_reminder") == NULL);
    for (int p = 0; p < 2; p++)
        client_stream_close(streams[p]);
    e2e_stop(&t.server);
    unlink(clock_path);
}
