/* chat_routes.c: see chat_routes.h. */
#include "http/chat_routes.h"

#include <time.h>

#include "chat/chat_discord.h"
#include "chat/chat_slack.h"
#include "chat/chat_verify.h"
#include "core/config.h"
#include "play/chat_links.h"

static const char *header(const route_call *call, const char *name)
{
    return MHD_lookup_connection_value(call->conn, MHD_HEADER_KIND, name);
}

void chat_routes_discord(const route_call *call, answer *out)
{
    apierr err;
    if (!chat_verify_discord(config_text(CONFIG_DISCORD_PUBLIC_KEY),
                             header(call, "X-Signature-Ed25519"),
                             header(call, "X-Signature-Timestamp"), call->body,
                             call->body_len, (long long)time(NULL), &err)) {
        answer_apierr(out, &err);
        return;
    }
    answer_result(out, 200,
                  chat_discord_answer(call->body, call->body_len, &err), &err);
}

static bool slack_signed(const route_call *call, answer *out)
{
    apierr err;
    if (chat_verify_slack(config_text(CONFIG_SLACK_SIGNING_SECRET),
                          header(call, "X-Slack-Signature"),
                          header(call, "X-Slack-Request-Timestamp"), call->body,
                          call->body_len, (long long)time(NULL), &err))
        return true;
    answer_apierr(out, &err);
    return false;
}

void chat_routes_slack_command(const route_call *call, answer *out)
{
    apierr err;
    if (slack_signed(call, out))
        answer_result(out, 200,
                      chat_slack_command(call->body, call->body_len, &err),
                      &err);
}

void chat_routes_slack_click(const route_call *call, answer *out)
{
    apierr err;
    if (slack_signed(call, out))
        answer_result(out, 200,
                      chat_slack_click(call->body, call->body_len, &err), &err);
}

void chat_routes_link_code(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 201, chat_links_issue(call->who->player_id, &err), &err);
}
