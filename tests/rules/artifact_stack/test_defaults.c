/* Absent players: every seat lets its deadline pass, so the service plays
 * the engine's default move (defaults.c) for it, move after move. The
 * match still ends, and every default move is one the rules accept. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "artifact_stack/artifact_stack.h"

static void absent(const char *options, int seats, uint64_t seed)
{
    harness_expect_absent_players_finish(&as_engine, options, seats, seed);
}

Test(as_defaults, absent_players_finish_the_match)
{
    for (int seats = 2; seats <= 4; seats++)
        absent(NULL, seats, 900000u + 100u * (unsigned)seats);
}
