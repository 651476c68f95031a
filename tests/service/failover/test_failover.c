/* Failover: players keep playing on pbemd whose DATABASE_URL names two
 * PostgreSQL clusters, a primary and its synchronous streaming standby,
 * with target_session_attrs=read-write. The primary is stopped with
 * -m immediate under load (a crash: what it did not send is lost with it)
 * and the standby promoted with pg_ctl promote; pbemd, never restarted,
 * must find the new primary by itself. At the end every acknowledged move
 * is in its match's log exactly once, at the seq its answer gave; every
 * chain verifies; and no request was answered 500 outside the gap between
 * the kill and the first answer of the new primary.
 *
 * Between cycles the failed primary's folder is made again as a standby of
 * the new one (it never comes back as it was: see deploy/README.md,
 * "Failover"), so PBEM_FAILOVER_CYCLES cycles (1 by default, `make soak`
 * runs 5) go back and forth between the two folders under the same
 * players. PBEM_FAILOVER_CLIENTS players (4); the kill points come from
 * PBEM_FAILOVER_SEED (printed; random when unset).
 *
 * A second test freezes the primary instead of killing it (a hung
 * machine): pbemd must pass it over for the promoted standby on its own,
 * within its PBEM_DB_TIMEOUT_MS. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <signal.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/daemon.h"
#include "../../support/pgcluster.h"
#include "../../support/disruption.h"
#include "../../support/players.h"
#include "client.h"

#define MAX_PLAYERS 32
#define MAX_CYCLES 100
/* Play before a kill: long enough that requests are in flight at the
 * kill, short enough for make test. */
#define PLAY_MIN_MS 300
#define PLAY_MAX_MS 1500
/* How long anything may take to recover (promotion, serving again). */
#define RECOVERY_LIMIT_MS 60000
/* The standby's name, in synchronous_standby_names. */
#define STANDBY "standby1"

static pgcluster clusters[2];
static daemon_proc pbemd;

static void clean_up(void)
{
    /* A frozen cluster (SIGSTOP) must be able to act on its stop. */
    pgcluster_signal(&clusters[0], SIGCONT);
    pgcluster_signal(&clusters[1], SIGCONT);
    daemon_kill(&pbemd);
    if (pbemd.key_file[0] != '\0')
        unlink(pbemd.key_file);
    pgcluster_remove(&clusters[0]);
    pgcluster_remove(&clusters[1]);
}

/* Lets the players play for ms milliseconds and at least one more
 * acknowledged move; fails the test when none comes for
 * RECOVERY_LIMIT_MS or pbemd is gone. The moves acknowledged meanwhile. */
static long let_them_play(board *b, long ms)
{
    long moved = disruption_let_play(b, ms, RECOVERY_LIMIT_MS);
    daemon_expect_running(&pbemd);
    cr_assert_gt(moved, 0, "no move was acknowledged for %d s",
                 RECOVERY_LIMIT_MS / 1000);
    return moved;
}

/* GET /healthz's status, or 0 without an answer. */
static long health(const char *base_url)
{
    client *c = client_new(base_url);
    client_response r = {0};
    char error[256];
    long status = 0;
    if (client_send(c, "GET", "/healthz", NULL, NULL, NULL, &r, error))
        status = r.status;
    client_response_free(&r);
    client_free(c);
    return status;
}

/* The two clusters (clusters[0] the primary, its migrations applied by
 * pbemd and reaching the standby as any other commit does), pbemd on
 * both, and the players playing. */
static void start_service(board *b, player *players, int clients,
                          char base_url[64])
{
    pgcluster_create(&clusters[0], "pbem_failover");
    pgcluster_create_standby(&clusters[1], &clusters[0], STANDBY);
    pgcluster_make_synchronous(&clusters[0], STANDBY);
    const pgcluster *hosts[] = {&clusters[0], &clusters[1]};
    char url[512];
    pgcluster_multi_url(hosts, 2, "pbem_failover", url, sizeof url);
    setenv("DATABASE_URL", url, 1);
    daemon_prepare(&pbemd);
    daemon_start(&pbemd);
    cr_assert_geq(daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS), 0,
                  "pbemd did not serve within %d s; see %s",
                  RECOVERY_LIMIT_MS / 1000, pbemd.log);
    snprintf(base_url, 64, "http://127.0.0.1:%d", pbemd.port);
    disruption_start_players(b, base_url, NULL, players, clients);
}

/* Every player plays on after the last failover (every worker of pbemd
 * meets the new primary), then stops; every acknowledged move is looked
 * for in the logs of the new primary. label heads the printed figures. */
