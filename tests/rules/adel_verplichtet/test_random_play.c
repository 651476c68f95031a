/* Random complete matches for every seat count and option set, through the
 * generic harness: legal moves accepted, stale moves rejected, text and
 * snapshot round trips, determinism, invariants (check) after every move. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "adel_verplichtet/adel_verplichtet.h"

#define AV_TEST_MAX_MOVES 4000

static void play(int seats, const char *options, int matches, uint64_t first)
{
    harness_stats stats = {0};
    harness_config cfg = {.engine = &av_engine, .options_json = options,
                          .seats = seats, .matches = matches,
                          .max_moves = AV_TEST_MAX_MOVES,
                          .first_seed = first,
                          .after_move = harness_expect_prompt_phrase};
    harness_random_play(&cfg, &stats);
    cr_expect_eq(stats.matches, matches * harness_soak_factor());
    cr_expect_gt(stats.rejected_probes, 0);
    cr_expect_gt(stats.text_round_trips, 0);
}

Test(av_random_play, two_lords_basic_game) { play(2, NULL, 30, 2000); }
Test(av_random_play, three_lords) { play(3, NULL, 30, 3000); }
Test(av_random_play, four_lords) { play(4, NULL, 30, 4000); }
Test(av_random_play, five_lords) { play(5, NULL, 30, 5000); }
Test(av_random_play, two_lords_combined_variant)
{
    play(2, "{\"two_player_variant\": \"combined\"}", 30, 6000);
}
Test(av_random_play, two_lords_alternate_variant)
{
    play(2, "{\"two_player_variant\": \"alternate\"}", 30, 7000);
}
