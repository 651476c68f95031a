/* Crash consistency: players keep playing while pbemd is killed with
 * SIGKILL at random points and started again, then PostgreSQL is stopped
 * with -m immediate (a crash: no checkpoint, crash recovery at the next
 * start) and started again under the running pbemd. At the end every
 * acknowledged move is in its match's log exactly once, at the seq its
 * answer gave; every match's chain verifies; and no request was answered
 * 500 while PostgreSQL was up.
 *
 * PBEM_CRASH_CYCLES cycles (a pbemd kill and a PostgreSQL crash each; 3
 * by default, `make soak` runs 50) with PBEM_CRASH_CLIENTS players (4).
 * The kill points are drawn from PBEM_CRASH_SEED (printed; random when
 * unset), so a failing run's timing can be asked for again. The cluster
 * is the test's own (tests/support/pgcluster.h): stopping the shared test
 * server would break the suites running beside this one. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/pgcluster.h"
#include "../../support/daemon.h"
#include "../../support/players.h"

#define MAX_PLAYERS 32
/* Play between two crashes: long enough that requests are in flight at
 * the kill, short enough for make test. */
#define PLAY_MIN_MS 150
#define PLAY_MAX_MS 1200
/* How long the service may take to serve again after a restart. */
#define RECOVERY_LIMIT_MS 60000

static pgcluster cluster;
static daemon_proc pbemd;

static void clean_up(void)
{
    daemon_kill(&pbemd);
    if (pbemd.key_file[0] != '\0')
        unlink(pbemd.key_file);
    pgcluster_remove(&cluster);
}

/* splitmix64: the kill points from the printed seed. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static long env_long(const char *name, long fallback)
{
    const char *text = getenv(name);
    return text && *text ? strtol(text, NULL, 10) : fallback;
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Lets the players play for ms milliseconds and at least one more
 * acknowledged move (so a crash never lands on an idle service); fails
 * the test when no move comes for RECOVERY_LIMIT_MS. */
static void let_them_play(board *b, long ms)
{
    pthread_mutex_lock(&b->lock);
    long from = b->acknowledged;
    long began = now_ms();
    while (now_ms() - began < ms || b->acknowledged == from) {
        long waited = now_ms() - began;
        if (b->acknowledged == from && waited > RECOVERY_LIMIT_MS)
            break;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&b->moved, &b->lock, &until);
    }
    long moved = b->acknowledged - from;
    pthread_mutex_unlock(&b->lock);
    daemon_expect_running(&pbemd);
    cr_assert_gt(moved, 0, "no move was acknowledged for %d s",
                 RECOVERY_LIMIT_MS / 1000);
}

/* Whether every player has acknowledged more than since[i] moves. */
static bool everyone_moved_since(player *players, int n, const long *since)
{
    for (int i = 0; i < n; i++)
        if (player_acknowledged(&players[i]) <= since[i] &&
            players[i].failure[0] == '\0')
            return false;
    return true;
}

