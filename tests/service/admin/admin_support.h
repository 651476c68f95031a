/* admin_support.h: what the admin suites share: the admin's key, matches
 * on a running server, exports split into lines and re-chained after an
 * edit, and a look at the outbox of the test's private database. */
#ifndef TESTS_SERVICE_ADMIN_ADMIN_SUPPORT_H
#define TESTS_SERVICE_ADMIN_ADMIN_SUPPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "../../support/e2e.h"

/* A fresh admin key pair (keyid "admin"); sets PBEM_ADMIN_KEY for servers
 * started afterwards. */
void admin_key(e2e_player *admin);

/* Writes admin's secret seed (base64) to a new file under dir; returns
 * its path (static buffer). */
const char *admin_key_file(const e2e_player *admin, const char *dir);

/* Like e2e_sit_down, on a server already running. */
void sit_down_on(e2e_table *t, const e2e_server *server, const char *game,
                 int seats);

/* GET /v1/admin/matches/{match}/export, which must answer 200 (malloc'd). */
char *export_of(const e2e_server *s, const char *match,
                const e2e_player *admin);

/* Starts *target on a new private database with source's service key, as
 * a second installation that an export is restored into. */
void start_beside(const e2e_server *source, e2e_server *target);

/* Replaces line i of split_lines' lines with value as compact JSON. */
void replace_line(char **lines, int i, const json_t *value);

/* POST /v1/admin/matches/import (query may be NULL or "?new_id=true"). */
e2e_response admin_import(const e2e_server *s, const char *text,
                          const char *query, const e2e_player *admin);

/* POST path with a JSON body, signed by admin. */
e2e_response admin_post(const e2e_server *s, const char *path, const char *body,
                        const e2e_player *admin);

/* Lines of an export (malloc'd strings; free with free_lines). */
char **split_lines(const char *text, int *count);
char *join_lines(char **lines, int count);
void free_lines(char **lines, int count);

/* Recomputes the hashes of lines[from…count) (events, lines[0] being the
 * header) after an edit, so only deeper checks can tell. */
void rechain(char **lines, int count, int from);

/* Index of the line of the first event of kind (from line 1), or -1. */
int line_of_kind(char **lines, int count, const char *kind);

/* Rows of the outbox of the test's database (DATABASE_URL) for match
 * (m_…) with reason: a JSON array of {"seq", "player" (p_…), "channel"}. */
json_t *outbox_rows(const char *match, const char *reason);

/* Runs SQL on the test's database (DATABASE_URL); it must succeed. */
void sql(const char *statement);

/* The environment for a server whose notifications are queued but not
 * sent: email configured (so every player with an address gets a row),
 * no outbox worker. */
void queue_only_notifications(void);

/* The usual start of these tests: libsodium, the admin key, notifications
 * only queued, a private database, a match of game with seats sat down
 * (options as for e2e_sit_down) and moves random moves played. */
void admin_scene(e2e_player *admin, e2e_table *t, const char *game, int seats,
                 const char *options, int moves);

/* Plays the first legal move of the seat that must act as text ({"seq",
 * "move": "…"}, as an email would); returns the event's seq. */
long long play_text_move(e2e_table *t);

/* system(command)'s exit code. */
int run(const char *command);

#endif
