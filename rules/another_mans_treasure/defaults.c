/* defaults.c: the move Another Man's Treasure makes for a seat whose
 * deadline passed (rules.h default_move). A RULING (the rulebook has no
 * absent player): in a claim window pass (as the README's closing of the
 * window asks), on the turn draw from the pile (never take the discard),
 * then discard the first card legal() lists; at the round's end pass (no
 * partial plays). Drawing and discarding empties the draw pile, which ends
 * the round, so a match of absent players still ends. */
#include "amt_internal.h"

static const char preferences[] =
    "[{\"type\":\"pass\"},{\"type\":\"draw\"},{\"type\":\"discard\"}]";

json_t *amt_default_move(const rules_state *state, int seat)
{
    json_t *legal = amt_legal(state, seat);
    json_t *move = rules_pick_move(legal, preferences);
    json_decref(legal);
    return move;
}
