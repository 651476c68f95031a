/* mail_thread.c */
#include "notify/mail_thread.h"

#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/apierr.h"
#include "ledger/seal.h"
#include "rules.h"
#include "store/store.h"

/* 32 hex digits of a keyed BLAKE2b of the parts, each length-prefixed so
 * that no two lists of parts hash alike. */
static void keyed_hex(const char *const *parts, const size_t *lens, int count,
                      char out[33])
{
    uint8_t key[32], mac[16];
    seal_derive_key("mailidnt", key, sizeof key);
    crypto_generichash_state state;
    crypto_generichash_init(&state, key, sizeof key, sizeof mac);
    for (int i = 0; i < count; i++) {
        uint8_t len[8];
        for (int b = 0; b < 8; b++)
            len[b] = (uint8_t)((uint64_t)lens[i] >> (8 * b));
        crypto_generichash_update(&state, len, sizeof len);
        crypto_generichash_update(&state, (const uint8_t *)parts[i], lens[i]);
    }
    crypto_generichash_final(&state, mac, sizeof mac);
    sodium_memzero(key, sizeof key);
    sodium_bin2hex(out, 33, mac, sizeof mac);
}

void mail_thread_message_id(const char *what, const char *created,
                            char out[MAIL_THREAD_ID_MAX])
{
    char hex[33];
    const char *parts[] = {"pbem/message-id/v1", what, created ? created : ""};
    size_t lens[] = {strlen(parts[0]), strlen(parts[1]), strlen(parts[2])};
    keyed_hex(parts, lens, 3, hex);
    snprintf(out, MAIL_THREAD_ID_MAX, "%.48s.%s", what, hex);
}

/* "Ann", "Ann and Bob", "Ann, Bob and Carol": the seated players. */
static void names(const store_match *match, char *out, size_t size)
{
    int seated[STORE_MAX_SEATS], count = 0;
    for (int s = 0; s < match->seat_count && s < STORE_MAX_SEATS; s++)
        if (match->seat_player[s] != 0 && match->seat_name[s][0] != '\0')
            seated[count++] = s;
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < count && at < size; i++) {
        const char *sep = i == 0 ? "" : i == count - 1 ? " and " : ", ";
        int n = snprintf(out + at, size - at, "%s%s", sep,
                         match->seat_name[seated[i]]);
        if (n < 0)
            break;
        at += (size_t)n;
    }
}

void mail_thread_of(const store_match *match, int seat, mail_thread *out)
{
    char ref[32], seat_text[16], hex[33];
    store_match_ref(match->match_id, ref);
    snprintf(seat_text, sizeof seat_text, "%d", seat);
    const char *parts[] = {"pbem/thread/v1", ref, seat_text,
                           (const char *)match->sealed_seed};
    size_t lens[] = {strlen(parts[0]), strlen(ref), strlen(seat_text),
                     sizeof match->sealed_seed};
    keyed_hex(parts, lens, 4, hex);
    snprintf(out->root, sizeof out->root, "%s.%d.%s", ref, seat, hex);
    const rules_engine *engine = rules_find(match->game);
    char who[300];
    names(match, who, sizeof who);
    snprintf(out->subject, sizeof out->subject, "[pbem] %s %s%s%s",
             engine ? engine->title : match->game, ref, who[0] ? " with " : "",
             who);
}

bool mail_thread_load(PGconn *conn, long long match_id, int seat,
                      mail_thread *out)
{
    store_match match = {0};
    apierr err;
    if (match_id <= 0 || !store_load_match(conn, match_id, &match, &err))
        return false;
    mail_thread_of(&match, seat, out);
    store_match_free(&match);
    return true;
}
