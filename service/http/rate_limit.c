/* rate_limit.c: each bucket is kept as the one instant it will be full
 * again (the "theoretical arrival time" of the generic cell rate
 * algorithm): a request moves that instant later by its cost, and is
 * refused when that would put it more than a window ahead of now. One
 * number per client, no refill arithmetic that could drift. */
#include "http/rate_limit.h"

#include <math.h>
#include <pthread.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Slots per set: a client may be in any slot of its set. */
#define WAYS 8
#define CLIENT_MAX 64

typedef struct slot {
    char client[CLIENT_MAX]; /* "" when free */
    long long full_at_us;    /* when the bucket is full again */
    long long used_us;       /* last request, for ties */
} slot;

typedef struct set {
    pthread_mutex_t lock;
    slot slots[WAYS];
} set;

struct rate_limit {
    rate_budget budget;
    size_t set_count;
    unsigned char hash_key[crypto_shorthash_KEYBYTES];
    set *sets;
    size_t in_use; /* slots ever taken (atomic; slots are never freed) */
};

rate_limit *rate_limit_new(size_t slots, rate_budget budget)
{
    rate_limit *rl = calloc(1, sizeof *rl);
    if (rl == NULL)
        abort();
    rl->budget = budget;
    if (rl->budget.quota < 1)
        rl->budget.quota = 1;
    if (rl->budget.window < 1)
        rl->budget.window = 1;
    rl->set_count = slots / WAYS + (slots % WAYS != 0);
    if (rl->set_count == 0)
        rl->set_count = 1;
    rl->sets = calloc(rl->set_count, sizeof *rl->sets);
    if (rl->sets == NULL)
        abort();
    for (size_t i = 0; i < rl->set_count; i++)
        pthread_mutex_init(&rl->sets[i].lock, NULL);
    randombytes_buf(rl->hash_key, sizeof rl->hash_key);
    return rl;
}

void rate_limit_free(rate_limit *rl)
{
    if (rl == NULL)
        return;
    for (size_t i = 0; i < rl->set_count; i++)
        pthread_mutex_destroy(&rl->sets[i].lock);
    free(rl->sets);
    free(rl);
}

static set *set_of(rate_limit *rl, const char *client, size_t len)
{
    uint64_t hash;
    crypto_shorthash((unsigned char *)&hash, (const unsigned char *)client, len,
                     rl->hash_key);
    return &rl->sets[hash % rl->set_count];
}

/* client's slot in s, or the slot it takes: a free one, else the bucket
 * nearest to full (a full one is as good as new; one still far from full
 * is a client being held back, whom a flood of new names must not free),
 * the least recently used among equals. */
static slot *slot_for(rate_limit *rl, set *s, const char *client,
                      long long now_us)
{
    slot *victim = NULL;
    bool fresh = false;
    for (int i = 0; i < WAYS; i++) {
        slot *at = &s->slots[i];
        if (at->client[0] != '\0' && strcmp(at->client, client) == 0)
            return at;
    }
    for (int i = 0; i < WAYS; i++) {
        slot *at = &s->slots[i];
        if (at->client[0] == '\0') {
            victim = at;
            fresh = true;
            break;
        }
        long long debt = at->full_at_us > now_us ? at->full_at_us - now_us : 0;
        long long best = victim == NULL ? 0
                         : victim->full_at_us > now_us
                             ? victim->full_at_us - now_us
                             : 0;
        if (victim == NULL || debt < best ||
            (debt == best && at->used_us < victim->used_us))
            victim = at;
    }
    if (fresh)
        __atomic_add_fetch(&rl->in_use, 1, __ATOMIC_RELAXED);
    snprintf(victim->client, sizeof victim->client, "%s", client);
    victim->full_at_us = now_us;
    victim->used_us = now_us;
    return victim;
}

static long long ceil_seconds(long long micros)
{
    return micros <= 0 ? 0 : (micros + 999999) / 1000000;
}

