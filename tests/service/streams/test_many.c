/* A thousand idle streams must not take the server's threads: moves keep
 * answering while they are open, and every one of them still gets each
 * new event. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "streams.h"

#define STREAMS 1000

/* A two-seat match on a pbemd of `threads` server threads, with room for
 * `streams` streams. Every stream comes from 127.0.0.1, as it would from a
 * proxy: the per-address limit spares trusted proxies. */
static void sit_down(e2e_table *t, int streams, const char *threads)
{
    /* A descriptor a stream, in this process and in pbemd (which
     * inherits the limit), beside the others each holds. */
    streams_more_descriptors(streams + 512);
    setenv("PBEM_TRUSTED_PROXIES", "127.0.0.1", 1);
    setenv("PBEM_THREADS", threads, 1);
    e2e_sit_down(t, "antiquity_quest", 2, NULL);
    unsetenv("PBEM_TRUSTED_PROXIES");
    unsetenv("PBEM_THREADS");
}

/* Opens n streams of the match and waits until each has sent its log. */
static void open_streams(e2e_table *t, client_stream **open, int n)
{
    long long head = e2e_head_seq(t);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t->match);
    for (int i = 0; i < n; i++) {
        open[i] = streams_open(&t->server, path, NULL, NULL);
        cr_assert_eq(client_stream_status(open[i]), 200, "stream %d: %ld", i,
                     client_stream_status(open[i]));
    }
    for (int i = 0; i < n; i++)
        cr_assert(streams_wait_id(open[i], head), "stream %d got no log", i);
}

Test(streams_many, a_thousand_idle_streams_stay_open_while_moves_answer,
     .timeout = 600)
{
    e2e_table t;
    sit_down(&t, STREAMS, "4");
    long long head = e2e_head_seq(&t);
    client_stream **open = calloc(STREAMS, sizeof *open);
    cr_assert_not_null(open);
    open_streams(&t, open, STREAMS);

    /* With all of them open and idle (4 server threads), moves answer. */
    for (int m = 0; m < 5; m++) {
        cr_assert(e2e_play_one(&t));
        e2e_response r = e2e_call(&t.server, "GET", "/healthz", NULL, NULL);
        cr_expect_eq(r.status, 200);
        e2e_response_free(&r);
    }
    long long now = e2e_head_seq(&t);
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

/* The streams one server thread serves are woken through the first of them
 * the hub looks at, whose reader starts waking the rest (streams_hub.h). When
 * that one's client has left, its stream ends as it is woken: the rest must get
 * the news all the same, not wait for a reader that never comes. */
#define HALF 100

Test(streams_many, streams_whose_clients_left_keep_no_news_from_the_others,
     .timeout = 300)
{
    e2e_table t;
    /* One server thread, so every stream is woken through the same one. */
    sit_down(&t, 2 * HALF, "1");
    long long head = e2e_head_seq(&t);
    client_stream *open[2 * HALF];
    open_streams(&t, open, 2 * HALF);

    /* The later half leave, among them the newest stream, which the hub's
     * list of streams holds first; with a reset, as a client killed with
     * bytes unread leaves. */
    for (int i = HALF; i < 2 * HALF; i++) {
        struct linger reset = {.l_onoff = 1, .l_linger = 0};
        cr_assert_eq(setsockopt(client_stream_fd(open[i]), SOL_SOCKET,
                                SO_LINGER, &reset, sizeof reset),
                     0);
        client_stream_close(open[i]);
    }

    for (int m = 0; m < 3; m++)
        cr_assert(e2e_play_one(&t));
    long long now = e2e_head_seq(&t);
    cr_assert_gt(now, head);

    int missing = 0;
    for (int i = 0; i < HALF; i++)
        if (!streams_wait_id(open[i], now))
            missing++;
    cr_expect_eq(missing, 0,
                 "%d of the %d streams still open missed the new events "
                 "(up to event %lld) after the others' clients left",
                 missing, HALF, now);
    for (int i = 0; i < HALF; i++)
        client_stream_close(open[i]);
    e2e_stop(&t.server);
}
