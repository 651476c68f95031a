/* Absent players: every seat lets its deadline pass, so the service plays
 * the engine's default move (defaults.c) for it, move after move. The
 * match still ends, and every default move is one the rules accept. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "adel_verplichtet/adel_verplichtet.h"

static void absent(const char *options, int seats, uint64_t seed)
{
    harness_stats stats = {0};
    harness_config cfg = {.engine = &av_engine,
                          .options_json = options,
                          .seats = seats,
                          .matches = 3,
                          .max_moves = 20000,
                          .first_seed = seed};
    harness_default_play(&cfg, &stats);
    cr_expect_eq(stats.matches, 3);
    cr_expect_gt(stats.moves, 0);
}

Test(av_defaults, absent_players_finish_the_match)
{
    for (int seats = 2; seats <= 5; seats++)
        absent(NULL, seats, 900000u + 100u * (unsigned)seats);
}
