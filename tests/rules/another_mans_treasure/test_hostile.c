/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "another_mans_treasure/another_mans_treasure.h"

/* Hostile moves against a match of seats with options (NULL: the
 * defaults), matches from seed on. */
static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_expect_hostile_moves_harmless(&(harness_config){
        .engine = &amt_engine, .options_json = options, .seats = seats,
        .matches = matches, .max_moves = 40000, .first_seed = seed});
}

Test(amt_hostile, classic_three_players, .timeout = 400)
{
    hostile(NULL, 3, 1, 7100000);
}

Test(amt_hostile, progressive_five_players, .timeout = 400)
{
    hostile("{\"game\": \"progressive\"}", 5, 1, 7200000);
}
