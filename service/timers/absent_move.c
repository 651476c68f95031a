/* absent_move.c */
#include "timers/absent_move.h"

#include <string.h>

json_t *absent_move_choose(const rules_engine *engine,
                           const rules_state *state, int seat,
                           deadline_action action, bool *passed)
{
    *passed = false;
    if (action == DEADLINE_SKIP) {
        json_t *legal = engine->legal(state, seat);
        size_t i;
        json_t *move;
        json_array_foreach(json_object_get(legal, "moves"), i, move)
        {
            const char *type = json_string_value(json_object_get(move, "type"));
            if (type != NULL && strcmp(type, "pass") == 0) {
                *passed = true;
                json_incref(move);
                json_decref(legal);
                return move;
            }
        }
        json_decref(legal);
    }
    if (engine->default_move != NULL)
        return engine->default_move(state, seat);
    /* An engine that names no default move: the first move it lists. */
    json_t *legal = engine->legal(state, seat);
    json_t *first = json_array_get(json_object_get(legal, "moves"), 0);
    if (first != NULL)
        json_incref(first);
    json_decref(legal);
    return first;
}
