/* test_rate_limit.c: the token buckets of http/rate_limit.h on a clock the
 * tests move: a budget spent and refilled, clients kept apart, a table
 * that stays its size however many clients come, and one bucket shared by
 * threads. Pure: no server, no database. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>

#include "http/rate_limit.h"

#define T0 1000000 /* ms: any start will do */

static rate_limit *table(size_t slots, long long quota, long long window)
{
    cr_assert_geq(sodium_init(), 0);
    return rate_limit_new(slots, (rate_budget){quota, window});
}

Test(rate_limit, a_client_spends_its_quota_then_waits_for_one_point)
{
    rate_limit *rl = table(64, 10, 60);
    rate_verdict v;
    for (int i = 1; i <= 10; i++) {
        cr_assert(rate_limit_take(rl, "192.0.2.1", 1, T0, &v), "request %d", i);
        cr_expect_eq(v.remaining, 10 - i);
    }
    cr_expect_eq(v.reset, 60, "an empty bucket is full again in a window");
    cr_expect_not(rate_limit_take(rl, "192.0.2.1", 1, T0, &v));
    cr_expect_not(v.allowed);
    cr_expect_eq(v.remaining, 0);
    /* 10 points a minute: one every 6 s. */
    cr_expect_eq(v.retry_after, 6);
    rate_limit_free(rl);
}

Test(rate_limit, the_bucket_refills_at_quota_per_window)
{
    rate_limit *rl = table(64, 10, 60);
    rate_verdict v;
    for (int i = 0; i < 10; i++)
        rate_limit_take(rl, "k1", 1, T0, &v);
    cr_expect_not(rate_limit_take(rl, "k1", 1, T0 + 5999, &v),
                  "a point comes back after 6 s, not before");
    cr_expect_eq(v.retry_after, 1);
    cr_expect(rate_limit_take(rl, "k1", 1, T0 + 6000, &v));
    cr_expect_not(rate_limit_take(rl, "k1", 1, T0 + 6000, &v));
    /* A whole window later the bucket is full again, and no fuller. */
    cr_expect(rate_limit_take(rl, "k1", 1, T0 + 6000 + 600000, &v));
    cr_expect_eq(v.remaining, 9);
    rate_limit_free(rl);
}

Test(rate_limit, a_costly_request_takes_several_points)
{
    rate_limit *rl = table(64, 100, 60);
    rate_verdict v;
    cr_expect(rate_limit_take(rl, "a", 30, T0, &v));
    cr_expect_eq(v.remaining, 70);
    cr_expect(rate_limit_take(rl, "a", 30, T0, &v));
    cr_expect(rate_limit_take(rl, "a", 30, T0, &v));
    cr_expect_eq(v.remaining, 10);
    cr_expect_not(rate_limit_take(rl, "a", 30, T0, &v),
                  "10 points left do not pay for 30");
    /* 20 more points at 100 a minute: 12 s. */
    cr_expect_eq(v.retry_after, 12);
    cr_expect(rate_limit_take(rl, "a", 1, T0, &v),
              "a refused request took nothing: a cheap one still passes");
    rate_limit_free(rl);
}

Test(rate_limit, a_cost_above_the_quota_waits_for_a_full_bucket)
{
    rate_limit *rl = table(64, 5, 10);
    rate_verdict v;
    cr_expect(rate_limit_take(rl, "a", 50, T0, &v));
    cr_expect_eq(v.remaining, 0);
    cr_expect_not(rate_limit_take(rl, "a", 50, T0 + 9000, &v));
    cr_expect(rate_limit_take(rl, "a", 50, T0 + 10000, &v));
    rate_limit_free(rl);
}

Test(rate_limit, clients_have_buckets_of_their_own)
{
    rate_limit *rl = table(64, 3, 60);
    rate_verdict v;
    for (int i = 0; i < 3; i++)
        cr_assert(rate_limit_take(rl, "198.51.100.1", 1, T0, &v));
    cr_expect_not(rate_limit_take(rl, "198.51.100.1", 1, T0, &v));
    cr_expect(rate_limit_take(rl, "198.51.100.2", 1, T0, &v));
    cr_expect_eq(v.remaining, 2);
    rate_limit_free(rl);
}

