/* sign_in.c: sign-in links by mail (sign_in.h). */
#include "play/sign_in.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "notify/mail.h"
#include "play/mailed_link.h"
#include "store/db.h"
#include "store/players.h"
#include "store/store.h"
#include "store/sign_in_links.h"

#define TOKEN_BYTES 32
#define TOKEN_VARIANT sodium_base64_VARIANT_URLSAFE_NO_PADDING
#define TOKEN_CHARS (sodium_base64_ENCODED_LEN(TOKEN_BYTES, TOKEN_VARIANT) - 1)
#define EMAIL_MAX_LEN 254

static void token_digest(const uint8_t token[TOKEN_BYTES],
                         uint8_t digest[SIGN_IN_DIGEST_BYTES])
{
    crypto_generichash(digest, SIGN_IN_DIGEST_BYTES, token, TOKEN_BYTES, NULL,
                       0);
}

/* Queues the mail with the link for player at their address, inside the
 * caller's transaction. */
static bool queue_mail(PGconn *conn, const store_player *player,
                       const char *token, apierr *err)
{
    char link[600], minutes[16];
    snprintf(link, sizeof link, "%s/sign-in/%s", config_text(CONFIG_PUBLIC_URL),
             token);
    snprintf(minutes, sizeof minutes, "%d", SIGN_IN_MINUTES);
    templates_var vars[] = {
        {"player", player->name},
        {"link", link},
        {"minutes", minutes},
    };
    return mailed_link_queue(conn, "sign_in.txt", vars,
                             sizeof vars / sizeof *vars,
                             "Your sign-in link for pbem", player->email,
                             "sign_in", err);
}

/* Mails a link to player_id unless its address has had its share this
 * hour; one transaction, the player's row locked so that concurrent
 * requests count each other. */
static bool mail_link(PGconn *conn, long long player_id, apierr *err)
{
    long long now = clock_now();
    store_player player;
    if (!store_begin(conn, err))
        return false;
    if (!store_player_load(conn, player_id, true, &player, err))
        goto fail;
    int recent = store_sign_in_links_since(conn, player.email, now - 3600, err);
    if (recent < 0)
        goto fail;
    char ref[32];
    store_player_ref(player_id, ref);
    if (recent >= SIGN_IN_PER_HOUR) {
        store_rollback(conn);
        log_warn("sign-in link for player %s not sent: already %d in the "
                 "last hour for that address",
                 ref, recent);
        return true;
    }
    uint8_t token[TOKEN_BYTES], digest[SIGN_IN_DIGEST_BYTES];
    char text[TOKEN_CHARS + 1];
    randombytes_buf(token, sizeof token);
    token_digest(token, digest);
    sodium_bin2base64(text, sizeof text, token, sizeof token, TOKEN_VARIANT);
    sodium_memzero(token, sizeof token);
    bool ok = store_sign_in_links_insert(conn, player.email, player_id, digest,
                                         now, now + SIGN_IN_MINUTES * 60,
                                         err) &&
              queue_mail(conn, &player, text, err);
    sodium_memzero(text, sizeof text);
    if (!ok)
        goto fail;
    if (!store_commit(conn, err))
        return false;
    log_info("sign-in link mailed to player %s", ref);
    return true;
fail:
    store_rollback(conn);
    return false;
}

json_t *sign_in_request_link(const json_t *body, apierr *err)
{
    const json_t *email_json = json_object_get(body, "email");
    const char *email = json_string_value(email_json);
    if (email == NULL || json_string_length(email_json) != strlen(email) ||
        strlen(email) > EMAIL_MAX_LEN || !mail_address_ok(email)) {
        apierr_set(err, 400, "bad_email",
                   "email must be the address of your account, like "
                   "name@example.org (at most %d characters)",
                   EMAIL_MAX_LEN);
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    long long player_id = store_player_by_email(conn, email, err);
    if (player_id < 0 || (player_id > 0 && !mail_link(conn, player_id, err)))
        return NULL;
    return json_pack("{s:s}", "status", "sent");
}

bool sign_in_spend(PGconn *conn, const char *token, const char *key_id,
                   long long *player_id, apierr *err)
{
    uint8_t raw[TOKEN_BYTES];
    size_t len = 0;
    if (token == NULL || strlen(token) != TOKEN_CHARS ||
        sodium_base642bin(raw, sizeof raw, token, strlen(token), NULL, &len,
                          NULL, TOKEN_VARIANT) != 0 ||
        len != TOKEN_BYTES)
        return apierr_set(err, 400, "bad_sign_in_token",
                          "sign_in_token must be the %d characters after "
                          "/sign-in/ in the link of a sign-in mail",
                          (int)TOKEN_CHARS);
    uint8_t digest[SIGN_IN_DIGEST_BYTES];
    token_digest(raw, digest);
    sodium_memzero(raw, sizeof raw);
    store_sign_in_link link;
    bool found = false;
    if (!store_sign_in_links_find(conn, digest, &link, &found, err))
        return false;
    if (!found)
        return apierr_set(err, 401, "unknown_sign_in_token",
                          "this sign-in link is not one of ours: ask for a "
                          "new one (POST /v1/players/sign-in-links)");
    if (link.spent)
        return apierr_set(err, 409, "sign_in_token_spent",
                          "this sign-in link has been used already: ask for "
                          "a new one");
    long long now = clock_now();
    if (now >= link.expires)
        return apierr_set(err, 410, "sign_in_token_expired",
                          "this sign-in link expired (it is good for %d "
                          "minutes): ask for a new one",
                          SIGN_IN_MINUTES);
    if (!store_sign_in_links_spend(conn, link.link_id, now, key_id, err))
        return false;
    *player_id = link.player_id;
    return true;
}
