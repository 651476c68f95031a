/* Hostile moves: malformed actions and texts, as any registered player can
 * send them, are refused with a sentence (or accepted as a legal move)
 * without a crash, a sanitizer report or a change to the state. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"

/* Hostile moves against a match of seats with options (NULL: the
 * defaults), matches from seed on. */
static void hostile(const char *options, int seats, int matches,
                    uint64_t seed)
{
    harness_expect_hostile_moves_harmless(&(harness_config){
        .engine = &aq_engine, .options_json = options, .seats = seats,
        .matches = matches, .max_moves = 20000, .first_seed = seed});
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
