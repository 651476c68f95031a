/* keys.c: a player's account and keys (keys.h). */
#include "play/keys.h"

#include <string.h>

#include "auth/auth.h"
#include "core/clock.h"
#include "core/log.h"
#include "play/players.h"
#include "play/retry.h"
#include "play/sign_in.h"
#include "store/db.h"
#include "store/email_confirmations.h"
#include "store/player_keys.h"
#include "store/players.h"
#include "store/store.h"

json_t *keys_me(const caller *who, apierr *err)
{
    PGconn *conn = db_conn(err);
    store_player player;
    if (conn == NULL ||
        !store_player_load(conn, who->player_id, false, &player, err))
        return NULL;
    char pending[255];
    if (!store_email_confirmations_pending(conn, who->player_id, clock_now(),
                                           pending, err))
        return NULL;
    char ref[32];
    store_player_ref(who->player_id, ref);
    json_t *me = json_pack(
        "{s:s,s:s,s:o}", "player_id", ref, "name", player.name, "email",
        player.email[0] ? json_string(player.email) : json_null());
    /* An address asked for whose link is not opened yet. */
    if (pending[0] != '\0')
        json_object_set_new(me, "email_pending", json_string(pending));
    return me;
}

json_t *keys_list(const caller *who, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    json_t *keys = store_player_keys_list(conn, who->player_id, err);
    if (keys == NULL)
        return NULL;
    size_t i;
    json_t *key;
    json_array_foreach(keys, i, key) {
        const char *id = json_string_value(json_object_get(key, "key_id"));
        json_object_set_new(key, "current",
                            json_boolean(strcmp(id, who->key_id) == 0));
    }
    return json_pack("{s:o}", "keys", keys);
}

/* The optional "name" of a key: absent, null, or a name as players'
 * names are (players_name_ok). */
static bool key_name(const json_t *body, const char **name, apierr *err)
{
    const json_t *name_json = json_object_get(body, "name");
    *name = NULL;
    if (name_json == NULL || json_is_null(name_json))
        return true;
    if (!players_name_ok(name_json))
        return apierr_set(err, 400, "bad_key_name",
                          "name must be a string of 1 to %d bytes, without "
                          "control characters or bidirectional overrides "
                          "(or left out)",
                          KEYS_NAME_MAX);
    *name = json_string_value(name_json);
    return true;
}

/* Whose account the new key goes to: the token's for a key signing for
 * itself, the signer's otherwise. Inside the transaction. */
static bool account_of(PGconn *conn, const caller *who, const json_t *body,
                       bool by_new_key, long long *player_id, apierr *err)
{
    const json_t *token_json = json_object_get(body, "sign_in_token");
    bool has_token = token_json != NULL && !json_is_null(token_json);
    if (!by_new_key) {
        if (has_token)
            return apierr_set(err, 400, "unexpected_sign_in_token",
                              "this request is signed by one of your keys: "
                              "leave sign_in_token out (it is for a new key "
                              "signing its own enrolment)");
        *player_id = who->player_id;
        return true;
    }
    if (!has_token)
        return apierr_set(err, 401, "sign_in_token_required",
                          "a key that signs its own enrolment must carry "
                          "sign_in_token from a sign-in link (POST "
                          "/v1/players/sign-in-links); or sign with a key of "
                          "the account");
    if (!json_is_string(token_json))
        return apierr_set(err, 400, "bad_sign_in_token",
                          "sign_in_token must be the text after /sign-in/ in "
                          "the link of a sign-in mail");
    return sign_in_spend(conn, json_string_value(token_json), who->key_id,
                         player_id, err);
}

json_t *keys_add(const caller *who, const json_t *body,
                 const uint8_t public_key[32], bool by_new_key, apierr *err)
{
    const char *name;
    if (!key_name(body, &name, err))
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    long long player_id = 0;
    store_player player;
    char key_id[40];
    if (!account_of(conn, who, body, by_new_key, &player_id, err) ||
        !store_player_load(conn, player_id, true, &player, err) ||
        !store_player_keys_add(conn, player_id, public_key, name, key_id,
                               err)) {
        store_rollback(conn);
        return NULL;
    }
    char ref[32];
    store_player_ref(player_id, ref);
    json_t *answer =
        json_pack("{s:s,s:s}", "key_id", key_id, "player_id", ref);
    /* Kept with the nonce: a retry gets this answer, not "already
     * registered". */
    if (!retry_commit(conn, who, NULL, 201, answer, err)) {
        json_decref(answer);
        return NULL;
    }
    log_info("player %s added key %s (%s)", ref, key_id,
             by_new_key ? "by a sign-in link" : "signed by another key");
    return answer;
}

/* The entry of key_id in the player's list (new reference), or NULL. */
static json_t *listed_key(const caller *who, const char *key_id, apierr *err)
{
    json_t *list = keys_list(who, err);
    if (list == NULL)
        return NULL;
    json_t *found = NULL;
    size_t i;
    json_t *key;
    json_array_foreach(json_object_get(list, "keys"), i, key)
        if (strcmp(json_string_value(json_object_get(key, "key_id")),
                   key_id) == 0)
            found = json_pack("{s:O}", "key", key);
    json_decref(list);
    if (found == NULL)
        apierr_set(err, 404, "no_such_key", "you have no key with this id");
    return found;
}

json_t *keys_revoke(const caller *who, const char *key_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    store_player player;
    bool was_active = false;
    if (!store_player_load(conn, who->player_id, true, &player, err) ||
        !store_player_keys_revoke(conn, who->player_id, key_id, &was_active,
                                  err))
        goto fail;
    if (was_active && player.email[0] == '\0') {
        int left = store_player_keys_active(conn, who->player_id, err);
        if (left < 0)
            goto fail;
        if (left == 0) {
            apierr_set(err, 409, "last_key",
                       "this is your last key and your account has no "
                       "confirmed email address to sign in again with: "
                       "without it nothing could ever sign for this account "
                       "again. Add another key, or an email address (POST "
                       "/v1/players/me/email, then open the link mailed to "
                       "it), first");
            goto fail;
        }
    }
    if (!store_commit(conn, err))
        return NULL;
    auth_forget_key(key_id);
    if (was_active) {
        char ref[32];
        store_player_ref(who->player_id, ref);
        log_info("player %s revoked key %s", ref, key_id);
    }
    return listed_key(who, key_id, err);
fail:
    store_rollback(conn);
    return NULL;
}
