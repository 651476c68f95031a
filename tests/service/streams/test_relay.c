/* How the hub wakes the parked streams of one server thread
 * (streams/streams_hub.h): one of them at once, then the rest a batch at a
 * time by the readers of that thread. Whatever the order, every parked
 * stream must be woken exactly once: a stream never woken misses its news
 * for good, and a connection resumed twice is libmicrohttpd's undefined
 * behaviour. These tests play the server threads themselves, against the
 * hub's real LISTEN thread and a real NOTIFY. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/config.h"
#include "store/db.h"
#include "streams/streams_hub.h"

#define STREAMS 300
#define GROUPS 2

typedef struct parked_stream {
    streams_sub *sub;
    int group;
    int wakes;   /* times the hub woke it */
    int handled; /* wakes its reader has handled */
} parked_stream;

static parked_stream streams[STREAMS];
static int group_tag[GROUPS]; /* their addresses name the groups */

/* The wake runs in the hub's thread or in a reader's (here, the test's
 * own): counted under a lock the test reads with, and told to a test
 * waiting for it. */
static pthread_mutex_t woken_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t woken_cond = PTHREAD_COND_INITIALIZER;

static void wake(void *context)
{
    pthread_mutex_lock(&woken_lock);
    ((parked_stream *)context)->wakes++;
    pthread_cond_broadcast(&woken_cond);
    pthread_mutex_unlock(&woken_lock);
}

static void park(void *context)
{
    (void)context;
}

static int wakes_of(int i)
{
    pthread_mutex_lock(&woken_lock);
    int n = streams[i].wakes;
    pthread_mutex_unlock(&woken_lock);
    return n;
}

/* Under woken_lock. */
static int woken_in_locked(int group)
{
    int n = 0;
    for (int i = 0; i < STREAMS; i++)
        n += streams[i].group == group && streams[i].wakes > 0;
    return n;
}

static int woken_in(int group)
{
    pthread_mutex_lock(&woken_lock);
    int n = woken_in_locked(group);
    pthread_mutex_unlock(&woken_lock);
    return n;
}

/* Starts the hub on the test database and parks STREAMS streams of a
 * match of its own, in GROUPS groups taken in turn. */
static long long open_parked(void)
{
    cr_assert(sodium_init() >= 0);
    /* No heartbeat or prune during the test: only the news wakes. */
    setenv("PBEM_STREAM_HEARTBEAT_SECONDS", "3600", 1);
    setenv("PBEM_STREAM_PRUNE_SECONDS", "86400", 1);
    setenv("PBEM_STREAMS_MAX", "1000", 1);
    apierr err;
    cr_assert(config_load(&err), "%s", err.message);
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url, "DATABASE_URL is not set");
    cr_assert(db_init(url, &err), "%s", err.message);
    cr_assert(streams_hub_start(&err), "%s", err.message);
    /* Another test's NOTIFY on the same database must not wake these. */
    long long match = 1 + (long long)randombytes_uniform(1u << 30);
    for (int i = 0; i < STREAMS; i++) {
        streams[i].group = i % GROUPS;
        streams[i].sub = streams_hub_join(STREAMS_MATCH, match, NULL,
                                          &group_tag[streams[i].group], wake,
                                          &streams[i], &err);
        cr_assert_not_null(streams[i].sub, "%s", err.message);
        /* Its first read (it starts with news), then it parks. */
        streams_hub_take(streams[i].sub, NULL);
        cr_assert(streams_hub_park(streams[i].sub, park, &streams[i]));
    }
    return match;
}

/* Tells the hub that match changed, as an append's NOTIFY does. */
static void notify(long long match)
{
    apierr err;
    PGconn *conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    char sql[96];
    snprintf(sql, sizeof sql, "NOTIFY pbem_stream, 'm%lld'", match);
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQresultErrorMessage(r));
    PQclear(r);
}

