/* player_routes.c */
#include "http/player_routes.h"

#include <stdlib.h>
#include <string.h>

#include "notify/notify_outbox.h"
#include "notify/notify_settings.h"
#include "notify/webhooks.h"
#include "play/delegates.h"
#include "play/email_links.h"
#include "play/keys.h"
#include "play/my_matches.h"
#include "play/players.h"
#include "play/sign_in.h"
#include "play/vacations.h"

/* A page (malloc'd HTML, taken over), or the error that stood for it. */
static void answer_page(answer *out, char *page, const apierr *err)
{
    if (page == NULL) {
        answer_apierr(out, err);
        return;
    }
    out->status = 200;
    out->body = page;
    out->content_type = "text/html; charset=utf-8";
}

void player_routes_register(const route_call *call, answer *out)
{
    apierr err;
    json_t *player =
        players_register(call->who, call->request, call->new_key, &err);
    answer_result(out, 201, player, &err);
}

void player_routes_sign_in_link(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 202, sign_in_request_link(call->request, &err), &err);
}

void player_routes_me(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, keys_me(call->who, &err), &err);
}

void player_routes_change_email(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = email_links_request(call->who, call->request, &err);
    /* 202 when a link went out: the change waits for it. */
    answer_result(out,
                  json_object_get(result, "email_pending") != NULL ? 202 : 200,
                  result, &err);
}

/* The link in the mail: a page whose button POSTs, so that a program
 * following links in mail confirms nothing. */
void player_routes_email_page(const route_call *call, answer *out)
{
    apierr err;
    answer_page(out, email_links_page(route_query(call, "token"), &err), &err);
}

void player_routes_confirm_email(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = email_links_confirm(route_query(call, "token"), &err);
    /* The confirmation page's button: a person reads the answer. */
    bool page = result != NULL && call->body != NULL &&
                memmem(call->body, call->body_len, EMAIL_LINKS_PAGE_FIELD,
                       strlen(EMAIL_LINKS_PAGE_FIELD)) != NULL;
    if (page) {
        char *html = email_links_confirmed_page(result);
        json_decref(result);
        answer_page(out, html, &err);
        return;
    }
    answer_result(out, 200, result, &err);
}

void player_routes_my_matches(const route_call *call, answer *out)
{
    apierr err;
    json_t *list =
        my_matches_list(call->who, route_query(call, "status"), &err);
    answer_result(out, 200, list, &err);
}

void player_routes_keys(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, keys_list(call->who, &err), &err);
}

/* call->new_key is set when the new key signed for itself (routes.c). */
void player_routes_add_key(const route_call *call, answer *out)
{
    apierr err;
    uint8_t public_key[32];
    json_t *added = NULL;
    if (players_registration_key(call->request, public_key, &err))
        added = keys_add(call->who, call->request, public_key,
                         call->new_key != NULL, &err);
    answer_result(out, 201, added, &err);
}

void player_routes_revoke_key(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, keys_revoke(call->who, call->params->id, &err),
                  &err);
}

/* The link in every mail: the player and a token, no signature. */
void player_routes_unsubscribe_page(const route_call *call, answer *out)
{
    apierr err;
    answer_page(out,
                notify_settings_unsubscribe_page(route_query(call, "player"),
                                                 route_query(call, "token"),
                                                 &err),
                &err);
}

void player_routes_unsubscribe(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = notify_settings_unsubscribe(
        route_query(call, "player"), route_query(call, "token"), &err);
    /* The unsubscribe page's button: a person reads the answer. */
    bool page = result != NULL && call->body != NULL &&
                memmem(call->body, call->body_len, NOTIFY_SETTINGS_PAGE_FIELD,
                       strlen(NOTIFY_SETTINGS_PAGE_FIELD)) != NULL;
    if (page) {
        json_decref(result);
        answer_page(out, notify_settings_unsubscribed_page(), &err);
        return;
    }
    answer_result(out, 200, result, &err);
}

void player_routes_vacations(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, vacations_list(call->who->player_id, &err), &err);
}

void player_routes_declare_vacation(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 201, vacations_declare(call->who, call->request, &err),
                  &err);
}

void player_routes_cancel_vacation(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        vacations_cancel(call->who->player_id, call->params->id, &err);
    answer_result(out, 200, result, &err);
}

void player_routes_notifications(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, notify_outbox_mine(call->who->player_id, &err),
                  &err);
}

void player_routes_settings(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, notify_settings_get(call->who->player_id, &err),
                  &err);
}

void player_routes_put_settings(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        notify_settings_put(call->who->player_id, call->request, &err);
    answer_result(out, 200, result, &err);
}

void player_routes_webhooks(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, webhooks_list(call->who->player_id, &err), &err);
}

void player_routes_register_webhook(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = webhooks_register_once(call->who, 0, call->request, &err);
    answer_result(out, 201, result, &err);
}

void player_routes_disable_webhook(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        webhooks_disable_mine(call->who->player_id, call->params->id, &err);
    answer_result(out, 200, result, &err);
}

void player_routes_delegates(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, delegates_list(call->who->player_id, &err), &err);
}

void player_routes_grant_delegate(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 201, delegates_grant(call->who, call->request, &err),
                  &err);
}

void player_routes_revoke_delegate(const route_call *call, answer *out)
{
    apierr err;
    if (!delegates_revoke(call->who->player_id, call->params->id, &err)) {
        answer_apierr(out, &err);
        return;
    }
    out->status = 204;
    out->body = strdup("");
    if (out->body == NULL)
        abort();
    out->content_type = "text/plain; charset=utf-8";
}
