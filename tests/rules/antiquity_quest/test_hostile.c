/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"

static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_stats stats = {0};
    harness_config cfg = {.engine = &aq_engine, .options_json = options,
                          .seats = seats, .matches = matches,
                          .max_moves = 20000, .first_seed = seed};
    harness_hostile_moves(&cfg, &stats);
    cr_expect_eq(stats.matches, matches * harness_soak_factor());
    cr_expect_gt(stats.hostile_actions, 0);
    cr_expect_gt(stats.hostile_texts, 0);
    cr_log_info("antiquity_quest: %d seats, %s: %ld hostile actions, %ld hostile texts",
                seats, options ? options : "defaults", stats.hostile_actions,
                stats.hostile_texts);
}

Test(aq_hostile, two_seats_basic_game, .timeout = 300)
{
    hostile(NULL, 2, 20, 7100000);
}

Test(aq_hostile, pairs_with_every_advanced_rule, .timeout = 300)
{
    hostile("{\"pairs\": true, \"civilization_bonus\": true, "
            "\"remington_reassigned\": true, \"tess_lost_shipment\": true, "
            "\"revoked_visas\": true}", 4, 20, 7200000);
}
