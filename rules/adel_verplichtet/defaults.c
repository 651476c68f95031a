/* defaults.c: the move Adel Verplichtet makes for a Lord whose deadline
 * passed (rules.h default_move). A RULING (the rulebook has no absent
 * player): the Lord goes to the castle and shows his exhibit when he may,
 * exhibiting the first set legal() lists; otherwise he plays his detective,
 * then nothing; at the auction house he takes the first card offered; a
 * thief steals the first card listed; at the end he exhibits the first set
 * (or nothing). Going to the castle and exhibiting moves the pawns, so a
 * match of absent Lords still reaches the dinner table. */
#include "av_internal.h"

static const char preferences[] =
    "[{\"type\":\"go\",\"location\":\"castle\"},"
    "{\"type\":\"play\",\"location\":\"castle\",\"card\":\"exhibit\"},"
    "{\"type\":\"play\",\"location\":\"castle\",\"card\":\"detective\"},"
    "{\"type\":\"play\",\"card\":\"exhibit\"},"
    "{\"type\":\"play\",\"card\":\"detective\"},"
    "{\"type\":\"play\",\"card\":\"nothing\"},"
    "{\"type\":\"take\"},{\"type\":\"steal\"},{\"type\":\"exhibit\"}]";

json_t *av_default_move(const rules_state *state, int seat)
{
    json_t *legal = av_legal(state, seat);
    json_t *move = rules_pick_move(legal, preferences);
    json_decref(legal);
    return move;
}
