/* email_links.c: confirming an account's address by a mailed link
 * (email_links.h). */
#include "play/email_links.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "notify/mail.h"
#include "play/mailed_link.h"
#include "store/db.h"
#include "store/email_confirmations.h"
#include "store/players.h"
#include "store/store.h"

#define TOKEN_BYTES 32
#define TOKEN_VARIANT sodium_base64_VARIANT_URLSAFE_NO_PADDING
#define TOKEN_CHARS (sodium_base64_ENCODED_LEN(TOKEN_BYTES, TOKEN_VARIANT) - 1)
#define EMAIL_MAX_LEN 254

/* The mail with the link, queued inside the caller's transaction. */
static bool queue_mail(PGconn *conn, const char *name, const char *email,
                       const char *token, apierr *err)
{
    char link[600], hours[16];
    snprintf(link, sizeof link, "%s/confirm-email?token=%s",
             config_text(CONFIG_PUBLIC_URL), token);
    snprintf(hours, sizeof hours, "%d", EMAIL_LINKS_HOURS);
    templates_var vars[] = {
        {"player", name}, {"email", email}, {"link", link}, {"hours", hours}};
    return mailed_link_queue(conn, "email_confirmation.txt", vars,
                             sizeof vars / sizeof *vars,
                             "Confirm your address for pbem", email,
                             "email_confirmation", err);
}

bool email_links_offer(PGconn *conn, long long player_id, const char *name,
                       const char *email, apierr *err)
{
    long long now = clock_now();
    int recent = store_email_confirmations_since(conn, email, now - 3600, err);
    if (recent < 0)
        return false;
    char ref[32];
    store_player_ref(player_id, ref);
    if (recent >= EMAIL_LINKS_PER_HOUR) {
        log_warn("address confirmation for player %s not mailed: already %d "
                 "in the last hour for that address",
                 ref, recent);
        return true;
    }
    uint8_t token[TOKEN_BYTES], digest[EMAIL_CONFIRMATIONS_DIGEST_BYTES];
    char text[TOKEN_CHARS + 1];
    randombytes_buf(token, sizeof token);
    crypto_generichash(digest, sizeof digest, token, sizeof token, NULL, 0);
    sodium_bin2base64(text, sizeof text, token, sizeof token, TOKEN_VARIANT);
    sodium_memzero(token, sizeof token);
    bool ok = store_email_confirmations_insert(
                  conn, player_id, email, digest, now,
                  now + EMAIL_LINKS_HOURS * 3600LL, err) &&
              queue_mail(conn, name, email, text, err);
    sodium_memzero(text, sizeof text);
    if (ok)
        log_info("address confirmation mailed for player %s", ref);
    return ok;
}

