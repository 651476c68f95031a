/* players_scene.h: the scene of the players suite: a pbemd on a database
 * of its own with a test clock (clock.h), optionally sending mail to a
 * loopback SMTP receiver; players registered with or without an address;
 * requests signed by keys the server does not know yet (a browser about
 * to enrol); and the sign-in link read out of its mail. */
#ifndef TESTS_SERVICE_PLAYERS_PLAYERS_SCENE_H
#define TESTS_SERVICE_PLAYERS_PLAYERS_SCENE_H

#include <jansson.h>
#include <stdbool.h>

#include "../../support/e2e.h"
#include "../../support/receiver.h"

/* The test clock starts here (unix seconds). */
extern long long scene_t0;

/* A private database, the test clock at scene_t0, PBEM_PUBLIC_URL
 * https://pbem.example; with smtp not NULL, an SMTP receiver the server
 * mails to. Starts the server. */
void scene_start(e2e_server *s, receiver *smtp);

/* Moves the test clock (every process reads the file). */
void scene_clock(long long now);

/* Registers name and a fresh key, then gives it email (NULL: none) as if
 * its confirmation link had been opened (e2e_confirm_address): no mail. */
void scene_register(const e2e_server *s, const char *name, const char *email,
                    e2e_player *p);

/* An email-only player, as the mail door makes one (no key); its ref
 * "p_<id>" into ref. */
void scene_email_only_player(const char *name, const char *email,
                             char ref[32]);

/* A player struct holding a fresh key nobody has registered. */
void scene_new_key(e2e_player *p);

/* POST /v1/players/me/keys adding key's public key, with name and token
 * (NULL: left out), signed by signer. */
e2e_response scene_add_key(const e2e_server *s, const e2e_player *key,
                           const char *name, const char *token,
                           const e2e_player *signer);

/* POST /v1/players/sign-in-links {"email": email}, unsigned. */
e2e_response scene_ask_link(const e2e_server *s, const char *email);

/* Waits for the count-th mail (1-based) and returns the token of the
 * sign-in link in it (static buffer), checking that the mail went to
 * email. */
const char *scene_link_token(const receiver *smtp, size_t count,
                             const char *email);

/* A number from SQL on the test database (one row, one column). */
long long scene_sql_number(const char *sql, const char *param);

/* The string member key of object, or "(none)". */
const char *scene_member(const json_t *object, const char *key);

#endif
