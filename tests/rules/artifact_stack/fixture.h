/* fixture.h: builds rulebook positions for the named tests by moving cards
 * of a freshly set-up match (keeping every invariant check() knows). */
#ifndef TESTS_RULES_ARTIFACT_STACK_FIXTURE_H
#define TESTS_RULES_ARTIFACT_STACK_FIXTURE_H

#include "artifact_stack/artifact_stack.h"
#include "artifact_stack/artifact_stack_internal.h"

/* A match with the given stacks ("statues,coins,...") and seats; seat 0
 * starts. Free with as_engine.destroy. */
as_state *fx_new(int seats, const char *stacks);
/* The small table of the text and tell tests: stacks statues, coins,
 * weapons, relics, china, treasures; seat 0 holds weapons1 and weapons2,
 * seat 1 relics4 and china1; the temple is coins4 on 2.0.0, china8 face
 * down on 2.1.0, treasures3 on 2.2.0 and statues5 under them on 1.1.0.
 * Seat 0 is on turn. */
as_state *fx_small_table(void);
/* Moves card (by name) face up into seat's tableau. */
void fx_give(as_state *s, int seat, const char *card);
/* Puts card (by name) into the temple at "L.C.R", swapping places with the
 * card there. */
void fx_place(as_state *s, const char *at, const char *card);
/* Empties the temple except the listed positions (NULL-terminated); the
 * cards removed go to the box. */
void fx_keep_only(as_state *s, const char *const *positions);
/* The card name at a temple position, or NULL. */
const char *fx_at(const as_state *s, const char *at);
/* Asserts check() holds. */
void fx_check(const as_state *s);
/* Applies a text move, failing the test if rejected. */
void fx_do(as_state *s, int seat, const char *text);
/* Asserts a text move is rejected with words in the sentence. */
void fx_reject(as_state *s, int seat, const char *text, const char *words);

#endif
