/* A thousand idle streams must not take the server's threads: moves keep
 * answering while they are open, and every one of them still gets each
 * new event. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streams.h"

#define STREAMS 1000

Test(streams_many, a_thousand_idle_streams_stay_open_while_moves_answer,
     .timeout = 600)
{
    /* A descriptor a stream, in this process and in pbemd (which
     * inherits the limit), beside the others each holds. */
    streams_more_descriptors(STREAMS + 512);
    /* Every stream comes from 127.0.0.1, as it would from a proxy: the
     * per-address limit spares trusted proxies. */
    setenv("PBEM_TRUSTED_PROXIES", "127.0.0.1", 1);
    setenv("PBEM_THREADS", "4", 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    unsetenv("PBEM_TRUSTED_PROXIES");
    unsetenv("PBEM_THREADS");
    json_t *match = e2e_get(&t, "", NULL);
    long long head = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);

    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream **open = calloc(STREAMS, sizeof *open);
    cr_assert_not_null(open);
    for (int i = 0; i < STREAMS; i++) {
        open[i] = streams_open(&t.server, path, NULL, NULL);
        cr_assert_eq(client_stream_status(open[i]), 200, "stream %d: %ld", i,
                     client_stream_status(open[i]));
    }
    for (int i = 0; i < STREAMS; i++)
        cr_assert(streams_wait_id(open[i], head), "stream %d got no log", i);

    /* With all of them open and idle (4 server threads), moves answer. */
    for (int m = 0; m < 5; m++) {
        cr_assert(e2e_play_one(&t));
        e2e_response r = e2e_call(&t.server, "GET", "/healthz", NULL, NULL);
        cr_expect_eq(r.status, 200);
        e2e_response_free(&r);
    }
    match = e2e_get(&t, "", NULL);
    long long now = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    cr_assert_gt(now, head);

    /* And every stream is still open and got every new event. */
    int missing = 0;
    for (int i = 0; i < STREAMS; i++) {
        if (!streams_wait_id(open[i], now))
            missing++;
        cr_expect(!client_stream_ended(open[i]), "stream %d ended", i);
    }
    cr_expect_eq(missing, 0, "%d streams missed the new events", missing);
    for (int i = 0; i < STREAMS; i++)
        client_stream_close(open[i]);
    free(open);
    e2e_stop(&t.server);
}
