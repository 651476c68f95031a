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
#include "../../support/disruption.h"
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

/* Lets the players play for ms milliseconds and at least one more
 * acknowledged move; fails the test when none comes for
 * RECOVERY_LIMIT_MS or pbemd is gone. */
static void let_them_play(board *b, long ms)
{
    long moved = disruption_let_play(b, ms, RECOVERY_LIMIT_MS);
    daemon_expect_running(&pbemd);
    cr_assert_gt(moved, 0, "no move was acknowledged for %d s",
                 RECOVERY_LIMIT_MS / 1000);
}

Test(crash, every_acknowledged_move_survives_kills_of_pbemd_and_postgresql,
     .fini = clean_up, .timeout = 7200)
{
    cr_assert(sodium_init() >= 0);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int cycles = (int)disruption_env_long("PBEM_CRASH_CYCLES", 3);
    int clients = (int)disruption_env_long("PBEM_CRASH_CLIENTS", 4);
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
        let_them_play(&b, PLAY_MIN_MS + (long)(disruption_random(&random) %
                                               (PLAY_MAX_MS - PLAY_MIN_MS)));
        daemon_kill(&pbemd);
        long began = disruption_now_ms();
        daemon_start(&pbemd);
        long served = daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS);
        cr_assert_geq(served, 0,
                      "cycle %d: pbemd did not serve within %d s of its "
                      "restart; see %s",
                      cycle + 1, RECOVERY_LIMIT_MS / 1000, pbemd.log);
        pbemd_ms[cycle] = disruption_now_ms() - began;

        let_them_play(&b, PLAY_MIN_MS + (long)(disruption_random(&random) %
                                               (PLAY_MAX_MS - PLAY_MIN_MS)));
        atomic_fetch_add(&b.outage, 1);
        pgcluster_stop(&cluster, "immediate");
        began = disruption_now_ms();
        pgcluster_start(&cluster);
        recovery_ms[cycle] = disruption_now_ms() - began;
        served = daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS);
        cr_assert_geq(served, 0,
                      "cycle %d: pbemd did not serve within %d s of "
                      "PostgreSQL's restart; see %s",
                      cycle + 1, RECOVERY_LIMIT_MS / 1000, pbemd.log);
        postgres_ms[cycle] = disruption_now_ms() - began;
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
    long began = disruption_now_ms();
    while (!disruption_everyone_moved_since(players, clients, since) &&
           disruption_now_ms() - began < RECOVERY_LIMIT_MS)
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
    disruption_summarise(pbemd_ms, cycles, pbemd_line, sizeof pbemd_line);
    disruption_summarise(postgres_ms, cycles, postgres_line, sizeof postgres_line);
    disruption_summarise(recovery_ms, cycles, recovery_line, sizeof recovery_line);
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
