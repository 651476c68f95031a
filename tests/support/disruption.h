/* disruption.h: what the suites that break things under the players of
 * players.h share (tests/service/crash, tests/service/failover): the
 * seeded kill points, waiting for the players to make progress, and the
 * recovery figures they print. */
#ifndef TESTS_SUPPORT_DISRUPTION_H
#define TESTS_SUPPORT_DISRUPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "players.h"

/* splitmix64: the next number of a sequence a printed seed repeats. */
uint64_t disruption_random(uint64_t *state);

/* The number in the environment variable name, or fallback. */
long disruption_env_long(const char *name, long fallback);

/* Milliseconds on the monotonic clock. */
long disruption_now_ms(void);

/* Lets the players play for ms milliseconds and at least one more
 * acknowledged move (so a crash never lands on an idle service), giving
 * up after limit_ms without one. The moves acknowledged meanwhile (0:
 * none within limit_ms). */
long disruption_let_play(board *b, long ms, long limit_ms);

/* Sets up *b for the service at base_url (ca_file: the CAs to trust over
 * https, or NULL), registers clients players and starts them playing;
 * fails the test when a registration fails. */
void disruption_start_players(board *b, const char *base_url,
                              const char *ca_file, player *players,
                              int clients);

/* Whether every player still playing has acknowledged more than since[i]
 * moves. */
bool disruption_everyone_moved_since(player *players, int n,
                                     const long *since);

/* "max 1.234 s, median 0.567 s" of n milliseconds (sorted in place), or
 * "none". */
void disruption_summarise(long *ms, int n, char *out, size_t size);

#endif
