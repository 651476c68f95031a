/* disruption.c */
#include "disruption.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t disruption_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

long disruption_env_long(const char *name, long fallback)
{
    const char *text = getenv(name);
    return text && *text ? strtol(text, NULL, 10) : fallback;
}

long disruption_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

long disruption_let_play(board *b, long ms, long limit_ms)
{
    pthread_mutex_lock(&b->lock);
    long from = b->acknowledged;
    long began = disruption_now_ms();
    while (disruption_now_ms() - began < ms || b->acknowledged == from) {
        if (b->acknowledged == from &&
            disruption_now_ms() - began > limit_ms)
            break;
        /* Woken by each move, and at least every 50 ms to see the time. */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&b->moved, &b->lock, &until);
    }
    long moved = b->acknowledged - from;
    pthread_mutex_unlock(&b->lock);
    return moved;
}

bool disruption_everyone_moved_since(player *players, int n,
                                     const long *since)
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

void disruption_summarise(long *ms, int n, char *out, size_t size)
{
    if (n == 0) {
        snprintf(out, size, "none");
        return;
    }
    qsort(ms, (size_t)n, sizeof *ms, by_value);
    snprintf(out, size, "max %.3f s, median %.3f s", ms[n - 1] / 1000.0,
             ms[n / 2] / 1000.0);
}

void disruption_start_players(board *b, const char *base_url,
                              const char *ca_file, player *players,
                              int clients)
{
    memset(b, 0, sizeof *b);
    b->base_url = base_url;
    b->ca_file = ca_file;
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->moved, NULL);
    for (int i = 0; i < clients; i++) {
        player_register(&players[i], b, i);
        cr_assert_str_empty(players[i].failure, "%s", players[i].failure);
    }
    for (int i = 0; i < clients; i++)
        player_start(&players[i]);
}
