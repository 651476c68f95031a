/* wilds.h: test positions put the cards they need into the Wilds the way
 * setup could have dealt them: one card of each class (qq_check refuses
 * two Defender of the Pale side by side). */
#ifndef TESTS_RULES_QUARRIORS_WILDS_H
#define TESTS_RULES_QUARRIORS_WILDS_H

#include "quarriors/qq_internal.h"

/* Puts the card called id on Wilds slot (a spell or creature slot, whose
 * five dice then are its dice). When another slot holds a card of the
 * same class, that slot gets the card slot held before, so each class
 * stays once in the Wilds. Fails the test for an unknown id. */
void qq_test_put_card(qq_state *st, int slot, const char *id);

#endif
