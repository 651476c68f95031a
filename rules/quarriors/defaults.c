/* defaults.c: the move Quarriors makes for a player whose deadline passed
 * (rules.h default_move). A RULING (the rulebook has no absent player):
 * decline every choice that can be declined (done, pass, leave), capture
 * the first card legal() lists when the turn reaches its buying step (so
 * the Wilds run out and a match of absent players still ends), then end
 * the turn; a forced choice (an attack, a defender, a seize) takes the
 * first one listed. */
#include "qq_internal.h"

#include <stdlib.h>

static const char preferences[] =
    "[{\"type\":\"done\"},{\"type\":\"pass\"},{\"type\":\"leave\"},"
    "{\"type\":\"capture\"},{\"type\":\"end\"}]";

json_t *qq_default_move(const rules_state *state, int seat)
{
    bool complete = true;
    json_t *moves = qq_legal_moves((const qq_state *)state, seat, &complete);
    json_t *legal = json_pack("{s:o}", "moves", moves);
    json_t *move = rules_pick_move(legal, preferences);
    json_decref(legal);
    return move;
}
