/* forfeit.h: what a forfeit does to a match's result, the same for every
 * game (pure, shared by the service and the verifiers).
 *
 * A forfeit (a deadline action) ends the match at once: the seats that
 * forfeited share the last place; every other seat keeps its place in the
 * engine's ranking of the scores so far (with the rulebook's tie-breaks),
 * the forfeited seats taken out of it. Scores are not changed. */
#ifndef SERVICE_LEDGER_FORFEIT_H
#define SERVICE_LEDGER_FORFEIT_H

#include <jansson.h>
#include <stdint.h>

/* The final result of a match that ends by forfeit: engine_result
 * (borrowed, an engine's result()) with "over": true, the ranking
 * re-ordered as above and "forfeited": [seats] (a bit per seat in
 * forfeited). A new reference. */
json_t *forfeit_result(const json_t *engine_result, uint32_t forfeited);

#endif