static int by_value(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* "max 1.234 s, median 0.567 s" of n milliseconds (sorted in place). */
static void summarise(long *ms, int n, char *out, size_t size)
{
    if (n == 0) {
        snprintf(out, size, "none");
        return;
    }
    qsort(ms, (size_t)n, sizeof *ms, by_value);
    snprintf(out, size, "max %.3f s, median %.3f s", ms[n - 1] / 1000.0,
             ms[n / 2] / 1000.0);
}

Test(crash, every_acknowledged_move_survives_kills_of_pbemd_and_postgresql,
     .fini = clean_up, .timeout = 7200)
{
    cr_assert(sodium_init() >= 0);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int cycles = (int)env_long("PBEM_CRASH_CYCLES", 3);
    int clients = (int)env_long("PBEM_CRASH_CLIENTS", 4);
    cr_assert(cycles >= 1 && clients >= 1 && clients <= MAX_PLAYERS,
              "PBEM_CRASH_CYCLES >= 1, 1 <= PBEM_CRASH_CLIENTS <= %d",
              MAX_PLAYERS);
    uint64_t seed;
    const char *seed_text = getenv("PBEM_CRASH_SEED");
    if (seed_text && *seed_text)
        seed = strtoull(seed_text, NULL, 10);
    else
        randombytes_buf(&seed, sizeof seed);
    uint64_t random = seed;
    fprintf(stderr, "crash: PBEM_CRASH_SEED=%llu cycles=%d clients=%d\n",
            (unsigned long long)seed, cycles, clients);

    pgcluster_create(&cluster, "pbem_crash");
    char url[256];
    pgcluster_url(&cluster, "pbem_crash", url, sizeof url);
    setenv("DATABASE_URL", url, 1);
    daemon_prepare(&pbemd);
    daemon_start(&pbemd);
    cr_assert_geq(daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS), 0,
                  "pbemd did not serve within %d s; see %s",
                  RECOVERY_LIMIT_MS / 1000, pbemd.log);

    char base_url[64];
    snprintf(base_url, sizeof base_url, "http://127.0.0.1:%d", pbemd.port);
    board b = {.base_url = base_url};
    pthread_mutex_init(&b.lock, NULL);
    pthread_cond_init(&b.moved, NULL);
    static player players[MAX_PLAYERS];
    for (int i = 0; i < clients; i++) {
        player_register(&players[i], &b, i);
        cr_assert_str_empty(players[i].failure, "%s", players[i].failure);
    }
    for (int i = 0; i < clients; i++)
        player_start(&players[i]);

    long *pbemd_ms = calloc((size_t)cycles, sizeof *pbemd_ms);
    long *postgres_ms = calloc((size_t)cycles, sizeof *postgres_ms);
    long *recovery_ms = calloc((size_t)cycles, sizeof *recovery_ms);
    for (int cycle = 0; cycle < cycles; cycle++) {
        let_them_play(&b, PLAY_MIN_MS + (long)(next_random(&random) %
                                               (PLAY_MAX_MS - PLAY_MIN_MS)));
        daemon_kill(&pbemd);
        long began = now_ms();
        daemon_start(&pbemd);
        long served = daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS);
        cr_assert_geq(served, 0,
                      "cycle %d: pbemd did not serve within %d s of its "
                      "restart; see %s",
                      cycle + 1, RECOVERY_LIMIT_MS / 1000, pbemd.log);
        pbemd_ms[cycle] = now_ms() - began;

        let_them_play(&b, PLAY_MIN_MS + (long)(next_random(&random) %
                                               (PLAY_MAX_MS - PLAY_MIN_MS)));
        atomic_fetch_add(&b.outage, 1);
        pgcluster_stop(&cluster, "immediate");
        began = now_ms();
        pgcluster_start(&cluster);
        recovery_ms[cycle] = now_ms() - began;
        served = daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS);
        cr_assert_geq(served, 0,
                      "cycle %d: pbemd did not serve within %d s of "
                      "PostgreSQL's restart; see %s",
                      cycle + 1, RECOVERY_LIMIT_MS / 1000, pbemd.log);
        postgres_ms[cycle] = now_ms() - began;
        atomic_fetch_add(&b.outage, 1);
        fprintf(stderr,
                "crash: cycle %d: pbemd served %.3f s after its restart, "
                "%.3f s after PostgreSQL's (which took %.3f s to accept "
                "connections)\n",
                cycle + 1, pbemd_ms[cycle] / 1000.0,
                postgres_ms[cycle] / 1000.0, recovery_ms[cycle] / 1000.0);
    }

    /* Every player plays on after the last crash: nobody is left
     * waiting, and requests on every worker meet the database again. */
    long since[MAX_PLAYERS];
    for (int i = 0; i < clients; i++)
        since[i] = player_acknowledged(&players[i]);
    long began = now_ms();
    while (!everyone_moved_since(players, clients, since) &&
           now_ms() - began < RECOVERY_LIMIT_MS)
        let_them_play(&b, 0);
    atomic_store(&b.stop, true);
    for (int i = 0; i < clients; i++)
        player_join(&players[i]);

    audit a = {0};
    long acknowledged = 0, resent = 0, on_resend = 0, answers_lost = 0,
         errors_outage = 0, errors_up = 0;
    int matches = 0;
    client *reader = client_new(base_url);
    for (int i = 0; i < clients; i++) {
        player *p = &players[i];
        player_audit(p, reader, &a);
        cr_expect_str_empty(p->failure, "player %d: %s", i, p->failure);
        acknowledged += p->move_count;
        resent += p->resent;
        on_resend += p->acknowledged_on_resend;
        answers_lost += p->answers_lost;
        errors_outage += p->server_errors_outage;
        errors_up += p->server_errors_up;
        matches += p->match_count;
    }
    client_free(reader);

    char pbemd_line[64], postgres_line[64], recovery_line[64];
    summarise(pbemd_ms, cycles, pbemd_line, sizeof pbemd_line);
    summarise(postgres_ms, cycles, postgres_line, sizeof postgres_line);
    summarise(recovery_ms, cycles, recovery_line, sizeof recovery_line);
    fprintf(stderr,
            "crash: cycles=%d clients=%d matches=%d acknowledged=%ld "
            "lost=%ld duplicated=%ld misplaced=%ld unacknowledged=%ld "
            "bad_chains=%ld resent=%ld acknowledged_on_resend=%ld "
            "answers_lost=%ld answered_from_store=%ld "
            "500_in_outage=%ld 500_while_up=%ld\n",
            cycles, clients, matches, acknowledged, a.lost, a.duplicated,
            a.misplaced, a.unacknowledged, a.bad_chains, resent, on_resend,
            answers_lost, a.replayed, errors_outage, errors_up);
    fprintf(stderr,
            "crash: serving again after pbemd's restart: %s; after "
            "PostgreSQL's: %s (PostgreSQL itself accepting connections: "
            "%s)\n",
            pbemd_line, postgres_line, recovery_line);
    free(pbemd_ms);
    free(postgres_ms);
    free(recovery_ms);

    cr_expect_gt(acknowledged, 0);
    cr_expect_eq(a.lost, 0, "%ld acknowledged moves are not in the log",
                 a.lost);
    cr_expect_eq(a.duplicated, 0, "%ld moves are in the log twice",
                 a.duplicated);
    cr_expect_eq(a.misplaced, 0,
                 "%ld moves are in the log at another seq than answered",
                 a.misplaced);
    cr_expect_eq(a.unacknowledged, 0,
                 "%ld moves in the log were never acknowledged",
                 a.unacknowledged);
    /* A lost answer's move was applied: its resending must have been
     * answered from the stored answer (and any kill that cut an answer
     * adds to them). */
    cr_expect_geq(a.replayed, answers_lost,
                  "%ld answers were thrown away, %ld moves answered from the "
                  "store",
                  answers_lost, a.replayed);
    cr_expect_eq(a.bad_chains, 0, "%ld matches do not verify", a.bad_chains);
    cr_expect_eq(errors_up, 0,
                 "%ld requests were answered 500 while "
                 "PostgreSQL was up",
                 errors_up);
    for (int i = 0; i < clients; i++)
        player_free(&players[i]);
    /* After all that, it still shuts down cleanly (and a sanitizer build
     * finds nothing to report). */
    int status = daemon_stop(&pbemd);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "pbemd's exit after SIGTERM: wait status %d; see %s", status,
              pbemd.log);
}
