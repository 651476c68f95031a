/* chat_links.h: linking a Discord or Slack user to a player.
 *   POST /v1/players/me/chat-links   (signed by the player; the page and
 *                                     `pbem chat-link` ask it)
 * answers a one-time code, good for CHAT_LINKS_MINUTES; the player types
 * it in the chat (`/pbem link CODE`), and the chat user becomes a delegate
 * of the player (auth/chat_user.h): a grant to the chat user's key id
 * with scope view, move and join, for all the player's matches, for
 * DELEGATES_MAX_DAYS, listed and revoked with the player's other grants
 * (GET and DELETE /v1/players/me/delegates). A code is 10 letters and
 * digits of Crockford's base32 ("K7QM3-XPA9R"), read without regard to
 * case, dashes or spaces, and O, I and L as 0, 1 and 1. */
#ifndef SERVICE_PLAY_CHAT_LINKS_H
#define SERVICE_PLAY_CHAT_LINKS_H

#include <jansson.h>
#include <stdbool.h>

#include "core/apierr.h"

#define CHAT_LINKS_MINUTES 30
/* Codes one player may ask for in an hour. */
#define CHAT_LINKS_PER_HOUR 10

/* A new code for player_id: {"code", "expires", "how"} (new reference),
 * or NULL with err: 429 "too_many_codes" past the hourly count. */
json_t *chat_links_issue(long long player_id, apierr *err);

/* Spends code for the chat user key_id (of the chat door), whose name in
 * the chat is name (kept as the grant's name, cut to 80 bytes): the grant
 * it made, {"player", "grant", "expires"} (new reference). NULL with err:
 * 404 "no_such_code" when the code is unknown, used or expired (one
 * sentence for the three), 422 when the player has too many grants in
 * force. */
json_t *chat_links_redeem(const char *code, const char *key_id,
                          const char *name, apierr *err);

#endif
