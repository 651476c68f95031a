/* position.h: test positions as a referee writes them: an example of
 * rules/quarriors/examples/ (the suite runs from the repository's root),
 * edited field by field in its JSON, then loaded. */
#ifndef TESTS_RULES_QUARRIORS_POSITION_H
#define TESTS_RULES_QUARRIORS_POSITION_H

#include "rules.h"

/* The snapshot of examples/NAME.json without its "note" (new reference). */
json_t *qq_test_example(const char *name);

/* A list of dice of a snapshot (borrowed): seat's place ("used"), or for
 * seat -1 the Wilds' dice (place ignored). */
json_t *qq_test_dice(json_t *snapshot, int seat, const char *place);

/* Replaces the die entry old in list by now; fails the test when list has
 * no entry old. */
void qq_test_replace(json_t *list, const char *old, const char *now);

/* Removes the die entry old from list, and appends now to list to (when
 * to is not NULL): a die moved by hand. */
void qq_test_move(json_t *list, const char *old, json_t *to, const char *now);

/* examples/challenge_wipes_out_the_questers with one more Deathdealer on
 * each side: 29 questing for seat 1 beside 27, 30 in seat 0's Ready
 * Area beside 28 (new reference). */
json_t *qq_test_two_against_two(void);

/* examples/seizing_the_last_quest_die loaded and played to seat 0's
 * seizing of seat 2's quest die ("end", "done", "seize 2"). */
rules_state *qq_test_seized(const json_t *snapshot);

/* The state of a snapshot; fails the test with load's sentence. */
rules_state *qq_test_load(const json_t *snapshot);

/* Asserts that load refuses snapshot with exactly the sentence expected. */
void qq_test_refused(const json_t *snapshot, const char *expected);

/* view_text of seat with each paragraph on one line (the wrapped lines
 * joined again), to compare with what a person reads; caller frees. */
char *qq_test_text(const rules_state *state, int seat);

#endif
