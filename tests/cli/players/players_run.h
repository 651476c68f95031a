/* players_run.h: people playing with the built `pbem` binary ($PBEM_CLI,
 * else build/pbem) against a real pbemd with a private database.
 *
 * Each person has their own configuration folder (XDG_CONFIG_HOME), so
 * two people on one machine are two players. With PBEM_CLI_TRANSCRIPT set
 * to a file, every command and what it printed is appended there, as a
 * terminal would show it ("alice$ pbem view m_12"): docs/playing.md's
 * transcript comes from it.
 */
#ifndef TESTS_CLI_PLAYERS_PLAYERS_RUN_H
#define TESTS_CLI_PLAYERS_PLAYERS_RUN_H

#include <stdbool.h>

#include "../../support/e2e.h"

typedef struct pl_person {
    char name[32];         /* "alice": the prompt of the transcript */
    char config_home[256]; /* their XDG_CONFIG_HOME */
} pl_person;

typedef struct pl_result {
    int status; /* exit status, or -1 when it did not exit normally */
    char *out;  /* standard output (malloc'd, never NULL) */
    char *err;  /* standard error (malloc'd, never NULL) */
} pl_result;

/* A person with an empty configuration folder of their own. */
void pl_person_new(pl_person *person, const char *name);

/* Starts pbemd on a private database; returns its URL in url (64). */
void pl_server(e2e_server *server, char *url);

/* Runs `pbem ARGS…` (NULL-terminated, without "pbem") as person against
 * url (NULL: PBEM_URL unset, so pbem's default). */
pl_result pl_run(const pl_person *person, const char *url,
                 const char *const *args);
void pl_free(pl_result *r);

/* A `pbem ARGS…` left running (watch), its output going to a file. */
typedef struct pl_background {
    int pid;
    int out; /* the file standard output goes to */
} pl_background;

/* Starts `pbem ARGS…` as person against url and returns at once. */
pl_background pl_start(const pl_person *person, const char *url,
                       const char *const *args);

/* Waits up to 20 seconds for text to appear in its output; false if it
 * did not. */
bool pl_wait_for(const pl_background *b, const char *text);

/* Waits for it to exit (sending signal first unless 0); returns the
 * exit status and fills *out with all it printed (malloc'd). */
int pl_finish(pl_background *b, int signal_number, char **out);

/* keygen then register NAME; asserts both succeed. */
void pl_sign_up(const pl_person *person, const char *url, const char *name);

/* `pbem new GAME --seats N` by person; returns the match id (static). */
const char *pl_new_match(const pl_person *person, const char *url,
                         const char *game, int seats);

/* The first move `pbem view` lists under "Your move", or NULL when the
 * output lists none. malloc'd. */
char *pl_first_move(const char *view_output);

/* The number after the last "seq " line of a view's output. */
long long pl_seq(const char *view_output);

#endif
