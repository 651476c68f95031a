/* player_config.h: what the player commands of pbem keep between runs, in
 * one folder ($XDG_CONFIG_HOME/pbem, else ~/.config/pbem, mode 0700):
 *
 *   key            the Ed25519 seed in base64 (mode 0600), made by keygen
 *   player.json    {"player_id", "key_id", "name"} once registered
 *   seen/MATCH     the head seq of MATCH when its view was last shown,
 *                  the seq `pbem move` decides on
 *
 * Every function that fails prints one sentence on stderr first.
 */
#ifndef CLI_PLAYER_CONFIG_H
#define CLI_PLAYER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "client.h"

/* The folder (size bytes), without creating it; false when neither
 * XDG_CONFIG_HOME nor HOME is set. */
bool player_config_dir(char *dir, size_t size);

/* Whether the key file exists. */
bool player_config_has_key(void);

/* Writes a new key (the folder made 0700, the file 0600), replacing an
 * existing one only when force. Fills key (its key id included). */
bool player_config_new_key(bool force, client_key *key);

/* Reads the key and, when registered, its key id from player.json
 * (else the id the service will give it). False when there is no key. */
bool player_config_key(client_key *key);

/* Stores the registration. */
bool player_config_save_player(const char *player_id, const char *key_id,
                               const char *name);

/* The registered player id (size bytes); false when not registered
 * (no sentence printed). */
bool player_config_player_id(char *player_id, size_t size);

/* The seq remembered for match, or -1. */
long long player_config_seen(const char *match);

/* Remembers seq for match. */
bool player_config_remember(const char *match, long long seq);

/* Whether text is a plausible match id (letters, digits, '_' and '-',
 * at most 40): it becomes part of paths and file names. */
bool player_config_match_id_ok(const char *text);

#endif
