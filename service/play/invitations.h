/* invitations.h: inviting someone to a match by mail. A seated player, or
 * the match's creator, invites an address while the match is open (it has
 * a free seat): POST /v1/matches/{id}/invitations {"email", "name"}. The
 * invitation is a row of invitations and, in the same transaction, a
 * mail (notify/mail_answers.h, kind "invitation") that says what the game
 * is and that answering "join" takes a seat. Its Reply-To is a
 * single-use address naming the invitation (auth/reply_token.h); the
 * mailin/ handler seats whoever answers it. */
#ifndef SERVICE_PLAY_INVITATIONS_H
#define SERVICE_PLAY_INVITATIONS_H

#include <jansson.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* An invitation's public id: "inv_<id>". */
void invitations_ref(long long invitation_id, char out[32]);

/* Invites body's "email" (at most 254 bytes, an address that can go into
 * a mail header) under body's "name" (1 to 80 bytes; no control
 * characters in either) to match_id, on behalf of who. The answer,
 * {"invitation": "inv_<id>", "match": "m_<id>", "email", "name"}, is
 * stored with the request's nonce (play/retry.h). NULL with err filled:
 * 400 bad_email or bad_name, 403 not_allowed (neither seated nor the
 * creator), 404 no_such_match, 409 not_open (the match has started,
 * ended or was aborted) or match_full. */
json_t *invitations_create(const caller *who, long long match_id,
                           const json_t *body, apierr *err);

#endif
