/* delegates.h: a player's grants to bots' keys (see auth/delegate.h for
 * how a bot's request is checked against them).
 *   POST   /v1/players/me/delegates {"public_key", "name", "scope",
 *          "matches", "expires"}   (signed by the player's own key)
 *   GET    /v1/players/me/delegates
 *   DELETE /v1/players/me/delegates/{d_<n>}
 * The grant request is kept whole, signature and body, so that an export
 * of a match a bot played in carries the player's own signed word for it
 * (admin/export.h, ledger/export_check.h). */
#ifndef SERVICE_PLAY_DELEGATES_H
#define SERVICE_PLAY_DELEGATES_H

#include <jansson.h>
#include <stdbool.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* A grant lasts at most this long. */
#define DELEGATES_MAX_DAYS 366
/* Grants in force per player. */
#define DELEGATES_MAX 50

/* Grants the key body names to act for who's player; the answer (the
 * grant, with its delegate_id and the bot's key_id) is stored with the
 * request's nonce. 400 a body that is not a grant (the sentence names the
 * field), 422 the player's own key, an expiry past or too far, too many
 * grants. */
json_t *delegates_grant(const caller *who, const json_t *body, apierr *err);

/* The player's grants, newest first, revoked and expired ones included:
 * {"delegates": [...]}. */
json_t *delegates_list(long long player_id, apierr *err);

/* Revokes the player's grant ref ("d_<n>") from now on; revoking it again
 * changes nothing. 404 when the player has no such grant. */
bool delegates_revoke(long long player_id, const char *ref, apierr *err);

/* Records in event's data (borrowed) who acted when who is a bot's key
 * acting for a player: "delegate": {"player", "key_id", "grant"}
 * (auth_delegate_json). Nothing when the player signed. */
void delegates_note(const caller *who, json_t *event);

#endif
