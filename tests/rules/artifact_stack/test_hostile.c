/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "artifact_stack/artifact_stack.h"

static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_stats stats = {0};
    harness_config cfg = {.engine = &as_engine, .options_json = options,
                          .seats = seats, .matches = matches,
                          .max_moves = 1500, .first_seed = seed};
    harness_hostile_moves(&cfg, &stats);
    cr_expect_eq(stats.matches, matches * harness_soak_factor());
    cr_expect_gt(stats.hostile_actions, 0);
    cr_expect_gt(stats.hostile_texts, 0);
    cr_log_info("artifact_stack: %d seats, %s: %ld hostile actions, %ld hostile texts",
                seats, options ? options : "defaults", stats.hostile_actions,
                stats.hostile_texts);
}

Test(as_hostile, two_players_random_stacks, .timeout = 300)
{
    hostile(NULL, 2, 20, 7100000);
}

Test(as_hostile, four_players_special_stacks, .timeout = 300)
{
    hostile("{\"stacks\": \"curses,china,monsters,treasures,weapons,jewelry\"}",
            4, 20, 7200000);
}
