/* chat_discord.h: Discord's interactions, read and answered
 * (POST /v1/chat/discord/interactions). Discord signs each one
 * (chat_verify.h); this reads it and answers in Discord's shapes:
 *   1 PING                   -> {"type": 1} (PONG)
 *   2 APPLICATION_COMMAND    /pbem <subcommand> with its options
 *                            -> 4 CHANNEL_MESSAGE_WITH_SOURCE
 *   3 MESSAGE_COMPONENT      a turn notice's "View my hand" button
 *                            (custom_id "pbem:view:m_12") -> 4 the view;
 *                            its "Make a move" (pbem:moves:m_12) -> 4 the
 *                            clicker's moves in a string select (at most
 *                            25, custom_id "pbem:move:m_12:SEAT"), or
 *                            "Not your seat"; a move chosen there -> 4
 *                            played as /pbem move, or "Not your seat"
 *                            when the clicker's link plays another seat
 *   4 APPLICATION_COMMAND_AUTOCOMPLETE  the focused "move" option
 *                            -> 8 with up to 25 legal moves as choices
 * Every message answered is ephemeral (flags 64: only the user who asked
 * sees it), mentions nobody (allowed_mentions parses none), and holds the
 * answer as an embed within Discord's limits (CHAT_DISCORD_* of
 * chat_formats.h). */
#ifndef SERVICE_CHAT_CHAT_DISCORD_H
#define SERVICE_CHAT_CHAT_DISCORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"

/* The interaction in body (already verified): its answer (new
 * reference), or NULL with err filled: 400 for a body that is not an
 * interaction, 503 when the database failed. */
json_t *chat_discord_answer(const char *body, size_t body_len, apierr *err);

/* The message answering a command with text (plain, a person's), as
 * Discord's interaction response {"type": 4, "data": {...}}: ephemeral,
 * the text as an embed's description in a code block, cut to fit. */
json_t *chat_discord_message(const char *title, const char *text);

#endif
