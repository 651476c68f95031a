/* support.h: building rulebook positions for the Another Man's Treasure
 * tests, and a fast random player. */
#ifndef TESTS_RULES_ANOTHER_MANS_TREASURE_SUPPORT_H
#define TESTS_RULES_ANOTHER_MANS_TREASURE_SUPPORT_H

#include "another_mans_treasure/amt_internal.h"

/* Sanitizer builds run several times slower: the random suites divide
 * their match counts by AMT_TEST_SLOWDOWN there (same checks, fewer
 * matches). */
#if defined(__SANITIZE_ADDRESS__)
#define AMT_TEST_SLOWDOWN 4
#else
#define AMT_TEST_SLOWDOWN 1
#endif

/* A new match with options (JSON text or NULL) from a fixed seed. */
amt_state *amt_test_new(int seats, const char *options);

/* Re-deals the current round by hand: hands[seat] is a space-separated
 * list of card names ("" for none), discard_top the single discard, and
 * draw_top (may be NULL) the card on top of the draw pile; every other card
 * goes to the draw pile. Resets the table and sets seat `turn` to draw. */
void amt_test_deal(amt_state *s, const char *const *hands,
                   const char *discard_top, const char *draw_top, int turn);

/* Puts the named cards (space-separated) on top of the draw pile, the
 * first named to be drawn first. */
void amt_test_stack_draw(amt_state *s, const char *names);

/* Leaves only the top keep cards in the draw pile, moving the others
 * under the discard pile (so every card stays in one place). */
void amt_test_trim_draw(amt_state *s, int keep);

/* Applies a text move / asserts its rejection (harness helpers). */
void amt_test_do(amt_state *s, int seat, const char *text);
void amt_test_reject(amt_state *s, int seat, const char *text,
                     const char *words);

/* Whether seat holds a card called name. */
bool amt_test_holds(const amt_state *s, int seat, const char *name);

/* A view as canonical JSON text (caller frees). */
char *amt_test_view_json(const amt_state *s, int seat);

#endif
