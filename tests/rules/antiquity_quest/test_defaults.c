/* Absent players: every seat lets its deadline pass, so the service plays
 * the engine's default move (defaults.c) for it, move after move. The
 * match still ends, and every default move is one the rules accept. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"

static void absent(const char *options, int seats, uint64_t seed)
{
    harness_expect_absent_players_finish(&aq_engine, options, seats, seed);
}

Test(aq_defaults, absent_players_finish_the_match)
{
    for (int seats = 2; seats <= 6; seats++)
        absent(NULL, seats, 900000u + 100u * (unsigned)seats);
}
