/* chat_routes.h: the chat platforms' doors (chat/) and the codes that
 * link a chat user to a player (play/chat_links.h). The platforms' routes
 * are open to anyone: each checks the platform's own signature on the
 * raw body before reading it (chat/chat_verify.h), and refuses a bad or
 * stale one with 401, as Discord requires. */
#ifndef SERVICE_HTTP_CHAT_ROUTES_H
#define SERVICE_HTTP_CHAT_ROUTES_H

#include "http/route_call.h"

/* POST /v1/chat/discord/interactions: Discord's interactions
 * (chat/chat_discord.h); 401 when X-Signature-Ed25519 does not hold. */
route_handler chat_routes_discord;

/* POST /v1/chat/slack/commands and /v1/chat/slack/interactions
 * (chat/chat_slack.h); 401 when X-Slack-Signature does not hold. */
route_handler chat_routes_slack_command;
route_handler chat_routes_slack_click;

/* POST /v1/players/me/chat-links (signed by the player): 201 {"code",
 * "expires", "how"}, 429 past the hourly count. */
route_handler chat_routes_link_code;

#endif
