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
    crypto_shorthash((unsigned char *)&hash, (const unsigned char *)client,
                     len, rl->hash_key);
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

bool rate_limit_take(rate_limit *rl, const char *client, long long cost,
                     long long now_ms, rate_verdict *verdict)
{
    char name[CLIENT_MAX];
    snprintf(name, sizeof name, "%s", client);
    const rate_budget b = rl->budget;
    if (cost > b.quota)
        cost = b.quota;
    if (cost < 0)
        cost = 0;
    const long long now_us = now_ms * 1000;
    const double capacity_us = (double)b.window * 1e6;
    const long long cost_us = llround((double)cost * capacity_us /
                                      (double)b.quota);

    set *s = set_of(rl, name, strlen(name));
    pthread_mutex_lock(&s->lock);
    slot *at = slot_for(rl, s, name, now_us);
    at->used_us = now_us;
    long long base = at->full_at_us > now_us ? at->full_at_us : now_us;
    long long debt = base + cost_us - now_us;
    bool allowed = (double)debt <= capacity_us;
    if (allowed)
        at->full_at_us = base + cost_us;
    long long owed = at->full_at_us > now_us ? at->full_at_us - now_us : 0;
    pthread_mutex_unlock(&s->lock);

    verdict->allowed = allowed;
    verdict->remaining =
        (long long)floor((capacity_us - (double)owed) * (double)b.quota /
                         capacity_us);
    if (verdict->remaining < 0)
        verdict->remaining = 0;
    verdict->reset = ceil_seconds(owed);
    verdict->retry_after =
        allowed ? 0 : ceil_seconds(debt - (long long)capacity_us);
    if (!allowed && verdict->retry_after < 1)
        verdict->retry_after = 1;
    return allowed;
}

size_t rate_limit_count(rate_limit *rl)
{
    return __atomic_load_n(&rl->in_use, __ATOMIC_RELAXED);
}

size_t rate_limit_slots(const rate_limit *rl)
{
    return rl->set_count * WAYS;
}