json_t *email_links_request(const caller *who, const json_t *body, apierr *err)
{
    const json_t *email_json = json_object_get(body, "email");
    const char *email = json_string_value(email_json);
    if (email == NULL || json_string_length(email_json) != strlen(email) ||
        strlen(email) > EMAIL_MAX_LEN || !mail_address_ok(email)) {
        apierr_set(err, 400, "bad_email",
                   "email must be an address like name@example.org (at most "
                   "%d characters)",
                   EMAIL_MAX_LEN);
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    /* The row held: two requests at once count each other's links. */
    store_player player;
    if (!store_player_load(conn, who->player_id, true, &player, err))
        goto fail;
    json_t *current = player.email[0] ? json_string(player.email) : json_null();
    if (strcasecmp(player.email, email) == 0) {
        store_rollback(conn);
        return json_pack("{s:o}", "email", current);
    }
    if (!email_links_offer(conn, who->player_id, player.name, email, err) ||
        !store_commit(conn, err)) {
        json_decref(current);
        goto fail;
    }
    return json_pack("{s:o,s:s}", "email", current, "email_pending", email);
fail:
    store_rollback(conn);
    return NULL;
}

/* The link of token, locked in the caller's transaction, if it may still
 * be used; false with err filled otherwise. */
static bool usable_link(PGconn *conn, const char *token,
                        store_email_confirmation *link, apierr *err)
{
    uint8_t raw[TOKEN_BYTES], digest[EMAIL_CONFIRMATIONS_DIGEST_BYTES];
    size_t len = 0;
    if (token == NULL || strlen(token) != TOKEN_CHARS ||
        sodium_base642bin(raw, sizeof raw, token, strlen(token), NULL, &len,
                          NULL, TOKEN_VARIANT) != 0 ||
        len != TOKEN_BYTES)
        return apierr_set(err, 400, "bad_email_token",
                          "this is not a confirmation link: token must be "
                          "the %d characters after token= in the link of a "
                          "confirmation mail",
                          (int)TOKEN_CHARS);
    crypto_generichash(digest, sizeof digest, raw, sizeof raw, NULL, 0);
    sodium_memzero(raw, sizeof raw);
    bool found = false;
    if (!store_email_confirmations_find(conn, digest, link, &found, err))
        return false;
    if (!found)
        return apierr_set(err, 404, "unknown_email_token",
                          "this confirmation link is not one of ours: ask "
                          "for a new one in your settings");
    if (link->confirmed)
        return apierr_set(err, 409, "email_token_spent",
                          "this link was used already: %s is your "
                          "account's address",
                          link->email);
    if (clock_now() >= link->expires)
        return apierr_set(err, 410, "email_token_expired",
                          "this confirmation link expired (it is good for %d "
                          "hours): ask for a new one in your settings",
                          EMAIL_LINKS_HOURS);
    return true;
}

char *email_links_page(const char *token, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    store_email_confirmation link;
    store_player player;
    bool ok = usable_link(conn, token, &link, err) &&
              store_player_load(conn, link.player_id, false, &player, err);
    store_rollback(conn);
    if (!ok)
        return NULL;
    char action[200];
    snprintf(action, sizeof action, "/v1/email-confirmations?token=%s", token);
    templates_var vars[] = {
        {"action", action}, {"email", link.email}, {"player", player.name}};
    return templates_render_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>Confirm your address</title></head><body>\n"
        "<p>Use {{email}} for the pbem account named \"{{player}}\": its "
        "turn notices, invitations and sign-in links go there from now on."
        "</p>\n<form method=\"post\" action=\"{{action}}\">"
        "<input type=\"hidden\" name=\"then\" value=\"page\">"
        "<button type=\"submit\">Confirm this address</button></form>\n"
        "<p>Not your account? Close this page: nothing changes.</p>\n"
        "</body></html>\n",
        vars, 3, true);
}

json_t *email_links_confirm(const char *token, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    store_email_confirmation link;
    if (!usable_link(conn, token, &link, err) ||
        !store_email_confirmations_confirm(conn, link.confirmation_id,
                                           clock_now(), err) ||
        !store_player_set_email(conn, link.player_id, link.email, err) ||
        !store_commit(conn, err)) {
        store_rollback(conn);
        return NULL;
    }
    char ref[32];
    store_player_ref(link.player_id, ref);
    log_info("player %s confirmed a new address", ref);
    return json_pack("{s:s,s:s,s:s}", "status", "confirmed", "email",
                     link.email, "player_id", ref);
}

char *email_links_confirmed_page(const json_t *confirmed)
{
    char settings[512];
    snprintf(settings, sizeof settings, "%s/settings",
             config_text(CONFIG_PUBLIC_URL) ? config_text(CONFIG_PUBLIC_URL)
                                            : "");
    templates_var vars[] = {
        {"email", json_string_value(json_object_get(confirmed, "email"))},
        {"settings", settings}};
    return templates_render_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>Address confirmed</title></head><body>\n"
        "<p>Done: {{email}} is your account's address now. Turn notices, "
        "invitations and sign-in links go there, and you can play by "
        "answering them.</p>\n"
        "<p>Change what is mailed to you in your "
        "<a href=\"{{settings}}\">settings</a>.</p>\n"
        "</body></html>\n",
        vars, 2, true);
}
