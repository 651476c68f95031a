/* defaults.c: the move Artifact Stack makes for a player whose deadline
 * passed (rules.h default_move). A RULING (the rulebook has no absent
 * player): end the turn with done when the rules allow it; otherwise take
 * the first free card legal() lists (it costs nothing), keep a treasure,
 * and answer a curse or bonus with the first choice listed. Taking free
 * cards empties the temple, so a match of absent players still ends. */
#include "artifact_stack_internal.h"

static const char preferences[] =
    "[{\"type\":\"done\"},{\"type\":\"take\"},{\"type\":\"keep\"},"
    "{\"type\":\"recruit\"},{\"type\":\"give\"},{\"type\":\"discard\"},"
    "{\"type\":\"steal\"}]";

json_t *as_default_move(const rules_state *state, int seat)
{
    json_t *legal = as_legal(state, seat);
    json_t *move = rules_pick_move(legal, preferences);
    json_decref(legal);
    return move;
}
