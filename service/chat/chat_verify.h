/* chat_verify.h: is this request really from Discord or Slack? Both sign
 * what they send; a request whose signature does not hold, or is older
 * (or newer) than CHAT_VERIFY_WINDOW seconds, is refused before its body
 * is read, so a recorded request cannot be replayed later.
 *   Discord: X-Signature-Ed25519, the hex Ed25519 signature of
 *            X-Signature-Timestamp followed by the raw body, under the
 *            application's public key (hex, from the developer portal).
 *   Slack:   X-Slack-Signature, "v0=" and the hex HMAC-SHA256 of
 *            "v0:" X-Slack-Request-Timestamp ":" body under the app's
 *            signing secret, compared in constant time.
 * Pure: no I/O; now is unix seconds. */
#ifndef SERVICE_CHAT_CHAT_VERIFY_H
#define SERVICE_CHAT_CHAT_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"

/* Slack's own window (five minutes); Discord's requests are held to it
 * too. */
#define CHAT_VERIFY_WINDOW 300

/* Whether a Discord interaction is signed by public_key_hex. False with
 * err filled (401, the sentence saying which part failed). */
bool chat_verify_discord(const char *public_key_hex, const char *signature,
                         const char *timestamp, const char *body,
                         size_t body_len, long long now, apierr *err);

/* Whether a Slack request is signed with secret. False with err (401). */
bool chat_verify_slack(const char *secret, const char *signature,
                       const char *timestamp, const char *body, size_t body_len,
                       long long now, apierr *err);

#endif
