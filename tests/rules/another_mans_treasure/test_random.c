/* Random complete matches through the rules interface alone: every seat
 * count, both games and the Classic end-of-round option of Progressive. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "support.h"

#define MAX_MOVES 40000

static void play_all_seats(const char *options, int matches, uint64_t base)
{
    harness_stats stats = {0};
    int played = 0;
    /* under sanitizers: 2, 4 and 6 seats */
    int step = AMT_TEST_SLOWDOWN > 1 ? 2 : 1;
    for (int seats = 2; seats <= 6; seats += step) {
        played += matches;
        harness_config cfg = {.engine = &amt_engine,
                              .options_json = options,
                              .seats = seats,
                              .matches = matches,
                              .max_moves = MAX_MOVES,
                              .after_move = harness_expect_prompt_phrase,
                              .first_seed = base + 1000u * (unsigned)seats};
        harness_random_play(&cfg, &stats);
    }
    cr_expect_eq(stats.matches, played * harness_soak_factor());
    cr_expect_gt(stats.rejected_probes, 0);
    cr_expect_gt(stats.text_round_trips, 0);
}

Test(amt_random, classic_games_for_2_to_6_players, .timeout = 400)
{
    play_all_seats(NULL, 2, 100000);
}

Test(amt_random, progressive_games_for_2_to_6_players, .timeout = 400)
{
    play_all_seats("{\"game\": \"progressive\"}", 1, 200000);
}

Test(amt_random, progressive_with_classic_end_of_round, .timeout = 400)
{
    play_all_seats("{\"game\": \"progressive\", \"classic_end_of_round\": true}",
                   1, 300000);
}
