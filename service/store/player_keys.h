/* player_keys.h: players' keys (migrations/001_foundation.sql): the key id
 * of a public key, the check of a signing key, and the keys as their owner
 * manages them: list them, add one more, revoke one. Registration (the
 * first key with the player) is store_create_player (players.h). */
#ifndef SERVICE_STORE_PLAYER_KEYS_H
#define SERVICE_STORE_PLAYER_KEYS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

/* The key id the service gives an Ed25519 public key: "k_" and the hex of
 * its 8-byte BLAKE2b digest, so that a client can sign its registration
 * with the key id it is about to get. */
void store_key_id(const uint8_t public_key[32], char key_id[40]);

#define STORE_KEY_REVOKED_SIZE 40

/* The public key key_id names and its player, to check a signature by,
 * and when it was revoked ("2026-11-29 at 04:10 UTC"; "" while it is
 * not); 401 "unknown_key" when there is no such key. */
bool store_find_key(PGconn *conn, const char *key_id, uint8_t public_key[32],
                    long long *player_id, char revoked[STORE_KEY_REVOKED_SIZE],
                    apierr *err);

/* The player's keys, oldest first, as a new array of {"key_id",
 * "public_key" (standard base64), "name" (or null), "created_at",
 * "revoked_at" (RFC 3339 UTC, or null)}; NULL with err filled. */
json_t *store_player_keys_list(PGconn *conn, long long player_id,
                               apierr *err);

/* How many keys of the player are not revoked, or -1 with err filled. */
int store_player_keys_active(PGconn *conn, long long player_id, apierr *err);

/* Adds public_key (key id: store_key_id) to the player with name (NULL:
 * none), inside the caller's transaction; 409 "key_registered" when the
 * key, or a revoked key with its id, is registered already (the
 * transaction is then aborted). */
bool store_player_keys_add(PGconn *conn, long long player_id,
                           const uint8_t public_key[32], const char *name,
                           char key_id[40], apierr *err);

/* Revokes key_id of player_id; a key already revoked stays so (*was_active
 * false). 404 "no_such_key" when the player has no such key. */
bool store_player_keys_revoke(PGconn *conn, long long player_id,
                              const char *key_id, bool *was_active,
                              apierr *err);

#endif
