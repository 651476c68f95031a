/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "adel_verplichtet/adel_verplichtet.h"

/* Hostile moves against a match of seats with options (NULL: the
 * defaults), matches from seed on. */
static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_expect_hostile_moves_harmless(&(harness_config){
        .engine = &av_engine, .options_json = options, .seats = seats,
        .matches = matches, .max_moves = 4000, .first_seed = seed});
}

Test(av_hostile, three_lords, .timeout = 300)
{
    hostile(NULL, 3, 20, 7100000);
}

Test(av_hostile, two_lords_combined_variant, .timeout = 300)
{
    hostile("{\"two_player_variant\": \"combined\"}", 2, 20, 7200000);
}
