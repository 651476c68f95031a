/* chat_slack.h: Slack's slash command and clicks, read and answered.
 *   POST /v1/chat/slack/commands      /pbem <command> <arguments>, a form
 *                                     (application/x-www-form-urlencoded)
 *   POST /v1/chat/slack/interactions  a click on a turn notice's button, a
 *                                     form whose "payload" is JSON
 *                                     (block_actions): "View my hand"
 *                                     (pbem_view) answers the view; "Make a
 *                                     move" (pbem_moves) the clicker's
 *                                     moves in a static select (pbem_move,
 *                                     block_id "pbem_move:m_12:SEAT", at
 *                                     most 100); a move chosen there is
 *                                     played as /pbem move, or answered
 *                                     "Not your seat" when the clicker's
 *                                     link plays another seat
 * Both are signed with the app's signing secret (chat_verify.h). A
 * command is answered in the HTTP answer; a click is acknowledged with
 * 200 and answered by a POST to the click's response_url, which must
 * start with PBEM_SLACK_RESPONSE_URL (Slack's hooks), so a forged payload
 * cannot make the service call anywhere else. Every answer is
 * ephemeral ("response_type": "ephemeral": only the user who asked sees
 * it) in Block Kit, within Slack's limits (CHAT_SLACK_* of
 * chat_formats.h), with its plain text as "text" for notifications and
 * clients that show no blocks. */
#ifndef SERVICE_CHAT_CHAT_SLACK_H
#define SERVICE_CHAT_CHAT_SLACK_H

#include <jansson.h>
#include <stddef.h>

#include "core/apierr.h"

/* The answer to a slash command's form body (already verified): a new
 * reference ({} for Slack's ssl_check), or NULL with err: 400 a body that
 * is not a command, 503 when the database failed. The command's text is
 * read as typed: Slack's &amp;, &lt; and &gt; become &, < and >. */
json_t *chat_slack_command(const char *body, size_t body_len, apierr *err);

/* Handles a click's form body (already verified), posting its answer to
 * its response_url: the acknowledgement (new reference, an empty
 * object), or NULL with err: 400 a body that is not a click of pbem's,
 * 503 when the database failed. */
json_t *chat_slack_click(const char *body, size_t body_len, apierr *err);

/* The ephemeral Block Kit message for text (plain, a person's): sections
 * of a code block each, at most CHAT_SLACK_BLOCKS_MAX, each within
 * CHAT_SLACK_TEXT_MAX characters, and "text" the same cut to fit. */
json_t *chat_slack_message(const char *title, const char *text);

#endif
