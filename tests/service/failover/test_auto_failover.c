/* Automatic failover: pg_auto_failover's monitor and two data nodes with
 * synchronous replication (tests/support/autofailover.h), pbemd on the
 * multi-host URL, players playing. The primary meets a fault and nobody
 * promotes anything: the monitor does, pbemd finds the new primary by
 * itself, and the old primary rejoins as a secondary by itself, so the
 * next fault hits the other node. The faults, in turn: SIGKILL of the
 * primary's postmaster, its keeper stopped, the whole node frozen
 * (SIGSTOP), the node cut off the network (each data node then in a
 * network namespace of its own, its cable to the bridge set down).
 * PBEM_AUTOFAILOVER_CYCLES rounds (1 in make test, 10 in make soak);
 * make test runs the first three faults, make soak all four
 * (PBEM_AUTOFAILOVER_FAULTS). At the end every acknowledged move is in
 * its match's log exactly once, where its answer said, every chain
 * verifies, and no request was answered 500 while a primary served. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <poll.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../support/autofailover.h"
#include "../../support/daemon.h"
#include "../../support/disruption.h"
#include "../../support/players.h"
#include "client.h"

#define MAX_PLAYERS 16
#define MAX_ROUNDS 20
#define FAULTS 4
/* How long a failover and a rejoin may take. */
#define RECOVERY_LIMIT_MS 120000
#define DATABASE "pbem_auto"
/* The faults make test runs (PBEM_AUTOFAILOVER_FAULTS overrides): the
 * cut, which needs root and ip(8) for its networks, runs in make soak. */
#define DEFAULT_FAULTS "012"

static autofailover pg;
static daemon_proc pbemd;

static void clean_up(void)
{
    daemon_kill(&pbemd);
    if (pbemd.key_file[0] != '\0')
        unlink(pbemd.key_file);
    autofailover_remove(&pg);
}

/* Waits until more than before moves are acknowledged; the milliseconds
 * since since_ms, or -1 after RECOVERY_LIMIT_MS. */
static long first_move_after(board *b, long before, long since_ms)
{
    pthread_mutex_lock(&b->lock);
    while (b->acknowledged <= before &&
           disruption_now_ms() - since_ms < RECOVERY_LIMIT_MS) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 5 * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&b->moved, &b->lock, &until);
    }
    bool moved = b->acknowledged > before;
    pthread_mutex_unlock(&b->lock);
    return moved ? disruption_now_ms() - since_ms : -1;
}

