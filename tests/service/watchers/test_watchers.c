/* Many watchers on one pbemd (issue #42): with its default limits a server
 * holds more streams than the 2,000 streams and 4,096 connections it
 * allowed before, and an idle stream costs it little memory. Each stream
 * here first catches up on a log of some twenty kilobytes, as a spectator
 * joining a match under way does, then idles. Before the fix a stream
 * kept the buffer of its catch-up, libmicrohttpd's 64 KiB copy buffer and
 * its 32 KiB memory pool, zeroed and so resident: some 67 KiB each
 * (docs/benchmarks.md). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../support/e2e.h"
#include "../../support/wire.h"
#include "client_stream.h"

/* Streams opened before the measure (the server's threads, arenas and
 * caches are set up by the first ones), then the streams measured: past
 * the old defaults of 2,000 streams and 4,096 connections. */
#define WARM_UP 200
#define MEASURED 4000

/* The bound per stream. bench/watchers measures some 13 KiB at 10,000
 * streams; 20 leaves room for the allocator's rounding, and is well under
 * what any of the three costs above alone brings back. */
#define PER_STREAM_KIB 20

#define WAIT_MS 15000

/* Waits until s has sent the whole item with id (an "id: N" line, then
 * the rest of the item to its blank line: it may come in pieces). */
static bool wait_item(client_stream *s, long long id)
{
    char needle[40];
    snprintf(needle, sizeof needle, "id: %lld\n", id);
    if (!client_stream_wait_for(s, needle, 0, WAIT_MS))
        return false;
    const char *body = client_stream_body(s, NULL);
    size_t at = (size_t)(strstr(body, needle) - body);
    return client_stream_wait_for(s, "\n\n", at, WAIT_MS);
}

/* Opens count streams on path into open[from..), each read to seq head;
 * the reader keeps only what it has not read. */
static void open_streams(const e2e_server *server, const char *path,
                         client_stream **open, int from, int count,
                         long long head)
{
    char base[64], error[256];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", server->port);
    for (int i = from; i < from + count; i++) {
        open[i] = client_stream_open(base, path, NULL, NULL, WAIT_MS, error);
        cr_assert_not_null(open[i], "stream %d: %s", i, error);
        cr_assert_eq(client_stream_status(open[i]), 200, "stream %d: %ld %s", i,
                     client_stream_status(open[i]),
                     client_stream_body(open[i], NULL));
    }
    for (int i = from; i < from + count; i++) {
        cr_assert(wait_item(open[i], head), "stream %d got no log", i);
        size_t len;
        client_stream_body(open[i], &len);
        client_stream_drop(open[i], len);
    }
}

Test(watchers, thousands_of_idle_streams_by_default_under_20_kib_each,
     .timeout = 180)
{
    struct rlimit files;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &files), 0);
    files.rlim_cur = files.rlim_max;
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &files), 0);
    cr_assert_geq(files.rlim_cur, WARM_UP + MEASURED + 64,
                  "raise ulimit -Hn to run this test");
    /* Every stream comes from 127.0.0.1, as from a proxy. */
    setenv("PBEM_TRUSTED_PROXIES", "127.0.0.1", 1);
#ifdef __SANITIZE_ADDRESS__
    /* AddressSanitizer's quarantine of freed memory would be measured
     * too (tests/service/hostile/test_memory.c). */
    const char *given = getenv("ASAN_OPTIONS");
    char *saved = given != NULL ? strdup(given) : NULL;
    char options[512];
    snprintf(options, sizeof options, "%s%squarantine_size_mb=0",
             given ? given : "", given && *given ? ":" : "");
    setenv("ASAN_OPTIONS", options, 1);
#endif
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    unsetenv("PBEM_TRUSTED_PROXIES");
#ifdef __SANITIZE_ADDRESS__
    if (saved != NULL)
        setenv("ASAN_OPTIONS", saved, 1);
    else
        unsetenv("ASAN_OPTIONS");
    free(saved);
#endif
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
        missing += !wait_item(open[i], head + 1);
    cr_expect_eq(missing, 0, "%d streams missed the next event", missing);
    for (int i = 0; i < WARM_UP + MEASURED; i++)
        client_stream_close(open[i]);
    free(open);
    e2e_stop(&t.server);
}
