/* scene.h: what the deadline tests set up: a private database, a test
 * clock file every pbemd of the test reads (clock.h), servers sharing the
 * service key, matches created with deadline options, and bounded waits on
 * what the servers do (no sleeping on a guess). */
#ifndef TESTS_SERVICE_DEADLINES_SCENE_H
#define TESTS_SERVICE_DEADLINES_SCENE_H

#include <jansson.h>
#include <stdbool.h>

#include "../../support/notify_scene.h"

#define HOUR 3600LL
#define DAY (24 * HOUR)
/* Match time at the start of every scene: 2030-01-01T00:00:00Z. */
#define T0 1893456000LL

/* A private database, the notification settings of the notify suite, a
 * fast deadline worker, and the test clock at T0. */
void scene_env(void);

/* Moves the test clock (rewritten atomically: every process reads it). */
void scene_clock(long long now);

/* Starts another pbemd on the same database with first's service key. */
void scene_start_twin(e2e_server *twin, const e2e_server *first);

/* Creates a match of game for seats players (players[0] creates, the
 * others join, all through s) with the given "deadline" JSON text (NULL:
 * none); match receives its id. */
void scene_match(const e2e_server *s, const e2e_player *players, int seats,
                 const char *game, const char *deadline, char match[32]);

/* The same with the game's options (JSON text or NULL: the defaults). */
void scene_match_options(const e2e_server *s, const e2e_player *players,
                         int seats, const char *game, const char *options,
                         const char *deadline, char match[32]);

/* The public view of a match (caller decrefs). */
json_t *scene_public(const e2e_server *s, const char *match);

/* The match's events of kind (caller decrefs). */
json_t *scene_events(const e2e_server *s, const char *match, const char *kind);

/* Waits up to seconds until the match has at least count events of kind;
 * returns them. */
json_t *scene_wait_events(const e2e_server *s, const char *match,
                          const char *kind, size_t count, int seconds);

/* A counter of s's /metrics ("pbem_deadline_rounds_total"). */
long long scene_metric(const e2e_server *s, const char *name);

/* Waits until s's deadline worker has begun and finished passes more
 * passes: after that it has looked at the clock as it is now. */
void scene_worker_passes(const e2e_server *s, int passes);

/* A number from SQL on the test's database. */
long long scene_sql_number(const char *sql);

/* The seat's clock entry in a public view (borrowed), or NULL. */
json_t *scene_clock_of(const json_t *view, int seat);

/* A unix time from a view's RFC 3339 string. */
long long scene_time(const json_t *text);

#endif
