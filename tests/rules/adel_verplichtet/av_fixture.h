/* av_fixture.h: helpers the named tests use to set up rulebook positions
 * by hand (they reach the engine's state through av_internal.h). */
#ifndef TESTS_RULES_ADEL_VERPLICHTET_AV_FIXTURE_H
#define TESTS_RULES_ADEL_VERPLICHTET_AV_FIXTURE_H

#include "adel_verplichtet/adel_verplichtet.h"
#include "adel_verplichtet/av_internal.h"

/* A new match (options may be NULL) from a fixed seed; aborts the test on
 * failure. Free with av_engine.destroy. */
av_state *fixture_new(int seats, const char *options_json);
/* The same from the harness's seed number n. */
av_state *fixture_new_seeded(int seats, const char *options_json,
                             uint64_t n);
/* Moves the named cards ("A1 A2 B3") into seat's hand, from wherever they
 * are; with empty_first the seat's hand is emptied into pile 0 first. */
void fixture_give(av_state *s, int seat, const char *cards, bool empty_first);
/* The cards named in text as a mask. */
av_cards fixture_cards(const char *cards);
/* Every seat plays one text move, in seat order (NULL: the seat skips). */
void fixture_all(av_state *s, const char *const moves[]);
/* The current decision id. */
const char *fixture_decision(const av_state *s);

#endif
