/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "quarriors/quarriors.h"

/* Hostile moves against a match of seats with options (NULL: the
 * defaults), matches from seed on. */
static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_expect_hostile_moves_harmless(&(harness_config){
        .engine = &qq_engine, .options_json = options, .seats = seats,
        .matches = matches, .max_moves = 4000, .first_seed = seed});
}

Test(qq_hostile, quests_two_players, .timeout = 120)
{
    hostile(NULL, 2, 20, 7100000);
}

Test(qq_hostile, quarmageddon_expert_four_players, .timeout = 120)
{
    hostile("{\"quarmageddon\": true, \"expert\": true}", 4, 20, 7200000);
}
