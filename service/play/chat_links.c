/* chat_links.c */
#include "play/chat_links.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "play/delegates.h"
#include "store/chat_links.h"
#include "store/db.h"
#include "store/delegate_grants.h"
#include "store/players.h"
#include "store/store.h"

#define CODE_CHARS 10

static const char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* The code in its one spelling (CODE_CHARS of the alphabet), or false
 * when text is not a code however it is read. */
static bool normalise(const char *text, char out[CODE_CHARS + 1])
{
    size_t n = 0;
    for (const char *c = text ? text : ""; *c != '\0'; c++) {
        if (*c == '-' || *c == ' ')
            continue;
        char up = (char)toupper((unsigned char)*c);
        if (up == 'O')
            up = '0';
        else if (up == 'I' || up == 'L')
            up = '1';
        if (strchr(alphabet, up) == NULL || up == '\0' || n == CODE_CHARS)
            return false;
        out[n++] = up;
    }
    out[n] = '\0';
    return n == CODE_CHARS;
}

static void digest_of(const char *code,
                      uint8_t digest[STORE_CHAT_LINK_DIGEST_BYTES])
{
    static const char domain[] = "pbem chat link code";
    crypto_generichash(digest, STORE_CHAT_LINK_DIGEST_BYTES,
                       (const uint8_t *)code, strlen(code),
                       (const uint8_t *)domain, sizeof domain - 1);
}

json_t *chat_links_issue(long long player_id, apierr *err)
{
    char code[CODE_CHARS + 1];
    uint8_t random[CODE_CHARS];
    randombytes_buf(random, sizeof random);
    for (int i = 0; i < CODE_CHARS; i++)
        code[i] = alphabet[random[i] & 31];
    code[CODE_CHARS] = '\0';
    uint8_t digest[STORE_CHAT_LINK_DIGEST_BYTES];
    digest_of(code, digest);
    long long now = clock_now();
    long long expires = now + CHAT_LINKS_MINUTES * 60LL;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    /* Serialises the player's requests, so the hourly count holds. */
    if (!store_player_lock(conn, player_id, err))
        goto fail;
    int recent = store_chat_links_since(conn, player_id, now - 3600, err);
    if (recent < 0)
        goto fail;
    if (recent >= CHAT_LINKS_PER_HOUR) {
        apierr_set(err, 429, "too_many_codes",
                   "you asked for %d link codes in the last hour, the most "
                   "there may be; use one of them, or wait",
                   recent);
        goto fail;
    }
    if (!store_chat_link_insert(conn, player_id, digest, now, expires, err) ||
        !store_commit(conn, err))
        goto fail;
    char shown[CODE_CHARS + 2], until[32];
    snprintf(shown, sizeof shown, "%.5s-%s", code, code + 5);
    clock_format(expires, until);
    return json_pack("{s:s,s:s,s:s}", "code", shown, "expires", until, "how",
                     "type /pbem link followed by the code in Discord or "
                     "Slack, where the pbem app is installed, within 30 "
                     "minutes; it works once");
fail:
    store_rollback(conn);
    return NULL;
}

json_t *chat_links_redeem(const char *code, const char *key_id,
                          const char *name, apierr *err)
{
    char normal[CODE_CHARS + 1];
    if (!normalise(code, normal)) {
        apierr_set(err, 404, "no_such_code",
                   "that is not a link code: a code is 10 letters and digits "
                   "such as K7QM3-XPA9R, from the page or pbem chat-link");
        return NULL;
    }
    uint8_t digest[STORE_CHAT_LINK_DIGEST_BYTES];
    digest_of(normal, digest);
    store_grant *grant = calloc(1, sizeof *grant);
    if (grant == NULL)
        abort();
    json_t *answer = NULL;
    long long now = clock_now();
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        goto done;
    long long player_id = 0;
    if (!store_chat_link_spend(conn, digest, now, key_id, &player_id, err))
        goto fail;
    if (player_id == 0) {
        apierr_set(err, 404, "no_such_code",
                   "no such code: it may be mistyped, used already or older "
                   "than %d minutes; ask for a new one",
                   CHAT_LINKS_MINUTES);
        goto fail;
    }
    if (!store_player_lock(conn, player_id, err))
        goto fail;
    int in_force = store_grants_in_force(conn, player_id, now, err);
    if (in_force < 0)
        goto fail;
    if (in_force >= DELEGATES_MAX) {
        apierr_set(err, 422, "too_many_delegates",
                   "the player has %d grants in force, the most there may "
                   "be; revoke one on the page first",
                   in_force);
        goto fail;
    }
    grant->player_id = player_id;
    snprintf(grant->key_id, sizeof grant->key_id, "%s", key_id);
    /* No key: the all-zero point has small order, so libsodium refuses
     * every signature under it; a chat link can never sign a request. */
    memset(grant->public_key, 0, sizeof grant->public_key);
    snprintf(grant->name, sizeof grant->name, "%s",
             name && name[0] ? name : key_id);
    /* A name cut to 80 bytes ends on a whole character. */
    size_t len = strlen(grant->name);
    if (name && strlen(name) > len)
        while (len > 0 && ((unsigned char)name[len] & 0xc0) == 0x80)
            grant->name[--len] = '\0';
    grant->scope = STORE_GRANT_VIEW | STORE_GRANT_MOVE | STORE_GRANT_JOIN;
    grant->all_matches = true;
    grant->created = now;
    grant->expires = now + DELEGATES_MAX_DAYS * 86400LL;
    json_t *request =
        json_pack("{s:s,s:s}", "via", "chat_link", "chat_user", key_id);
    char *request_text = json_dumps(request, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(request);
    if (request_text == NULL)
        abort();
    bool stored = store_grant_insert(conn, grant, request_text, err);
    free(request_text);
    if (!stored || !store_commit(conn, err))
        goto fail;
    char player[32], ref[32], until[32];
    store_player_ref(player_id, player);
    store_grant_ref(grant->delegate_id, ref);
    clock_format(grant->expires, until);
    answer = json_pack("{s:s,s:s,s:s}", "player", player, "grant", ref,
                       "expires", until);
    goto done;
fail:
    if (conn != NULL)
        store_rollback(conn);
done:
    free(grant);
    return answer;
}
