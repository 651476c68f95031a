/* absent_move.h: the move made for a seat that did not act in time. Under
 * the "skip" action it is a pass wherever the rules offer one; otherwise
 * (and as skip's fallback) the engine's default move (rules.h
 * default_move), or the first legal move of an engine that names none.
 * Used by the deadline actions (timeouts.h) and the rules' windows
 * (rule_windows.h). */
#ifndef SERVICE_TIMERS_ABSENT_MOVE_H
#define SERVICE_TIMERS_ABSENT_MOVE_H

#include <jansson.h>
#include <stdbool.h>

#include "deadlines/deadline_settings.h"
#include "rules.h"

/* The move a deadline makes for seat in state under action (skip or
 * default_move): a new reference, or NULL when the seat has no move.
 * *passed tells whether it is a pass the rules offered. Pure. */
json_t *absent_move_choose(const rules_engine *engine,
                           const rules_state *state, int seat,
                           deadline_action action, bool *passed);

#endif
