/* keys.h: a player's account and the keys that sign for it. A player
 * reads who they are, lists their keys (marking the one signing the
 * request), adds a key and revokes one. A key is added in one of two ways:
 * signed by one of the player's active keys (a second device the person
 * already holds a key on), or signed by the new key itself and carrying a
 * sign-in link's token (sign_in.h), which names the account: the way an
 * email-only player gets a first key, and a person without their old key
 * gets a new one. A revoked key is refused by auth from the next request
 * on (auth_forget_key). An account without an email address cannot
 * revoke its last active key: nothing could sign for it again. */
#ifndef SERVICE_PLAY_KEYS_H
#define SERVICE_PLAY_KEYS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "auth/caller.h"
#include "core/apierr.h"

#define KEYS_NAME_MAX 80

/* GET /v1/players/me: {"player_id", "name", "email" (or null)}. */
json_t *keys_me(const caller *who, apierr *err);

/* GET /v1/players/me/keys: {"keys": [...]}, oldest first, each with
 * "current": whether it signed this request. */
json_t *keys_list(const caller *who, apierr *err);

/* POST /v1/players/me/keys with public_key (already read from body).
 * by_new_key: the request is signed by that key (auth_enrolment) and body
 * must carry "sign_in_token"; otherwise who is an active key of the player
 * and body must not. "name" is optional (1 to KEYS_NAME_MAX bytes, no
 * control characters). The answer {"key_id", "player_id"} is kept with
 * the nonce. 400 "bad_key_name" / "bad_sign_in_token" /
 * "unexpected_sign_in_token", 401 "sign_in_token_required" and the token's
 * refusals (sign_in_spend), 409 "key_registered". */
json_t *keys_add(const caller *who, const json_t *body,
                 const uint8_t public_key[32], bool by_new_key, apierr *err);

/* DELETE /v1/players/me/keys/{key_id}: {"key": the key as keys_list
 * shows it, revoked} (or revoked already); 404 "no_such_key" for a key
 * that is not the player's, 409 "last_key" for the last active key of an
 * account without an email. */
json_t *keys_revoke(const caller *who, const char *key_id, apierr *err);

#endif
