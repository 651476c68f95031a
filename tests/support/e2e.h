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
    char key_file[64];
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
 * with key_file already set. */
void e2e_start(e2e_server *server);
/* SIGTERM, then waits; returns the exit status. */
int e2e_stop(e2e_server *server);

/* Registers a player with a fresh key pair. */
void e2e_register(const e2e_server *server, const char *name,
                  e2e_player *player);

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

void e2e_response_free(e2e_response *response);

#endif
