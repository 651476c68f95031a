/* chat_user.h: who a Discord or Slack user is here. A chat user is known
 * by a key id of its own ("discord:<user id>", "slack:<team>:<user id>");
 * a player links it with a one-time code (play/chat_links.h), which makes
 * it a delegate of that player: a grant (store/delegate_grants.h) with a
 * scope, matches and an expiry, that the player can revoke like any
 * other. The platform's signature on the interaction (chat/chat_verify.h)
 * says the user is who the platform says; the grant says for whom they
 * act. Nothing is cached: a revocation holds at the next interaction. */
#ifndef SERVICE_AUTH_CHAT_USER_H
#define SERVICE_AUTH_CHAT_USER_H

#include <stdbool.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* A chat user has at most this many links looked at (relinked to another
 * account, renewed): the newest decide. */
#define AUTH_CHAT_LINKS_MAX 8

/* Fills who for the chat user key_id acting through the newest of its
 * links that allows scope (STORE_GRANT_*) in match_id (0: no match in
 * particular): player_id, key_id and delegate_id; nonce, digest and
 * signature are left for the caller. False with err filled: 401
 * "not_linked" when no player linked this user, 403 when no link allows
 * it (the newest one's reason), 5xx on a database failure. */
bool auth_chat_user(const char *key_id, unsigned scope, long long match_id,
                    caller *who, apierr *err);

#endif
