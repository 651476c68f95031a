/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "artifact_stack/artifact_stack.h"

/* Hostile moves against a match of seats with options (NULL: the
 * defaults), matches from seed on. */
static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_expect_hostile_moves_harmless(&(harness_config){
        .engine = &as_engine, .options_json = options, .seats = seats,
        .matches = matches, .max_moves = 1500, .first_seed = seed});
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