static void finish(board *b, player *players, int clients, const char *base_url,
                   const char *label)
{
    long since[MAX_PLAYERS];
    for (int i = 0; i < clients; i++)
        since[i] = player_acknowledged(&players[i]);
    long began = disruption_now_ms();
    while (!disruption_everyone_moved_since(players, clients, since) &&
           disruption_now_ms() - began < RECOVERY_LIMIT_MS)
        let_them_play(b, 0);
    atomic_store(&b->stop, true);
    for (int i = 0; i < clients; i++)
        player_join(&players[i]);

    audit a = {0};
    long acknowledged = 0, resent = 0, on_resend = 0, errors_gap = 0,
         errors_up = 0;
    int matches = 0;
    client *reader = client_new(base_url);
    for (int i = 0; i < clients; i++) {
        player *p = &players[i];
        player_audit(p, reader, &a);
        cr_expect_str_empty(p->failure, "player %d: %s", i, p->failure);
        acknowledged += p->move_count;
        resent += p->resent;
        on_resend += p->acknowledged_on_resend;
        errors_gap += p->server_errors_outage;
        errors_up += p->server_errors_up;
        matches += p->match_count;
    }
    client_free(reader);
    fprintf(stderr,
            "failover: %s: clients=%d matches=%d acknowledged=%ld "
            "lost=%ld duplicated=%ld misplaced=%ld unacknowledged=%ld "
            "bad_chains=%ld resent=%ld acknowledged_on_resend=%ld "
            "answered_from_store=%ld 500_in_gap=%ld 500_while_up=%ld\n",
            label, clients, matches, acknowledged, a.lost, a.duplicated,
            a.misplaced, a.unacknowledged, a.bad_chains, resent, on_resend,
            a.replayed, errors_gap, errors_up);

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
    cr_expect_eq(a.bad_chains, 0, "%ld matches do not verify", a.bad_chains);
    cr_expect_eq(errors_up, 0,
                 "%ld requests were answered 500 with a primary serving",
                 errors_up);
    for (int i = 0; i < clients; i++)
        player_free(&players[i]);
}

Test(failover, no_acknowledged_move_is_lost_when_the_primary_dies,
     .fini = clean_up, .timeout = 3600)
{
    cr_assert(sodium_init() >= 0);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int cycles = (int)disruption_env_long("PBEM_FAILOVER_CYCLES", 1);
    int clients = (int)disruption_env_long("PBEM_FAILOVER_CLIENTS", 4);
    cr_assert(cycles >= 1 && cycles <= MAX_CYCLES && clients >= 1 &&
                  clients <= MAX_PLAYERS,
              "1 <= PBEM_FAILOVER_CYCLES <= %d, 1 <= PBEM_FAILOVER_CLIENTS "
              "<= %d",
              MAX_CYCLES, MAX_PLAYERS);
    uint64_t seed;
    const char *seed_text = getenv("PBEM_FAILOVER_SEED");
    if (seed_text && *seed_text)
        seed = strtoull(seed_text, NULL, 10);
    else
        randombytes_buf(&seed, sizeof seed);
    uint64_t random = seed;
    fprintf(stderr, "failover: PBEM_FAILOVER_SEED=%llu cycles=%d clients=%d\n",
            (unsigned long long)seed, cycles, clients);

    char base_url[64];
    board b;
    static player players[MAX_PLAYERS];
    start_service(&b, players, clients, base_url);

    long promote_ms[MAX_CYCLES], serve_ms[MAX_CYCLES], move_ms[MAX_CYCLES];
    int primary = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
        pgcluster *old = &clusters[primary], *next = &clusters[1 - primary];
        let_them_play(&b, PLAY_MIN_MS + (long)(disruption_random(&random) %
                                               (PLAY_MAX_MS - PLAY_MIN_MS)));
        pthread_mutex_lock(&b.lock);
        long before_kill = b.acknowledged;
        pthread_mutex_unlock(&b.lock);
        atomic_fetch_add(&b.outage, 1);
        long killed = disruption_now_ms();
        pgcluster_stop(old, "immediate");
        /* With no primary, the standby refuses writes and pbemd has
         * nowhere to write: it says so, and does not write to the
         * standby. */
        long gap_status = health(base_url);
        cr_expect_eq(gap_status, 503,
                     "cycle %d: /healthz answered %ld with no primary",
                     cycle + 1, gap_status);
        pgcluster_promote(next);
        promote_ms[cycle] = disruption_now_ms() - killed;
        long served = daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS);
        cr_assert_geq(served, 0,
                      "cycle %d: pbemd did not serve within %d s of the "
                      "promotion; see %s",
                      cycle + 1, RECOVERY_LIMIT_MS / 1000, pbemd.log);
        serve_ms[cycle] = disruption_now_ms() - killed;
        atomic_fetch_add(&b.outage, 1);
        /* The first move acknowledged after the kill. */
        pthread_mutex_lock(&b.lock);
        while (b.acknowledged == before_kill &&
               disruption_now_ms() - killed < RECOVERY_LIMIT_MS) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 5 * 1000000L;
            until.tv_sec += until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
            pthread_cond_timedwait(&b.moved, &b.lock, &until);
        }
        bool moved = b.acknowledged > before_kill;
        pthread_mutex_unlock(&b.lock);
        move_ms[cycle] = disruption_now_ms() - killed;
        cr_assert(moved,
                  "cycle %d: no move acknowledged within %d s of the "
                  "kill",
                  cycle + 1, RECOVERY_LIMIT_MS / 1000);
        fprintf(stderr,
                "failover: cycle %d: kill->promoted %.3f s, kill->serving "
                "(first /healthz 200) %.3f s, kill->first acknowledged move "
                "%.3f s\n",
                cycle + 1, promote_ms[cycle] / 1000.0, serve_ms[cycle] / 1000.0,
                move_ms[cycle] / 1000.0);
        /* The failed primary comes back only as a standby of the new one,
         * for the next cycle. */
        if (cycle + 1 < cycles) {
            let_them_play(&b, 0);
            pgcluster_rebuild_as_standby(old, next, STANDBY);
            pgcluster_make_synchronous(next, STANDBY);
        }
        primary = 1 - primary;
    }

    char label[32];
    snprintf(label, sizeof label, "cycles=%d", cycles);
    finish(&b, players, clients, base_url, label);

    char promote_line[64], serve_line[64], move_line[64];
    disruption_summarise(promote_ms, cycles, promote_line, sizeof promote_line);
    disruption_summarise(serve_ms, cycles, serve_line, sizeof serve_line);
    disruption_summarise(move_ms, cycles, move_line, sizeof move_line);
    fprintf(stderr,
            "failover: kill->promoted: %s; kill->serving: %s; "
            "kill->first acknowledged move: %s\n",
            promote_line, serve_line, move_line);

    int status = daemon_stop(&pbemd);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "pbemd's exit after SIGTERM: wait status %d; see %s", status,
              pbemd.log);
}

