/* defaults.c: the move Antiquity Quest makes for a seat whose deadline
 * passed (rules.h default_move). The rulebook has no absent player, so this
 * is a RULING that keeps the match moving without helping or hurting anyone
 * on purpose: draw (never pick up the discard pile), then discard the first
 * card legal() lists (the lowest card id the rules let go), and in the
 * revoked-visas final plays make none. Playing nothing, an absent seat's
 * hand grows until the draw pile runs out, which ends the round. */
#include "aq_internal.h"

static const char preferences[] = "[{\"type\":\"draw\"},{\"type\":\"discard\"},"
                                  "{\"type\":\"final\",\"plays\":[]}]";

json_t *aq_default_move(const rules_state *state, int seat)
{
    json_t *legal = aq_legal((const aq_state *)state, seat);
    json_t *move = rules_pick_move(legal, preferences);
    json_decref(legal);
    return move;
}
