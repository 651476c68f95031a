/* players.h: the players' rows (migrations/001_foundation.sql): a
 * registration with its first key, the email-only players of the mail
 * door, the account as its owner reads it, and the players an import
 * recreates. A player's keys after the
 * first are player_keys.h's. */
#ifndef SERVICE_STORE_PLAYERS_H
#define SERVICE_STORE_PLAYERS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/apierr.h"

typedef struct store_player {
    long long player_id;
    char name[81];
    char email[255]; /* "" when the player has none */
} store_player;

/* Reads player_id's row; with lock, holds it (FOR UPDATE) until the
 * caller's transaction ends, so that two changes to one account's keys
 * take turns. 404 "no_such_player" when there is none. */
bool store_player_load(PGconn *conn, long long player_id, bool lock,
                       store_player *out, apierr *err);

/* Inserts the player and its key inside the caller's transaction; 409
 * "key_registered" when the key is taken (the transaction is then
 * aborted). public_key NULL makes an email-only player (the email door:
 * mailbox possession is their authentication), key_id then "". */
bool store_create_player(PGconn *conn, const char *name, const char *email,
                         const uint8_t public_key[32], long long *player_id,
                         char key_id[40], apierr *err);

/* Import (import.h). */

/* Serialises the imports that recreate the same players: locks each of
 * ids until the transaction ends (in id order, so imports never deadlock). */
bool store_lock_players(PGconn *conn, const long long *ids, int count,
                        apierr *err);

/* Recreates a player with this id and key: reuses a player already present
 * with the same key id and key; 409 "player_conflict" when the id or the
 * key is present with something else. public_key NULL: an email-only
 * player, reused when the id is present. */
bool store_import_player(PGconn *conn, long long player_id, const char *name,
                         const char *email, const uint8_t public_key[32],
                         const char *key_id, apierr *err);

/* The oldest player whose address is email (case aside), as the mail door
 * and the sign-in links find a player by address: its id, 0 when there is
 * none, -1 with err filled on a database error. */
long long store_player_by_email(PGconn *conn, const char *email, apierr *err);

/* Holds player_id's row (FOR UPDATE) until the caller's transaction ends,
 * so that changes to one player's grants take turns; true also when there
 * is no such player. */
bool store_player_lock(PGconn *conn, long long player_id, apierr *err);

/* The address of player_id ("" when they have none) into email (size
 * bytes); *found false when there is no such player. */
bool store_player_address(PGconn *conn, long long player_id, char *email,
                          size_t size, bool *found, apierr *err);

/* Makes email the address of player_id (an address its owner confirmed:
 * play/email_links.h), inside the caller's transaction. */
bool store_player_set_email(PGconn *conn, long long player_id,
                            const char *email, apierr *err);

/* The player's name and the key their requests are checked with (their
 * oldest key that is not revoked: its standard base64 and its id); *found
 * false when there is no such player or they have no usable key. */
bool store_player_signing_key(PGconn *conn, long long player_id, char name[81],
                              char key_b64[64], char key_id[64], bool *found,
                              apierr *err);

#endif
