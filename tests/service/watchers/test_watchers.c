/* Many watchers on one pbemd (issue #42): with its default limits a server
 * holds more streams than the 2,000 streams and 4,096 connections it
 * allowed before, and an idle stream costs it little memory. Each stream
 * here first catches up on a log of some twenty kilobytes, as a spectator
 * joining a match under way does, then idles. Before the fix a stream
 * kept the buffer of its catch-up, libmicrohttpd's 64 KiB copy buffer and
 * its 32 KiB memory pool, zeroed and so resident: some 67 KiB each
 * (docs/benchmarks.md). */
#include <criterion/criterion.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../support/wire.h"
#include "../streams/streams.h"

/* Streams opened before the measure (the server's threads, arenas and
 * caches are set up by the first ones), then the streams measured: past
 * the old defaults of 2,000 streams and 4,096 connections. */
#define WARM_UP 200
#define MEASURED 4000

/* The bound per stream. bench/watchers measures some 13 KiB at 10,000
 * streams; 20 leaves room for the allocator's rounding, and is well under
 * what any of the three costs above alone brings back. */
#define PER_STREAM_KIB 20

/* Opens count streams on path into open[from..), each read to seq head;
 * the reader keeps only what it has not read. */
static void open_streams(const e2e_server *server, const char *path,
                         client_stream **open, int from, int count,
                         long long head)
{
    for (int i = from; i < from + count; i++) {
        open[i] = streams_open(server, path, NULL, NULL);
        cr_assert_eq(client_stream_status(open[i]), 200, "stream %d: %ld %s", i,
                     client_stream_status(open[i]),
                     client_stream_body(open[i], NULL));
    }
    for (int i = from; i < from + count; i++) {
        cr_assert(streams_wait_id(open[i], head), "stream %d got no log", i);
        size_t len;
        client_stream_body(open[i], &len);
        client_stream_drop(open[i], len);
    }
}

Test(watchers, thousands_of_idle_streams_by_default_under_20_kib_each,
     .timeout = 180)
{
    /* A descriptor a stream, in this process and in pbemd (which
     * inherits the limit), beside the others each holds. */
    streams_more_descriptors(WARM_UP + MEASURED + 512);
    /* Every stream comes from 127.0.0.1, as from a proxy. */
    setenv("PBEM_TRUSTED_PROXIES", "127.0.0.1", 1);
    char *asan = wire_quarantine_off();
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    unsetenv("PBEM_TRUSTED_PROXIES");
    wire_quarantine_restore(asan);
    /* A log to catch up on: a move is an event of some 700 bytes. */
    for (int m = 0; m < 30; m++)
        cr_assert(e2e_play_one(&t), "move %d", m);
    json_t *match = e2e_get(&t, "", NULL);
    long long head = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);

    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/stream", t.match);
    client_stream **open = calloc(WARM_UP + MEASURED, sizeof *open);
    cr_assert_not_null(open);
    open_streams(&t.server, path, open, 0, WARM_UP, head);
    long before = wire_rss_kib(t.server.pid);
    open_streams(&t.server, path, open, WARM_UP, MEASURED, head);
    long after = wire_rss_kib(t.server.pid);
    double each = (double)(after - before) / MEASURED;
    cr_log_info("pbemd's RSS %ld KiB with %d streams, %ld KiB with %d: "
                "%.1f KiB per idle stream",
                before, WARM_UP, after, WARM_UP + MEASURED, each);
    cr_expect_lt(each, PER_STREAM_KIB,
                 "%.1f KiB per idle stream (RSS %ld KiB, then %ld KiB)", each,
                 before, after);

    /* Still streams: each gets the next event. */
    cr_assert(e2e_play_one(&t));
    int missing = 0;
    for (int i = 0; i < WARM_UP + MEASURED; i++)
        missing += !streams_wait_id(open[i], head + 1);
    cr_expect_eq(missing, 0, "%d streams missed the next event", missing);
    for (int i = 0; i < WARM_UP + MEASURED; i++)
        client_stream_close(open[i]);
    free(open);
    e2e_stop(&t.server);
}

/* An HTTP/1.0 client cannot take chunks: its stream goes out unchunked,
 * through the small copy buffer each streamed answer has (256 bytes, was
 * 64 KiB), and a log larger than it arrives whole. */
Test(watchers, an_http_1_0_client_reads_the_whole_log, .timeout = 60)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int m = 0; m < 10; m++)
        cr_assert(e2e_play_one(&t), "move %d", m);
    json_t *match = e2e_get(&t, "", NULL);
    long long head = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);

    char request[160], last[40];
    snprintf(request, sizeof request,
             "GET /v1/matches/%s/stream HTTP/1.0\r\n\r\n", t.match);
    snprintf(last, sizeof last, "id: %lld\n", head);
    int fd = wire_connect(t.server.port);
    wire_send(fd, request, strlen(request));
    /* Until the last event's item has come whole, or 15 s. */
    static char got[256 * 1024];
    size_t len = 0;
    double until = wire_now() + 15;
    const char *at = NULL;
    while (wire_now() < until && len + 1 < sizeof got &&
           (at == NULL || strstr(at, "\n\n") == NULL)) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t n = recv(fd, got + len, sizeof got - 1 - len, 0);
        cr_assert_gt(n, 0, "the stream ended after %zu bytes", len);
        len += (size_t)n;
        got[len] = '\0';
        at = strstr(got, last);
    }
    close(fd);
    cr_assert_not_null(at, "no event %lld within 15 s: %.300s", head, got);
    cr_expect(strncmp(got, "HTTP/1.0 200", 12) == 0 ||
                  strncmp(got, "HTTP/1.1 200", 12) == 0,
              "%.100s", got);
    cr_expect_null(strstr(got, "Transfer-Encoding: chunked"), "%.400s", got);
    json_t *items = streams_sse_items(strstr(got, "\r\n\r\n") + 4);
    cr_expect_eq((long long)json_array_size(items), head,
                 "every event from 1 to %lld, each whole", head);
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item)
        cr_expect_eq(json_integer_value(
                         json_object_get(json_object_get(item, "data"), "seq")),
                     (json_int_t)i + 1);
    json_decref(items);
    e2e_stop(&t.server);
}
