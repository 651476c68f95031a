/* e2e.h: drive the real pbemd binary over real sockets. Starts the server
 * on a free loopback port against the test database, registers players
 * with fresh Ed25519 keys, and sends requests signed per RFC 9421 (through
 * the pbem client library) or deliberately unsigned/tampered ones. Every
 * helper fails the running Criterion test when the server does not answer. */
#ifndef TESTS_SUPPORT_E2E_H
#define TESTS_SUPPORT_E2E_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "client.h"

typedef struct e2e_server {
    pid_t pid;
    int port;
    char key_file[256];
    client *http;
} e2e_server;

typedef struct e2e_player {
    char id[32];
    char name[32];
    client_key key;
} e2e_player;

typedef client_response e2e_response;

/* Starts pbemd ($PBEM_BIN) and waits for its "serving on" line. A key file
 * may be reused across restarts by passing the same server struct again
 * with key_file already set. With PBEM_E2E_SERVER_LOG naming a file,
 * pbemd's log (its stderr) is appended there instead of to the test's. */
void e2e_start(e2e_server *server);
/* SIGTERM, then waits; returns the exit status. */
int e2e_stop(e2e_server *server);

/* Registers a player with a fresh key pair, then gives it the address
 * player@example.org as if its confirmation link had been opened
 * (e2e_confirm_address), so no confirmation mail goes out. */
void e2e_register(const e2e_server *server, const char *name,
                  e2e_player *player);

/* Makes email the address of player_ref ("p_…") on the database of
 * DATABASE_URL, as opening the confirmation link mailed to it does
 * (play/email_links.h): for tests whose players read their mail but are
 * not about that link. */
void e2e_confirm_address(const char *player_ref, const char *email);

/* With PBEM_E2E_RECORD set, appends item (borrowed), one item a test read
 * from an event stream, for the check of stream items against openapi.yaml
 * (tests/node/check-responses.mjs). */
void e2e_record_stream_item(const json_t *item);

/* A request; signer NULL sends it unsigned. body may be NULL. */
e2e_response e2e_call(const e2e_server *server, const char *method,
                      const char *path, const char *body,
                      const e2e_player *signer);

/* Full control for hostile tests: extra_headers (NULL-terminated "Name:
 * value" strings) are added; created/nonce chosen by the caller (nonce NULL:
 * random). */
e2e_response e2e_call_signed(const e2e_server *server, const char *method,
                             const char *path, const char *body,
                             const e2e_player *signer, int64_t created,
                             const char *nonce, const char *const *extra_headers,
                             bool tamper_body_after_signing);

/* A request signed by key (NULL: unsigned) with the client's options (a
 * bot's Pbem-On-Behalf-Of, extra headers…), recorded like every other. */
e2e_response e2e_call_with(const e2e_server *server, const char *method,
                           const char *path, const char *body,
                           const client_key *key,
                           const client_send_options *options);

void e2e_response_free(e2e_response *response);

/* A match being played over HTTP by e2e players. */
typedef struct e2e_table {
    e2e_server server;
    e2e_player players[8];
    int seats;
    char match[32];
} e2e_table;

/* Starts a server, registers seats players, creates a match of game with
 * options (JSON text or NULL) and seats everyone; the match is active. */
void e2e_sit_down(e2e_table *t, const char *game, int seats,
                  const char *options);

/* The same at t->server, a server already there (t->server.http set, as
 * a test that reaches pbemd through a proxy makes it). */
void e2e_seat_players(e2e_table *t, const char *game, int seats,
                      const char *options);

/* GET /v1/matches/{id}<suffix> (signed by signer unless NULL), which must
 * answer 200; returns the JSON (caller decrefs). */
json_t *e2e_get(const e2e_table *t, const char *suffix,
                const e2e_player *signer);

/* The seq of the match's last event (its public head). */
long long e2e_head_seq(const e2e_table *t);

/* The first seat that must act now, or -1. */
int e2e_first_pending_seat(const json_t *match);

/* POST .../moves {"seq": seq, "action": action} signed by seat's player. */
e2e_response e2e_post_move(const e2e_table *t, int seat, long long seq,
                           const json_t *action);

/* Plays one random legal move of a seat that must act (a sealed choice
 * when a secret decision is open); false once the match is finished. */
bool e2e_play_one(e2e_table *t);

/* The whole public log of the match, page by page (caller decrefs). */
json_t *e2e_all_events(const e2e_table *t);

/* Creates a database without rows on DATABASE_URL's server and points
 * this test process's DATABASE_URL at it (servers started afterwards use
 * it), so a test can read "the whole database" of its own match. It is a
 * copy of PBEM_TEST_TEMPLATE when set (scripts/test.sh's migrated one),
 * else empty. name receives the database's name. */
void e2e_private_database(char *name, size_t size);

/* A fresh admin key as a signer (keyid "admin"), made pbemd's admin key
 * through PBEM_ADMIN_KEY for the servers started afterwards. */
void e2e_admin_key(e2e_player *admin);

/* The error code of an error answer, or "(no error code)". */
const char *e2e_error_code(const e2e_response *r);

#endif
