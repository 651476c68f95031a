/* test_shared.c: budgets that hold across processes (PBEM_RATE_SHARED,
 * store/rate_buckets.h): three pbemd on one database, as behind a proxy
 * that spreads one client's requests over all three, hold the client to
 * the budget configured, not to three times it. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "raw_http.h"

enum { SERVERS = 3 };

static e2e_server servers[SERVERS];
static raw_client *clients[SERVERS];

/* Three pbemd on the test database with budget (the anonymous one) shared
 * or not, believing the address 127.0.0.1 forwards for, as behind a
 * proxy. */
static void start_three(const char *budget, bool shared)
{
    setenv("PBEM_RATE_ANONYMOUS", budget, 1);
    setenv("PBEM_RATE_PLAYER", "3000/60", 1);
    unsetenv("PBEM_RATE_COSTS");
    setenv("PBEM_RATE_SHARED", shared ? "1" : "0", 1);
    setenv("PBEM_TRUSTED_PROXIES", "127.0.0.1", 1);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    for (int i = 0; i < SERVERS; i++) {
        memset(&servers[i], 0, sizeof servers[i]);
        e2e_start(&servers[i]);
        clients[i] = raw_client_new(servers[i].port);
    }
}

static void stop_three(void)
{
    for (int i = 0; i < SERVERS; i++) {
        raw_client_free(clients[i]);
        e2e_stop(&servers[i]);
    }
    curl_global_cleanup();
    unsetenv("PBEM_RATE_SHARED");
    unsetenv("PBEM_TRUSTED_PROXIES");
}

/* How many of tries reads from address, sent to the three in turn, were
 * served before the first 429 (tries when none); *refusal is that 429. */
static int served_before_refusal(const char *address, int tries,
                                 raw_answer *refusal)
{
    for (int i = 0; i < tries; i++) {
        raw_answer a = raw_get(clients[i % SERVERS], "/v1/games", address);
        if (a.status == 429) {
            *refusal = a;
            return i;
        }
        cr_assert_eq(a.status, 200, "request %d: %ld %s", i, a.status, a.body);
    }
    return tries;
}

Test(shared_limits, three_services_hold_a_client_to_one_budget)
{
    start_three("12/60", true);
    raw_answer refusal = {0};
    int served = served_before_refusal("203.0.113.21", 40, &refusal);
    cr_expect_eq(served, 12,
                 "%d reads served from one address spread over three "
                 "pbemd with a budget of 12",
                 served);
    cr_expect_eq(refusal.status, 429);
    /* 12 points a minute: one back every 5 s, less the time the 12 took. */
    int retry = atoi(refusal.retry_after);
    cr_expect(retry >= 1 && retry <= 5, "Retry-After: %s", refusal.retry_after);
    cr_expect_str_eq(refusal.policy, "\"anonymous\";q=12;w=60");
    cr_expect_not_null(strstr(refusal.body, "rate_limited"), "%s",
                       refusal.body);
    /* Every process refuses it now, the ones that served it least too. */
    for (int i = 0; i < SERVERS; i++)
        cr_expect_eq(raw_get(clients[i], "/v1/games", "203.0.113.21").status,
                     429, "pbemd %d", i);
    /* Another address has a budget of its own. */
    cr_expect_eq(raw_get(clients[1], "/v1/games", "203.0.113.22").status, 200);
    stop_three();
}

Test(shared_limits, each_answer_says_what_is_left_of_the_shared_budget)
{
    start_three("10/60", true);
    for (int i = 1; i <= 6; i++) {
        raw_answer a =
            raw_get(clients[i % SERVERS], "/v1/games", "203.0.113.31");
        cr_assert_eq(a.status, 200);
        char expected[64];
        snprintf(expected, sizeof expected, "\"anonymous\";r=%d;", 10 - i);
        cr_expect_eq(strncmp(a.ratelimit, expected, strlen(expected)), 0,
                     "after %d reads over three pbemd: %s", i, a.ratelimit);
    }
    stop_three();
}

/* Without PBEM_RATE_SHARED each process counts alone: the same client
 * gets three budgets (what deploy/cluster.md warns of). */
Test(shared_limits, unshared_budgets_are_per_process)
{
    start_three("12/60", false);
    raw_answer refusal = {0};
    int served = served_before_refusal("203.0.113.41", 40, &refusal);
    cr_expect_eq(served, 36, "%d reads served", served);
    stop_three();
}

/* Runs sql on the database of DATABASE_URL (this test's own). */
static void psql(const char *sql)
{
    char command[512];
    snprintf(command, sizeof command, "psql -X -q \"$DATABASE_URL\" -c \"%s\"",
             sql);
    cr_assert_eq(system(command), 0, "%s", command);
}

/* A shared budget that cannot be reached (here: its statement fails)
 * must not turn into 429s or 500s: each process counts alone until it
 * can be reached again, and then the shared bucket decides once more. */
Test(shared_limits, without_the_shared_buckets_each_process_counts_alone)
{
    char name[96];
    e2e_private_database(name, sizeof name);
    start_three("6/60", true);
    psql("ALTER FUNCTION rate_bucket_take RENAME TO rate_bucket_take_away");
    raw_answer refusal = {0};
    int served = served_before_refusal("203.0.113.51", 40, &refusal);
    cr_expect_eq(served, 18, "%d reads served by three counting alone", served);
    /* 6 points a minute: one back every 10 s. */
    int retry = atoi(refusal.retry_after);
    cr_expect(retry >= 1 && retry <= 10, "Retry-After: %s",
              refusal.retry_after);
    psql("ALTER FUNCTION rate_bucket_take_away RENAME TO rate_bucket_take");
    served = served_before_refusal("203.0.113.52", 40, &refusal);
    cr_expect_eq(served, 6, "%d reads served once the shared bucket is back",
                 served);
    stop_three();
}
