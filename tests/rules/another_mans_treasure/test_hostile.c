/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "another_mans_treasure/another_mans_treasure.h"

static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_stats stats = {0};
    harness_config cfg = {.engine = &amt_engine, .options_json = options,
                          .seats = seats, .matches = matches,
                          .max_moves = 40000, .first_seed = seed};
    harness_hostile_moves(&cfg, &stats);
    cr_expect_eq(stats.matches, matches * harness_soak_factor());
    cr_expect_gt(stats.hostile_actions, 0);
    cr_expect_gt(stats.hostile_texts, 0);
    cr_log_info("another_mans_treasure: %d seats, %s: %ld hostile actions, %ld hostile texts",
                seats, options ? options : "defaults", stats.hostile_actions,
                stats.hostile_texts);
}

Test(amt_hostile, classic_three_players, .timeout = 400)
{
    hostile(NULL, 3, 1, 7100000);
}

Test(amt_hostile, progressive_five_players, .timeout = 400)
{
    hostile("{\"game\": \"progressive\"}", 5, 1, 7200000);
}