Test(rate_limit, a_flood_of_new_clients_keeps_the_table_its_size)
{
    rate_limit *rl = table(64, 10, 60);
    rate_verdict v;
    for (int i = 0; i < 100000; i++) {
        char client[32];
        snprintf(client, sizeof client, "10.%d.%d.%d", i >> 16, (i >> 8) & 255,
                 i & 255);
        cr_assert(rate_limit_take(rl, client, 1, T0 + i / 100, &v),
                  "a new client starts with a full bucket");
    }
    cr_expect_eq(rate_limit_slots(rl), 64);
    cr_expect_eq(rate_limit_count(rl), 64);
    rate_limit_free(rl);
}

Test(rate_limit, a_flood_of_new_names_does_not_free_a_client_held_back)
{
    rate_limit *rl = table(64, 10, 60);
    rate_verdict v;
    for (int i = 0; i < 10; i++)
        rate_limit_take(rl, "203.0.113.66", 1, T0, &v);
    cr_assert_not(rate_limit_take(rl, "203.0.113.66", 1, T0, &v));
    /* Each newcomer spends one point: their buckets are nearer full than
     * the held-back one, so they are the ones forgotten. */
    for (int i = 0; i < 10000; i++) {
        char client[32];
        snprintf(client, sizeof client, "forged-%d", i);
        rate_limit_take(rl, client, 1, T0 + 1000, &v);
    }
    cr_expect_not(rate_limit_take(rl, "203.0.113.66", 1, T0 + 2000, &v),
                  "the client held back was forgotten by the flood");
    cr_expect_leq(rate_limit_count(rl), 64);
    rate_limit_free(rl);
}

typedef struct hammer {
    rate_limit *rl;
    int allowed;
} hammer;

static void *take_many(void *arg)
{
    hammer *h = arg;
    rate_verdict v;
    for (int i = 0; i < 5000; i++)
        h->allowed += rate_limit_take(h->rl, "shared", 1, T0, &v);
    return NULL;
}

Test(rate_limit, threads_sharing_a_bucket_spend_exactly_its_quota)
{
    rate_limit *rl = table(64, 1000, 60);
    hammer h[4] = {{rl, 0}, {rl, 0}, {rl, 0}, {rl, 0}};
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, take_many, &h[i]);
    int allowed = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        allowed += h[i].allowed;
    }
    cr_expect_eq(allowed, 1000);
    rate_limit_free(rl);
}

Test(rate_limit, a_peek_says_what_a_take_would_and_takes_nothing)
{
    rate_limit *rl = table(64, 10, 60);
    rate_verdict v;
    for (int i = 0; i < 3; i++) {
        cr_assert(rate_limit_peek(rl, "p", 4, T0, &v));
        cr_expect_eq(v.remaining, 6, "what would be left after it");
    }
    cr_expect(rate_limit_take(rl, "p", 4, T0, &v));
    cr_expect(rate_limit_take(rl, "p", 4, T0, &v));
    cr_expect_not(rate_limit_peek(rl, "p", 4, T0, &v));
    /* 2 more points at 10 a minute: 12 s. */
    cr_expect_eq(v.retry_after, 12);
    cr_expect(rate_limit_take(rl, "p", 2, T0, &v), "the peek took nothing");
    rate_limit_free(rl);
}

Test(rate_limit, a_bucket_kept_elsewhere_is_mirrored_here)
{
    rate_limit *rl = table(64, 12, 60);
    cr_expect_eq(rate_limit_cost_us(rl, 1), 5000000, "one point is 5 s");
    cr_expect_eq(rate_limit_cost_us(rl, 99), 60000000, "at most the quota");
    rate_verdict v;
    /* Other processes spent 11 points: the shared bucket owes 55 s. */
    rate_limit_mirror(rl, "m", true, 55000000, 1, T0, &v);
    cr_expect(v.allowed);
    cr_expect_eq(v.remaining, 1);
    cr_expect_eq(v.reset, 55);
    /* The shared bucket refused: its debt stands, and so does this one's. */
    rate_limit_mirror(rl, "m", false, 60000000, 1, T0, &v);
    cr_expect_not(v.allowed);
    cr_expect_eq(v.retry_after, 5);
    cr_expect_not(rate_limit_peek(rl, "m", 1, T0 + 4000, &v),
                  "refused here without asking again");
    cr_expect(rate_limit_peek(rl, "m", 1, T0 + 5000, &v));
    rate_limit_free(rl);
}