/* cost in microseconds of debt: the whole quota at most, none below 0. */
static long long debt_of(const rate_budget *b, long long cost)
{
    if (cost > b->quota)
        cost = b->quota;
    if (cost < 0)
        cost = 0;
    return llround((double)cost * (double)b->window * 1e6 / (double)b->quota);
}

long long rate_limit_cost_us(const rate_limit *rl, long long cost)
{
    return debt_of(&rl->budget, cost);
}

/* The verdict of a bucket that owes owed_us after a request of cost_us
 * was allowed or not. */
static void say(const rate_budget *b, bool allowed, long long owed_us,
                long long cost_us, rate_verdict *verdict)
{
    const double capacity_us = (double)b->window * 1e6;
    verdict->allowed = allowed;
    verdict->remaining = (long long)floor((capacity_us - (double)owed_us) *
                                          (double)b->quota / capacity_us);
    if (verdict->remaining < 0)
        verdict->remaining = 0;
    verdict->reset = ceil_seconds(owed_us);
    verdict->retry_after =
        allowed ? 0 : ceil_seconds(owed_us + cost_us - (long long)capacity_us);
    if (!allowed && verdict->retry_after < 1)
        verdict->retry_after = 1;
}

/* rate_limit_take, charging only when charge is true. */
static bool judge(rate_limit *rl, const char *client, long long cost,
                  long long now_ms, bool charge, rate_verdict *verdict)
{
    char name[CLIENT_MAX];
    snprintf(name, sizeof name, "%s", client);
    const rate_budget b = rl->budget;
    const long long now_us = now_ms * 1000;
    const double capacity_us = (double)b.window * 1e6;
    const long long cost_us = debt_of(&b, cost);

    set *s = set_of(rl, name, strlen(name));
    pthread_mutex_lock(&s->lock);
    slot *at = slot_for(rl, s, name, now_us);
    at->used_us = now_us;
    long long base = at->full_at_us > now_us ? at->full_at_us : now_us;
    long long debt = base + cost_us - now_us;
    bool allowed = (double)debt <= capacity_us;
    if (allowed && charge)
        at->full_at_us = base + cost_us;
    long long owed = at->full_at_us > now_us ? at->full_at_us - now_us : 0;
    pthread_mutex_unlock(&s->lock);
    /* Not charged, an allowed request owes what it would after. */
    if (allowed && !charge)
        owed = debt;
    say(&b, allowed, owed, cost_us, verdict);
    return allowed;
}

bool rate_limit_take(rate_limit *rl, const char *client, long long cost,
                     long long now_ms, rate_verdict *verdict)
{
    return judge(rl, client, cost, now_ms, true, verdict);
}

bool rate_limit_peek(rate_limit *rl, const char *client, long long cost,
                     long long now_ms, rate_verdict *verdict)
{
    return judge(rl, client, cost, now_ms, false, verdict);
}

void rate_limit_mirror(rate_limit *rl, const char *client, bool allowed,
                       long long owed_us, long long cost, long long now_ms,
                       rate_verdict *verdict)
{
    char name[CLIENT_MAX];
    snprintf(name, sizeof name, "%s", client);
    const long long now_us = now_ms * 1000;
    if (owed_us < 0)
        owed_us = 0;
    set *s = set_of(rl, name, strlen(name));
    pthread_mutex_lock(&s->lock);
    slot *at = slot_for(rl, s, name, now_us);
    at->used_us = now_us;
    /* The shared bucket is the one to believe: it holds this process's
     * charges and every other's (and after a failover emptied it, its
     * word is the new start). */
    at->full_at_us = now_us + owed_us;
    pthread_mutex_unlock(&s->lock);
    say(&rl->budget, allowed, owed_us, debt_of(&rl->budget, cost), verdict);
}

size_t rate_limit_count(rate_limit *rl)
{
    return __atomic_load_n(&rl->in_use, __ATOMIC_RELAXED);
}

size_t rate_limit_slots(const rate_limit *rl)
{
    return rl->set_count * WAYS;
}
