/* Random complete matches of Quarriors through the rules interface alone,
 * over every seat count and option set. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "quarriors/quarriors.h"

#define MAX_MOVES 4000
/* A hang's bound, not a speed target: each test is about 15 s of CPU, and
 * a busy two-core machine (eight builds beside it) took 120 s of wall
 * clock for several. */
#define RANDOM_TIMEOUT 400

static void play(const char *options, int seats, int matches, uint64_t seed)
{
    harness_stats stats = {0};
    harness_config cfg = {.engine = &qq_engine,
                          .options_json = options,
                          .seats = seats,
                          .matches = matches,
                          .max_moves = MAX_MOVES,
                          .first_seed = seed,
                          .after_move = harness_expect_prompt_phrase};
    harness_random_play(&cfg, &stats);
    cr_expect_eq(stats.matches, matches * harness_soak_factor());
    cr_expect_gt(stats.text_round_trips, 0);
}

Test(qq_random, quests_two_players, .timeout = RANDOM_TIMEOUT)
{
    play(NULL, 2, 30, 1000);
}
Test(qq_random, quests_three_players, .timeout = RANDOM_TIMEOUT)
{
    play(NULL, 3, 30, 2000);
}
Test(qq_random, quests_four_players, .timeout = RANDOM_TIMEOUT)
{
    play(NULL, 4, 30, 3000);
}
Test(qq_random, no_quests, .timeout = RANDOM_TIMEOUT)
{
    for (int seats = 2; seats <= 4; seats++)
        play("{\"quests\": false}", seats, 15, 4000u + 100u * (unsigned)seats);
}
Test(qq_random, expert_rules, .timeout = RANDOM_TIMEOUT)
{
    for (int seats = 2; seats <= 4; seats++)
        play("{\"expert\": true}", seats, 15, 5000u + 100u * (unsigned)seats);
}
Test(qq_random, quarmageddon_cards, .timeout = RANDOM_TIMEOUT)
{
    for (int seats = 2; seats <= 4; seats++)
        play("{\"quarmageddon\": true, \"expert\": true}", seats, 10,
             6000u + 100u * (unsigned)seats);
}
