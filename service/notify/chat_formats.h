/* chat_formats.h: what a webhook delivery's body looks like. "standard"
 * is the Standard Webhooks body (webhooks.h); "slack" and "discord" are
 * the JSON bodies those services' incoming webhooks accept, so a group
 * gets turn notices in its channel without running anything:
 *   slack:   {"text": mrkdwn, "unfurl_links": false}
 *   discord: {"content": markdown of at most 2000 characters,
 *             "allowed_mentions": {"parse": []}}
 * The text says what the match is (a link to <PBEM_PUBLIC_URL>/matches/
 * <id>), whose turn it is and what they must do (or that the match is
 * over), and the last move in words. Players' names and move texts are
 * escaped for each service (Slack's &, < and >; Discord's markdown, and
 * no mention can ping: allowed_mentions parses none). Pure: no I/O. */
#ifndef SERVICE_NOTIFY_CHAT_FORMATS_H
#define SERVICE_NOTIFY_CHAT_FORMATS_H

#include <jansson.h>
#include <stdbool.h>

typedef enum chat_format {
    CHAT_STANDARD,
    CHAT_SLACK,
    CHAT_DISCORD,
} chat_format;

/* Discord refuses a content longer than this (in characters). */
#define CHAT_DISCORD_MAX 2000

/* The format a name gives ("standard", "slack", "discord"); NULL is
 * standard. False for any other name. */
bool chat_format_parse(const char *name, chat_format *out);
const char *chat_format_name(chat_format format);

/* The body (malloc'd JSON text) for a chat format, from a notification's
 * payload (notify_outbox.h: type, match, game_title, players, seats,
 * prompt), the last move as "Name: move" (NULL: none yet) and the link to
 * the match. */
char *chat_body(chat_format format, const json_t *payload,
                const char *last_move, const char *match_url);

#endif
