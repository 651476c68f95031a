/* Random complete matches through the harness, over every seat count and
 * several stack choices, with the engine's invariants after every move. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "artifact_stack/artifact_stack.h"

static const char *const option_sets[] = {
    NULL,
    "{\"stacks\": \"statues,coins,weapons,manuscripts,jewelry,relics\"}",
    "{\"stacks\": \"curses,china,monsters,treasures,weapons,jewelry\"}",
    "{\"stacks\": \"manuscripts,curses,treasures,statues,china,relics\"}",
};

static void play(int seats, int option_set, int matches)
{
    harness_stats stats = {0};
    harness_config cfg = {
        .engine = &as_engine, .options_json = option_sets[option_set],
        .seats = seats, .matches = matches, .max_moves = 1500,
        .first_seed = 100000u * (unsigned)seats + 10000u * (unsigned)option_set,
        .after_move = harness_expect_prompt_phrase,
    };
    harness_random_play(&cfg, &stats);
    cr_expect_eq(stats.matches, matches * harness_soak_factor());
    cr_expect_gt(stats.rejected_probes, 0);
    cr_expect_gt(stats.text_round_trips, 0);
}

/* Per seat count and option set; make soak plays twenty times as many. */
#define MATCHES 40

Test(as_random, two_players_random_stacks) { play(2, 0, MATCHES); }
Test(as_random, three_players_random_stacks) { play(3, 0, MATCHES); }
Test(as_random, four_players_random_stacks) { play(4, 0, MATCHES); }
Test(as_random, two_players_bonus_stacks) { play(2, 1, MATCHES); }
Test(as_random, three_players_bonus_stacks) { play(3, 1, MATCHES); }
Test(as_random, four_players_bonus_stacks) { play(4, 1, MATCHES); }
Test(as_random, two_players_special_stacks) { play(2, 2, MATCHES); }
Test(as_random, three_players_special_stacks) { play(3, 2, MATCHES); }
Test(as_random, four_players_special_stacks) { play(4, 2, MATCHES); }
Test(as_random, two_players_mixed_stacks) { play(2, 3, MATCHES); }
Test(as_random, three_players_mixed_stacks) { play(3, 3, MATCHES); }
Test(as_random, four_players_mixed_stacks) { play(4, 3, MATCHES); }
