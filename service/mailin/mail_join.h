/* mail_join.h: "join", answering an invitation by mail. The invited
 * address becomes a player (the one already registered with it; the one
 * registered on the web with it whose confirmation link is still unopened,
 * the answer confirming the address as the link would (mail_pending.h); or
 * a new email-only player named as the invitation says: no key, mailbox
 * possession is their authentication), who then joins the match like any
 * other player. */
#ifndef SERVICE_MAILIN_MAIL_JOIN_H
#define SERVICE_MAILIN_MAIL_JOIN_H

#include <stdbool.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* Accepts invitation_id: the join is the request base (its nonce and
 * digest; the player is filled in here), so doing it again answers the
 * same seat. False with err filled: 404 no such invitation, the join's
 * refusals (409 match full or started). */
bool mail_join_accept(long long invitation_id, const caller *base,
                      long long *match_id, long long *player_id, int *seat,
                      apierr *err);

/* The player registered with address (the oldest, if several), or 0; -1
 * with err filled when the database failed. */
long long mail_join_player_of(const char *address, apierr *err);

#endif
