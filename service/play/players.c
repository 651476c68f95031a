/* players.c: registration (players.h). */
#include "play/players.h"

#include <sodium.h>
#include <string.h>

#include "core/log.h"
#include "notify/mail.h"
#include "play/email_links.h"
#include "play/retry.h"
#include "store/db.h"
#include "store/players.h"
#include "store/store.h"

#define NAME_MAX_LEN 80
#define EMAIL_MAX_LEN 254

bool players_registration_key(const json_t *body, uint8_t public_key[32],
                              apierr *err)
{
    const char *key_b64 = json_string_value(json_object_get(body, "public_key"));
    size_t key_len = 0;
    if (key_b64 == NULL ||
        sodium_base642bin(public_key, crypto_sign_PUBLICKEYBYTES, key_b64,
                          strlen(key_b64), NULL, &key_len, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        key_len != crypto_sign_PUBLICKEYBYTES)
        return apierr_set(err, 400, "bad_public_key",
                          "public_key must be a 32-byte Ed25519 public key in "
                          "standard base64");
    return true;
}

/* Whether the UTF-8 text at c starts with a character that, shown to
 * others, is not part of a name but a command to the screen: C0 and C1
 * controls and DEL (a CR/LF forges a line of a mail or a log, BEL rings),
 * the line and paragraph separators, and the bidi embeddings, overrides
 * and isolates (U+202A-U+202E, U+2066-U+2069) that make the text after a
 * name read backwards. Continuation bytes never match a lead byte, so
 * every byte of a string can be asked in turn. */
static bool is_forbidden(const unsigned char *c)
{
    if (c[0] < 0x20 || c[0] == 0x7f)
        return true;
    if (c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f)
        return true;
    /* U+2028, U+2029, U+202A-U+202E */
    if (c[0] == 0xe2 && c[1] == 0x80 && c[2] >= 0xa8 && c[2] <= 0xae)
        return true;
    /* U+2066-U+2069 */
    return c[0] == 0xe2 && c[1] == 0x81 && c[2] >= 0xa6 && c[2] <= 0xa9;
}

bool players_name_ok(const json_t *name_json)
{
    const char *name = json_string_value(name_json);
    /* jansson keeps an escaped NUL: the name would end there in C. */
    if (name == NULL || name[0] == '\0' ||
        json_string_length(name_json) != strlen(name) ||
        strlen(name) > NAME_MAX_LEN)
        return false;
    for (const unsigned char *c = (const unsigned char *)name; *c != '\0';
         c++)
        if (is_forbidden(c))
            return false;
    return true;
}

bool players_fields_ok(const json_t *name_json,
                              const json_t *email_json, apierr *err)
{
    const char *email = json_string_value(email_json);
    if (!players_name_ok(name_json))
        return apierr_set(err, 400, "bad_name",
                          "name must be a string of 1 to %d bytes, without "
                          "control characters or bidirectional overrides",
                          NAME_MAX_LEN);
    if (email_json != NULL && !json_is_null(email_json) &&
        (email == NULL || strlen(email) > EMAIL_MAX_LEN ||
         !mail_address_ok(email)))
        return apierr_set(err, 400, "bad_email",
                          "email must look like name@example.org (at most %d "
                          "characters)",
                          EMAIL_MAX_LEN);
    return true;
}

bool players_name_normal(const json_t *name, char out[NAMES_MAX_BYTES],
                         apierr *err)
{
    char why[300];
    const char *text = json_string_value(name);
    if (text == NULL)
        return apierr_set(err, 400, "bad_name",
                          "name must be a string of 1 to %d characters",
                          NAMES_MAX_CHARS);
    if (!names_normal(text, json_string_length(name), out, why, sizeof why))
        return apierr_set(err, 400, "bad_name", "%s", why);
    return true;
}

bool players_name_fits_match(const char *name, const char *what,
                             long long player_id, const store_match *match,
                             apierr *err)
{
    for (int s = 0; s < match->seat_count; s++) {
        if (match->seat_player[s] == 0 || match->seat_player[s] == player_id ||
            !names_confusable(name, match->seat_name[s]))
            continue;
        return apierr_set(
            err, 422, "confusable_name",
            "%s \"%s\" could be taken for \"%s\", the name of seat %d's "
            "player: in one match no two names may look alike, so that "
            "everyone can tell who moved",
            what, name, match->seat_name[s], s);
    }
    return true;
}

json_t *players_register(const caller *who, const json_t *body,
                                const uint8_t public_key[32], apierr *err)
{
    const json_t *name_json = json_object_get(body, "name");
    const json_t *email_json = json_object_get(body, "email");
    char name[NAMES_MAX_BYTES];
    if (!players_name_normal(name_json, name, err) ||
        !players_fields_ok(name_json, email_json, err))
        return NULL;
    const char *email = json_string_value(email_json);
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    long long player_id;
    char key_id[40], ref[32];
    if (!store_begin(conn, err))
        return NULL;
    /* The address is the account's only once a link mailed to it is
     * opened (email_links.h): until then it gets that link and nothing
     * else. */
    if (!store_create_player(conn, name, NULL, public_key, &player_id, key_id,
                             err) ||
        (email != NULL &&
         !email_links_offer(conn, player_id, name, email, err))) {
        store_rollback(conn);
        return NULL;
    }
    store_player_ref(player_id, ref);
    json_t *answer = json_pack("{s:s,s:s,s:s,s:n}", "id", ref, "name", name,
                               "key_id", key_id, "email");
    if (email != NULL)
        json_object_set_new(answer, "email_pending", json_string(email));
    /* The answer is kept with the nonce: a retry after a lost answer gets
     * it again instead of "already registered". */
    if (!retry_commit(conn, who, NULL, 201, answer, err)) {
        json_decref(answer);
        return NULL;
    }
    log_info("player %s registered with key %s", ref, key_id);
    return answer;
}