Test(failover, the_monitor_fails_over_by_itself_and_nothing_is_lost,
     .fini = clean_up, .timeout = 3600)
{
    cr_assert(sodium_init() >= 0);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int rounds = (int)disruption_env_long("PBEM_AUTOFAILOVER_CYCLES", 1);
    int clients = (int)disruption_env_long("PBEM_FAILOVER_CLIENTS", 4);
    cr_assert(rounds >= 1 && rounds <= MAX_ROUNDS && clients >= 1 &&
              clients <= MAX_PLAYERS);
    /* PBEM_AUTOFAILOVER_FAULTS: which faults, by number (0 kill -9 of the
     * postmaster, 1 keeper stopped, 2 frozen, 3 cut off the network). */
    const char *only = getenv("PBEM_AUTOFAILOVER_FAULTS");
    if (only == NULL || *only == '\0')
        only = DEFAULT_FAULTS;
    /* A cut needs the nodes on networks of their own. */
    autofailover_create(&pg, DATABASE, strchr(only, '3') != NULL);
    char url[300];
    autofailover_url(&pg, DATABASE, url, sizeof url);
    setenv("DATABASE_URL", url, 1);
    /* A frozen primary holds a connection's wait: pbemd gives up on it
     * after this long and tries the other host. */
    setenv("PBEM_DB_TIMEOUT_MS", "3000", 1);
    daemon_prepare(&pbemd);
    daemon_start(&pbemd);
    cr_assert_geq(daemon_wait_serving(&pbemd, RECOVERY_LIMIT_MS), 0,
                  "pbemd did not serve; see %s", pbemd.log);
    char base_url[64];
    snprintf(base_url, sizeof base_url, "http://127.0.0.1:%d", pbemd.port);
    board b;
    static player players[MAX_PLAYERS];
    disruption_start_players(&b, base_url, NULL, players, clients);

    static long serving_ms[FAULTS][MAX_ROUNDS], promoted_ms[FAULTS][MAX_ROUNDS],
        rejoined_ms[FAULTS][MAX_ROUNDS];
    int promotions[FAULTS] = {0};
    int leader = 0; /* autofailover_create makes node 1 primary */
    for (int round = 0; round < rounds; round++) {
        for (int f = 0; f < FAULTS; f++) {
            if (strchr(only, '0' + f) == NULL)
                continue;
            autofailover_fault fault = (autofailover_fault)f;
            cr_assert_gt(disruption_let_play(&b, 500, RECOVERY_LIMIT_MS), 0,
                         "no move was acknowledged before the fault");
            /* Normally at once; after a failover the monitor made by
             * itself (a busy machine can miss its health checks), when
             * the old primary has rejoined. */
            char states[200];
            int primary = autofailover_wait_leader(&pg, RECOVERY_LIMIT_MS,
                                                   states, sizeof states);
            cr_assert_geq(primary, 0,
                          "no node led with the other its secondary before "
                          "the fault, within %d s: %s; see %s",
                          RECOVERY_LIMIT_MS / 1000, states, pg.dir);
            if (primary != leader)
                fprintf(stderr,
                        "autofailover: the monitor failed over by itself "
                        "before the fault (node %d led, now node %d)\n",
                        leader + 1, primary + 1);
            pthread_mutex_lock(&b.lock);
            long before = b.acknowledged;
            pthread_mutex_unlock(&b.lock);
            atomic_fetch_add(&b.outage, 1);
            long at = disruption_now_ms();
            autofailover_inflict(&pg, primary, fault);
            /* The killed postmaster's keeper may start it again before
             * the monitor gives up on it: either way the service must
             * serve again. The others need the standby promoted. */
            if (fault != AUTOFAILOVER_KILL_POSTGRES) {
                promoted_ms[f][round] = autofailover_wait_primary(
                    &pg, 1 - primary, RECOVERY_LIMIT_MS);
                cr_assert_geq(promoted_ms[f][round], 0,
                              "%s: the monitor did not promote the standby "
                              "within %d s; see %s",
                              autofailover_fault_name(fault),
                              RECOVERY_LIMIT_MS / 1000, pg.dir);
            }
            /* Each player has at most one move in flight: past that many,
             * a move sent after the fault was acknowledged. */
            serving_ms[f][round] = first_move_after(&b, before + clients, at);
            atomic_fetch_add(&b.outage, 1);
            daemon_expect_running(&pbemd);
            cr_assert_geq(
                serving_ms[f][round], 0, "%s: no move acknowledged within %d s",
                autofailover_fault_name(fault), RECOVERY_LIMIT_MS / 1000);
            autofailover_recover(&pg, primary, fault);
            long began = disruption_now_ms();
            long waited = autofailover_wait_settled(&pg, RECOVERY_LIMIT_MS);
            cr_assert_geq(waited, 0,
                          "%s: the nodes did not settle as primary and "
                          "secondary again within %d s; see %s",
                          autofailover_fault_name(fault),
                          RECOVERY_LIMIT_MS / 1000, pg.dir);
            leader = autofailover_wait_leader(&pg, RECOVERY_LIMIT_MS, states,
                                              sizeof states);
            cr_assert_geq(leader, 0, "%s: settled, then no node led: %s",
                          autofailover_fault_name(fault), states);
            if (leader != primary)
                promotions[f]++;
            rejoined_ms[f][round] = disruption_now_ms() - began;
            fprintf(stderr,
                    "autofailover: round %d: %s: fault->serving %.3f s, "
                    "fault->promoted %s, primary and secondary "
                    "again %.3f s after the recovery\n",
                    round + 1, autofailover_fault_name(fault),
                    serving_ms[f][round] / 1000.0,
                    fault == AUTOFAILOVER_KILL_POSTGRES
                        ? (leader == primary ? "no promotion (its keeper "
                                               "restarted it)"
                                             : "promoted")
                        : "see below",
                    rejoined_ms[f][round] / 1000.0);
            if (fault != AUTOFAILOVER_KILL_POSTGRES)
                fprintf(stderr, "autofailover: round %d: %s: promoted %.3f s\n",
                        round + 1, autofailover_fault_name(fault),
                        promoted_ms[f][round] / 1000.0);
        }
    }
    disruption_let_play(&b, 500, RECOVERY_LIMIT_MS);
    atomic_store(&b.stop, true);
    for (int i = 0; i < clients; i++)
        player_join(&players[i]);

    audit a = {0};
    long acknowledged = 0, errors_up = 0, resent = 0;
    client *reader = client_new(base_url);
    for (int i = 0; i < clients; i++) {
        player *p = &players[i];
        player_audit(p, reader, &a);
        cr_expect_str_empty(p->failure, "player %d: %s", i, p->failure);
        acknowledged += p->move_count;
        errors_up += p->server_errors_up;
        resent += p->resent;
    }
    client_free(reader);
    for (int f = 0; f < FAULTS; f++) {
        if (strchr(only, '0' + f) == NULL)
            continue;
        char serving[128], promoted[128] = "not waited for", rejoined[128];
        disruption_summarise(serving_ms[f], rounds, serving, sizeof serving);
        if (f != AUTOFAILOVER_KILL_POSTGRES)
            disruption_summarise(promoted_ms[f], rounds, promoted,
                                 sizeof promoted);
        disruption_summarise(rejoined_ms[f], rounds, rejoined, sizeof rejoined);
        fprintf(stderr,
                "autofailover: %s, %d round(s): fault->serving %s; "
                "fault->promoted %s; recovery->primary and secondary again "
                "%s; promotions %d\n",
                autofailover_fault_name((autofailover_fault)f), rounds, serving,
                promoted, rejoined, promotions[f]);
    }
    fprintf(stderr,
            "autofailover: clients=%d acknowledged=%ld lost=%ld "
            "duplicated=%ld misplaced=%ld unacknowledged=%ld bad_chains=%ld "
            "resent=%ld answered_from_store=%ld 500_while_up=%ld\n",
            clients, acknowledged, a.lost, a.duplicated, a.misplaced,
            a.unacknowledged, a.bad_chains, resent, a.replayed, errors_up);
    cr_expect_gt(acknowledged, 0);
    cr_expect_eq(a.lost, 0, "%ld acknowledged moves are not in the log",
                 a.lost);
    cr_expect_eq(a.duplicated, 0, "%ld moves are in the log twice",
                 a.duplicated);
    cr_expect_eq(a.misplaced, 0, "%ld moves are not where answered",
                 a.misplaced);
    cr_expect_eq(a.unacknowledged, 0, "%ld moves were never acknowledged",
                 a.unacknowledged);
    cr_expect_eq(a.bad_chains, 0, "%ld matches do not verify", a.bad_chains);
    cr_expect_eq(errors_up, 0, "%ld answers 500 with a primary serving",
                 errors_up);
    for (int i = 0; i < clients; i++)
        player_free(&players[i]);
}
