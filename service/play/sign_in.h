/* sign_in.h: signing in by mail. A person who has an account (an email-only
 * player from the mail door, or the same person on another device) asks
 * for a link by address (POST /v1/players/sign-in-links); the account of
 * that address (the oldest, as the mail door finds it) is mailed
 * <PBEM_PUBLIC_URL>/sign-in/<token>, through the mail outbox
 * (notify/mail_answers.h). The token is 32 random bytes in unpadded
 * base64url; only its BLAKE2b-256 digest is kept (the mail's row in
 * the outbox loses the link once sent: migrations/011_sign_in.sql). It lets one new key into
 * that account (keys.h), once, within SIGN_IN_MINUTES of match time
 * (clock.h). The answer never says whether the address is known; past
 * SIGN_IN_PER_HOUR links an hour for one address, no more mail goes out
 * (logged). */
#ifndef SERVICE_PLAY_SIGN_IN_H
#define SERVICE_PLAY_SIGN_IN_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

#define SIGN_IN_MINUTES 15
#define SIGN_IN_PER_HOUR 5

/* POST /v1/players/sign-in-links {"email"}: {"status": "sent"} (new
 * reference) whether or not a mail went out; NULL with err filled for a
 * body without a usable address (400) or a database failure. */
json_t *sign_in_request_link(const json_t *body, apierr *err);

/* Spends token (the link's text) for key_id inside the caller's
 * transaction, filling *player_id with the account it was made for. False
 * with err filled: 400 "bad_sign_in_token" (not the shape of one), 401
 * "unknown_sign_in_token", 409 "sign_in_token_spent", 410
 * "sign_in_token_expired". */
bool sign_in_spend(PGconn *conn, const char *token, const char *key_id,
                   long long *player_id, apierr *err);

#endif