/* Waits, 10 s at most, until each group has a stream woken. */
static void until_each_group_woken(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&woken_lock);
    for (int g = 0; g < GROUPS; g++) {
        int rc = 0;
        while (woken_in_locked(g) == 0 && rc == 0)
            rc = pthread_cond_timedwait(&woken_cond, &woken_lock, &until);
        if (woken_in_locked(g) == 0) {
            pthread_mutex_unlock(&woken_lock);
            cr_assert_fail("no stream of group %d was woken within 10 s of "
                           "the NOTIFY",
                           g);
        }
    }
    pthread_mutex_unlock(&woken_lock);
}

static int woken_so_far(void)
{
    int n = 0;
    for (int i = 0; i < STREAMS; i++)
        n += wakes_of(i) > 0;
    return n;
}

/* The most streams one read or leave has woken. */
static int most_woken_by_one;

/* Each stream woken and not yet read reads (as its thread would), or,
 * with leave set, the woken ones leave instead of reading, once. Returns
 * how many it handled. */
static int serve_woken(bool leave)
{
    int handled = 0;
    for (int i = 0; i < STREAMS; i++) {
        if (streams[i].sub == NULL || wakes_of(i) <= streams[i].handled)
            continue;
        streams[i].handled++;
        handled++;
        int before = woken_so_far();
        if (leave) {
            streams_hub_leave(streams[i].sub);
            streams[i].sub = NULL;
        } else {
            cr_expect(streams_hub_take(streams[i].sub, NULL) & STREAMS_NEWS,
                      "stream %d was woken without news", i);
        }
        if (woken_so_far() - before > most_woken_by_one)
            most_woken_by_one = woken_so_far() - before;
    }
    return handled;
}

static void expect_each_woken_once(void)
{
    int never = 0, twice = 0;
    for (int i = 0; i < STREAMS; i++) {
        never += wakes_of(i) == 0;
        twice += wakes_of(i) > 1;
    }
    cr_expect_eq(never, 0, "%d of %d parked streams were never woken", never,
                 STREAMS);
    cr_expect_eq(twice, 0, "%d of %d parked streams were woken twice", twice,
                 STREAMS);
}

Test(streams_relay,
     news_wakes_one_stream_a_thread_and_its_readers_wake_the_rest_once)
{
    long long match = open_parked();
    notify(match);
    until_each_group_woken();
    /* Before any reader ran, the hub itself woke one of each group (the
     * NOTIFY came once, and it handles a notification all at once). */
    for (int g = 0; g < GROUPS; g++)
        cr_expect_eq(woken_in(g), 1,
                     "the hub woke %d streams of group %d itself, not one",
                     woken_in(g), g);
    /* Readers read what they were woken for, and each read wakes the
     * next ones: a batch, not all of its thread's streams at once. */
    while (serve_woken(false) > 0)
        ;
    cr_expect_leq(most_woken_by_one, 64, "one read woke %d streams",
                  most_woken_by_one);
    cr_expect_gt(most_woken_by_one, 0);
    expect_each_woken_once();
    streams_hub_stop();
}

/* The stream woken first ends instead of reading (its client left): the
 * rest of its thread's streams must still be woken. */
Test(streams_relay, the_rest_are_woken_when_the_stream_woken_first_leaves)
{
    long long match = open_parked();
    notify(match);
    until_each_group_woken();
    cr_assert_eq(serve_woken(true), GROUPS);
    while (serve_woken(false) > 0)
        ;
    int never = 0;
    for (int i = 0; i < STREAMS; i++)
        never += streams[i].sub != NULL && wakes_of(i) == 0;
    cr_expect_eq(never, 0,
                 "%d streams were never woken after the first ones left",
                 never);
    expect_each_woken_once();
    streams_hub_stop();
}

/* At shutdown every stream is woken at once, those waiting for a reader
 * too: the server must not stop with a connection suspended. */
Test(streams_relay, closing_wakes_every_stream_at_once)
{
    long long match = open_parked();
    notify(match);
    until_each_group_woken();
    streams_hub_close_all();
    expect_each_woken_once();
    /* And reading then wakes nobody twice. */
    while (serve_woken(false) > 0)
        ;
    expect_each_woken_once();
    streams_hub_stop();
}
