/* fixture.h: building rulebook positions for the Antiquity Quest tests.
 * A fixture starts from a real setup, returns every hand and cache to the
 * draw pile, and then places named cards where a test wants them, so the
 * 217 cards stay accounted for and check() holds throughout. */
#ifndef TESTS_RULES_ANTIQUITY_QUEST_FIXTURE_H
#define TESTS_RULES_ANTIQUITY_QUEST_FIXTURE_H

#include "antiquity_quest/aq_internal.h"

/* A match with empty hands and caches, seat 0 to play in phase phase, on
 * turn 5 of round 1. options may be NULL. Destroy with aq_engine.destroy. */
aq_state *fx_new(int seats, const char *options, aq_phase phase);
/* Moves cards named in names ("red1 red3 red5") from the draw pile. */
void fx_hand(aq_state *s, int seat, const char *names);
void fx_cache(aq_state *s, int side, const char *names);
/* Pushes names onto the discard pile; the last one is the top. */
void fx_discard(aq_state *s, const char *names);
/* A new collection for side, started on turn 1; returns its id. */
int fx_collection(aq_state *s, int side, const char *names);
/* The side's cache goes into seat's hand as if picked up. */
void fx_cache_taken(aq_state *s, int side);
/* The view of seat as canonical JSON text (caller frees). */
char *fx_view_json(const aq_state *s, int seat);
/* Collection id as the view shows it: a new reference to its object. */
json_t *fx_collection_view(const aq_state *s, int id);

#endif
