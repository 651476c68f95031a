/* delegate.h: a bot's key acting for a player. The player grants the key
 * (play/delegates.h); the bot signs its requests with its own key and
 * names the player in a Pbem-On-Behalf-Of header that its signature
 * covers. Each request is held against the player's grants to that key as
 * they stand at that moment: what the route needs (scope), the match it
 * names, expiry and revocation. Nothing is cached, so a revocation takes
 * effect at the next request. */
#ifndef SERVICE_AUTH_DELEGATE_H
#define SERVICE_AUTH_DELEGATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "auth/caller.h"
#include "core/apierr.h"
#include "ledger/httpsig.h"
#include "store/delegate_grants.h"

/* The header naming the player, lower-case as signatures cover it. */
#define AUTH_ON_BEHALF_OF "pbem-on-behalf-of"

/* The match_id of a request that shows every match of the player (their
 * event stream): only a grant for "all" matches covers it. */
#define AUTH_DELEGATE_EVERY_MATCH (-1LL)

/* Checks a request carrying Pbem-On-Behalf-Of. scope is what the route
 * needs (STORE_GRANT_VIEW, _MOVE or _JOIN of store/delegate_grants.h), 0
 * when no delegate may call it; match_id the match the path names (0:
 * none; AUTH_DELEGATE_EVERY_MATCH: all of the player's). Fills *who as auth_player does, acting for the grant's player
 * (its signature material also records the header's value as
 * "on_behalf_of"), or returns false with err filled: 400 a header that
 * names no player, 401 a header the signature does not cover, a key that
 * player never granted or a signature that does not verify, 403 a grant
 * that is revoked, expired, or does not cover this request or match (the
 * sentence names which). */
bool auth_delegate(const httpsig_request *req, int64_t now, unsigned scope,
                   long long match_id, caller *who, apierr *err);

/* The first of grants (count > 0, newest first, of store/
 * delegate_grants.h) that allows scope in match_id at now, or NULL with
 * err filled (403) saying why the newest does not: revoked, expired, out
 * of scope or of its matches. Chat links are grants too (chat_user.h). */
const store_grant *auth_delegate_pick(const store_grant *grants, int count,
                                      unsigned scope, long long match_id,
                                      long long now, apierr *err);

/* What the events a delegated request makes record of it, {"player",
 * "key_id", "grant"} (new reference), or NULL when who signed for
 * themselves. */
json_t *auth_delegate_json(const caller *who);

#endif
