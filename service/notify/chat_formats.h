/* chat_formats.h: what a webhook delivery's body looks like. "standard"
 * is the Standard Webhooks body (webhooks.h); "slack" and "discord" are
 * the JSON bodies those services' incoming webhooks accept, so a group
 * gets turn notices in its channel without running anything:
 *   slack:   {"text": mrkdwn, "unfurl_links": false, "blocks": [a section
 *             of the same mrkdwn, and while seats must act an actions
 *             block with the buttons "View my hand" (action_id pbem_view,
 *             value the match) and "Make a move" (pbem_moves)]}; "text" is
 *             the fallback notifications and block-less clients show
 *   discord: {"content": what the match waits for, at most 2000
 *             characters, "embeds": [{"title": game and match, "url": the
 *             match, "description": the last move}], "components": while
 *             seats must act, the buttons "View my hand" (custom_id
 *             "pbem:view:<match>") and "Make a move" ("pbem:moves:<match>"),
 *             "allowed_mentions": {"parse": []}}
 * The buttons answer the one who clicks with their own seat's view, or
 * its legal moves to choose from, privately (chat/): which moves a seat
 * has may tell what it holds, so the channel never lists them. The text says
 * what the match is (a link to <PBEM_PUBLIC_URL>/matches/<id>), whose turn it
 * is and what they must do (or that the match is over), and the last move in
 * words; never a hand. Players' names and move texts are escaped for each
 * service (Slack's &, < and >; Discord's markdown, and no mention can ping:
 * allowed_mentions parses none). Pure: no I/O. */
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
/* Discord's limits on embeds: a title, a description, and all the text
 * of a message's embeds together (characters). */
#define CHAT_DISCORD_TITLE_MAX 256
#define CHAT_DISCORD_DESCRIPTION_MAX 4096
#define CHAT_DISCORD_EMBEDS_MAX 6000
/* Slack's limits: blocks in a message, characters in a section's text. */
#define CHAT_SLACK_BLOCKS_MAX 50
#define CHAT_SLACK_TEXT_MAX 3000

/* text cut to at most max characters (UTF-8 code points), ending in "…"
 * when it was longer; malloc'd. */
char *chat_fit(const char *text, size_t max);

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
