/* lobby_scene.h: the lobby suite's scene: a pbemd on a database of its
 * own with a test clock (clock.h) the deadline worker reads, players who
 * do not know each other, and the lobby's listing as they read it. */
#ifndef TESTS_SERVICE_LOBBY_LOBBY_SCENE_H
#define TESTS_SERVICE_LOBBY_LOBBY_SCENE_H

#include <jansson.h>

#include "../../support/e2e.h"

/* A private database, the test clock at now, then pbemd. */
void lobby_start(e2e_server *s);

/* Moves the test clock by seconds (every process reads the file). */
void lobby_clock_advance(long long seconds);

/* Registers name with a fresh key. */
void lobby_register(const e2e_server *s, const char *name, e2e_player *p);

/* Gives p the rating in game that rated matches would have left them
 * with (deviation 60, 30 matches), written on the database as an admin
 * would: a scene of seekers of differing strength without playing the
 * dozens of matches it takes. */
void lobby_set_rating(const e2e_player *p, const char *game, double rating);

/* POST /v1/matches with body (JSON text) by p, which must answer 201;
 * the match's id into ref. */
void lobby_create(const e2e_server *s, const e2e_player *p, const char *body,
                  char ref[32]);

/* GET path (unsigned), which must answer 200; a new reference. */
json_t *lobby_get(const e2e_server *s, const char *path);

/* The row of list (an array of objects with "id") whose id is ref, or
 * NULL. Borrowed. */
const json_t *lobby_row(const json_t *list, const char *ref);

/* POST /v1/matches/{ref}/join by p; the response (free it). */
e2e_response lobby_join(const e2e_server *s, const char *ref,
                        const e2e_player *p);

/* Plays random legal moves of table t until its match is over (at most
 * max_moves); fails the test when it does not end. */
void lobby_play_to_the_end(e2e_table *t, int max_moves);

/* Waits (20 s at most, reading the match every 50 ms) until match ref
 * has status; fails the test saying what it waited for otherwise. */
const char *lobby_wait_status(const e2e_server *s, const char *ref,
                              const char *status);

#endif