/* A primary that hangs instead of dying (a frozen machine, a network that
 * drops everything) accepts connections and never answers on them. pbemd,
 * whose every wait on PostgreSQL is bounded by PBEM_DB_TIMEOUT_MS, must
 * give up on it and reach the promoted standby, the next host of its
 * DATABASE_URL, on its own. */
#define FROZEN_TIMEOUT_MS 2000

Test(failover, a_frozen_primary_is_passed_over_for_the_promoted_standby,
     .fini = clean_up, .timeout = 600)
{
    cr_assert(sodium_init() >= 0);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    char timeout[16];
    snprintf(timeout, sizeof timeout, "%d", FROZEN_TIMEOUT_MS);
    setenv("PBEM_DB_TIMEOUT_MS", timeout, 1);
    int clients = (int)disruption_env_long("PBEM_FAILOVER_CLIENTS", 4);
    cr_assert(clients >= 1 && clients <= MAX_PLAYERS,
              "1 <= PBEM_FAILOVER_CLIENTS <= %d", MAX_PLAYERS);
    char base_url[64];
    board b;
    static player players[MAX_PLAYERS];
    start_service(&b, players, clients, base_url);

    let_them_play(&b, PLAY_MIN_MS);
    atomic_fetch_add(&b.outage, 1);
    long frozen = disruption_now_ms();
    pgcluster_signal(&clusters[0], SIGSTOP);
    pgcluster_promote(&clusters[1]);
    long promoted = disruption_now_ms() - frozen;
    long served = daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS);
    cr_assert_geq(served, 0,
                  "pbemd did not serve within %d s of the standby's "
                  "promotion while the old primary hangs; see %s",
                  RECOVERY_LIMIT_MS / 1000, pbemd.log);
    long serving = disruption_now_ms() - frozen;
    atomic_fetch_add(&b.outage, 1);
    fprintf(stderr,
            "failover: frozen primary (PBEM_DB_TIMEOUT_MS=%d): "
            "freeze->promoted %.3f s, freeze->serving (first /healthz 200) "
            "%.3f s\n",
            FROZEN_TIMEOUT_MS, promoted / 1000.0, serving / 1000.0);
    /* Fenced off for good before anyone could thaw it. */
    pgcluster_signal(&clusters[0], SIGKILL);

    finish(&b, players, clients, base_url, "frozen primary");
    int status = daemon_stop(&pbemd);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "pbemd's exit after SIGTERM: wait status %d; see %s", status,
              pbemd.log);
}
