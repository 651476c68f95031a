/* The harness run on a toy engine: proves the harness and rules.h work
 * before real engines depend on them. */
#include <criterion/criterion.h>

#include "../harness.h"

extern const rules_engine toy_engine;

Test(harness, toy_engine_passes_every_check)
{
    harness_stats stats = {0};
    for (int seats = 2; seats <= 4; seats++) {
        harness_config cfg = {.engine = &toy_engine, .seats = seats,
                              .matches = 50, .max_moves = 200,
                              .first_seed = 1000u * (unsigned)seats};
        harness_random_play(&cfg, &stats);
    }
    cr_expect_eq(stats.matches, 150);
    cr_expect_gt(stats.rejected_probes, 0);
    cr_expect_gt(stats.text_round_trips, 0);
}
