/* engines.c: random complete games per second for every engine compiled
 * in, at each seat count, choosing uniformly among legal() moves (the
 * same play the harness tests do, without the checks). Prints a table. */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules.h"

#define MOVE_LIMIT 100000

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Plays one game; returns its move count, or -1 if it did not end. */
static long play(const rules_engine *engine, int seats, uint64_t n)
{
    uint8_t seed[RULES_SEED_BYTES] = {0};
    memcpy(seed, &n, sizeof n);
    rules_error err;
    rules_state *state = engine->setup(NULL, seats, seed, &err);
    if (state == NULL)
        return -1;
    long moves = 0;
    for (; moves < MOVE_LIMIT; moves++) {
        rules_pending pending;
        engine->pending(state, &pending);
        if (pending.wait == RULES_WAIT_NOBODY)
            break;
        int seat = __builtin_ctz(pending.seats);
        json_t *legal = engine->legal(state, seat);
        json_t *list = json_object_get(legal, "moves");
        size_t count = json_array_size(list);
        if (count == 0) {
            json_decref(legal);
            moves = -1;
            break;
        }
        json_t *action = json_array_get(list, randombytes_uniform((uint32_t)count));
        if (!engine->apply(state, seat, action, &err)) {
            fprintf(stderr, "%s: listed move rejected: %s\n", engine->name,
                    err.message);
            json_decref(legal);
            moves = -1;
            break;
        }
        json_decref(legal);
    }
    engine->destroy(state);
    return moves >= MOVE_LIMIT ? -1 : moves;
}

int main(int argc, char **argv)
{
    double budget = argc > 1 ? atof(argv[1]) : 2.0; /* seconds per row */
    if (sodium_init() < 0)
        return 1;
    printf("%-24s %5s %10s %12s %14s\n", "engine", "seats", "games", "games/s",
           "moves/game");
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        for (int seats = (*e)->min_seats; seats <= (*e)->max_seats; seats++) {
            /* Some seat counts need an option (pairs): say so, not "slow". */
            uint8_t probe_seed[RULES_SEED_BYTES] = {0};
            rules_error why = {{0}};
            rules_state *probe = (*e)->setup(NULL, seats, probe_seed, &why);
            if (probe == NULL) {
                printf("%-24s %5d   (not with default options: %s)\n",
                       (*e)->name, seats, why.message);
                continue;
            }
            (*e)->destroy(probe);
            long games = 0, moves = 0;
            double start = now_seconds(), elapsed = 0;
            while (elapsed < budget) {
                long m = play(*e, seats, (uint64_t)games + 1);
                if (m < 0)
                    break;
                games++;
                moves += m;
                elapsed = now_seconds() - start;
            }
            if (games == 0) {
                printf("%-24s %5d %10s\n", (*e)->name, seats, "no game ended");
                continue;
            }
            printf("%-24s %5d %10ld %12.1f %14.1f\n", (*e)->name, seats, games,
                   (double)games / elapsed, (double)moves / (double)games);
            fflush(stdout);
        }
    }
    return 0;
}
