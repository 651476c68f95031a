/* Random complete matches through the rules interface for every seat
 * count and option set, with the engine's invariants (217 cards in place,
 * running scores equal recomputed scores) checked by the harness after
 * every move. Scale with AQ_MATCHES, not by dropping checks. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"

#define AQ_MAX_MOVES 20000
/* A hang's bound, not a speed target: a test is 15 to 40 s of CPU, and a
 * busy two-core machine (eight builds beside it) took over 300 s of wall
 * clock for two of them. */
#define AQ_RANDOM_TIMEOUT 900
/* Matches per seat count and option set: about 330 in all, so that
 * make test stays within its 20 minutes on a two-core machine where the
 * suites share the cores; make soak plays twenty times as many. Sanitizer
 * builds run several times slower and play fewer. */
#if defined(__SANITIZE_ADDRESS__)
#define AQ_MATCHES 3
#else
#define AQ_MATCHES 8
#endif

static void play(const char *options, int seats, int matches, uint64_t seed,
                 harness_stats *stats)
{
    harness_config cfg = {.engine = &aq_engine,
                          .options_json = options,
                          .seats = seats,
                          .matches = matches,
                          .max_moves = AQ_MAX_MOVES,
                          .first_seed = seed,
                          .after_move = harness_expect_prompt_phrase};
    harness_random_play(&cfg, stats);
}

static void every_seat_count(const char *options, uint64_t seed)
{
    harness_stats stats = {0};
    for (int seats = 2; seats <= 6; seats++)
        play(options, seats, AQ_MATCHES, seed + 1000u * (unsigned)seats,
             &stats);
    cr_expect_eq(stats.matches, 5 * AQ_MATCHES * harness_soak_factor());
    cr_expect_gt(stats.rejected_probes, 0);
    cr_expect_gt(stats.text_round_trips, 0);
}

static void every_pairs_table(const char *options, uint64_t seed)
{
    harness_stats stats = {0};
    for (int seats = 4; seats <= 8; seats += 2)
        play(options, seats, AQ_MATCHES, seed + 1000u * (unsigned)seats,
             &stats);
    cr_expect_eq(stats.matches, 3 * AQ_MATCHES * harness_soak_factor());
}

Test(aq_random_play, basic_game, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_seat_count(NULL, 100000);
}

Test(aq_random_play, three_rounds, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_seat_count("{\"rounds\": 3}", 200000);
}

Test(aq_random_play, civilization_bonus, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_seat_count("{\"civilization_bonus\": true}", 300000);
}

Test(aq_random_play, remington_reassigned, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_seat_count("{\"remington_reassigned\": true}", 400000);
}

Test(aq_random_play, tess_lost_shipment, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_seat_count("{\"tess_lost_shipment\": true}", 500000);
}

Test(aq_random_play, revoked_visas, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_seat_count("{\"revoked_visas\": true}", 600000);
}

Test(aq_random_play, every_advanced_rule, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_seat_count("{\"civilization_bonus\": true, \"remington_reassigned\":"
                     " true, \"tess_lost_shipment\": true, \"revoked_visas\":"
                     " true}",
                     700000);
}

Test(aq_random_play, pairs, .timeout = AQ_RANDOM_TIMEOUT)
{
    every_pairs_table("{\"pairs\": true}", 800000);
}

Test(aq_random_play, pairs_with_every_advanced_rule,
     .timeout = AQ_RANDOM_TIMEOUT)
{
    every_pairs_table("{\"pairs\": true, \"civilization_bonus\": true, "
                      "\"remington_reassigned\": true, \"tess_lost_shipment\":"
                      " true, \"revoked_visas\": true, \"rounds\": 3}",
                      900000);
}
