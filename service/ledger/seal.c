/* seal.c */
#include "ledger/seal.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules.h"

static uint8_t service_key[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];

static bool read_exactly(int fd, uint8_t *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    return true;
}

bool seal_load_key(const char *path, apierr *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0 && errno == ENOENT) {
        uint8_t fresh[sizeof service_key];
        randombytes_buf(fresh, sizeof fresh);
        int out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (out < 0 || write(out, fresh, sizeof fresh) != (ssize_t)sizeof fresh) {
            if (out >= 0)
                close(out);
            return apierr_set(err, 500, "key_file",
                              "cannot create the service key file %s: %s",
                              path, strerror(errno));
        }
        close(out);
        sodium_memzero(fresh, sizeof fresh);
        fd = open(path, O_RDONLY);
    }
    if (fd < 0)
        return apierr_set(err, 500, "key_file",
                          "cannot read the service key file %s: %s", path,
                          strerror(errno));
    bool ok = read_exactly(fd, service_key, sizeof service_key);
    close(fd);
    if (!ok)
        return apierr_set(err, 500, "key_file",
                          "the service key file %s must hold %zu bytes", path,
                          sizeof service_key);
    return true;
}

void seal_new_seed(uint8_t seed[SEAL_SEED_BYTES])
{
    randombytes_buf(seed, SEAL_SEED_BYTES);
}

void seal_seed_commitment(const uint8_t seed[SEAL_SEED_BYTES],
                          uint8_t commitment[SEAL_HASH_BYTES])
{
    static const char domain[] = "pbem/seed-commitment/v1";
    crypto_generichash_state state;
    crypto_generichash_init(&state, NULL, 0, SEAL_HASH_BYTES);
    crypto_generichash_update(&state, (const uint8_t *)domain,
                              sizeof domain - 1);
    crypto_generichash_update(&state, seed, SEAL_SEED_BYTES);
    crypto_generichash_final(&state, commitment, SEAL_HASH_BYTES);
}

void seal_match_seed(const uint8_t seed[SEAL_SEED_BYTES],
                     const uint8_t (*entropy)[32], int seats,
                     uint8_t match_seed[SEAL_SEED_BYTES])
{
    static const char domain[] = "pbem/match-seed/v1";
    crypto_generichash_state state;
    crypto_generichash_init(&state, NULL, 0, SEAL_SEED_BYTES);
    crypto_generichash_update(&state, (const uint8_t *)domain,
                              sizeof domain - 1);
    crypto_generichash_update(&state, seed, SEAL_SEED_BYTES);
    for (int s = 0; s < seats; s++)
        crypto_generichash_update(&state, entropy[s], 32);
    crypto_generichash_final(&state, match_seed, SEAL_SEED_BYTES);
}

void seal_choice_commitment(const char *match_ref, const char *decision,
                            int seat, const char *canonical_choice,
                            const uint8_t nonce[SEAL_NONCE_BYTES],
                            uint8_t commitment[SEAL_HASH_BYTES])
{
    static const char domain[] = "pbem/choice-commitment/v1";
    static const uint8_t separator = 0;
    char seat_text[16];
    snprintf(seat_text, sizeof seat_text, "%d", seat);
    const char *parts[] = {domain, match_ref, decision, seat_text,
                           canonical_choice};
    crypto_generichash_state state;
    crypto_generichash_init(&state, NULL, 0, SEAL_HASH_BYTES);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        crypto_generichash_update(&state, (const uint8_t *)parts[i],
                                  strlen(parts[i]));
        crypto_generichash_update(&state, &separator, 1);
    }
    crypto_generichash_update(&state, nonce, SEAL_NONCE_BYTES);
    crypto_generichash_final(&state, commitment, SEAL_HASH_BYTES);
}

bool seal_choice_opens(const char *match_ref, const char *decision, int seat,
                       const json_t *choice,
                       const uint8_t nonce[SEAL_NONCE_BYTES],
                       const uint8_t commitment[SEAL_HASH_BYTES])
{
    uint8_t computed[SEAL_HASH_BYTES];
    char *canonical = rules_sorted_json(choice);
    if (canonical == NULL)
        return false;
    seal_choice_commitment(match_ref, decision, seat, canonical, nonce,
                           computed);
    free(canonical);
    return sodium_memcmp(computed, commitment, SEAL_HASH_BYTES) == 0;
}

static void match_id_bytes(long long match_id, uint8_t out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)((unsigned long long)match_id >> (8 * i));
}

void seal_encrypt(long long match_id, const uint8_t *plain, size_t len,
                  uint8_t *out)
{
    uint8_t ad[8];
    match_id_bytes(match_id, ad);
    uint8_t *nonce = out;
    randombytes_buf(nonce, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
    crypto_aead_xchacha20poly1305_ietf_encrypt(
        out + crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, NULL, plain, len,
        ad, sizeof ad, NULL, nonce, service_key);
}

bool seal_decrypt(long long match_id, const uint8_t *sealed, size_t len,
                  uint8_t *out)
{
    if (len < SEAL_OVERHEAD)
        return false;
    uint8_t ad[8];
    match_id_bytes(match_id, ad);
    return crypto_aead_xchacha20poly1305_ietf_decrypt(
               out, NULL, NULL,
               sealed + crypto_aead_xchacha20poly1305_ietf_NPUBBYTES,
               len - crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, ad,
               sizeof ad, sealed, service_key) == 0;
}

static void unsubscribe_mac(long long player_id, uint8_t mac[32])
{
    /* A key of its own, so a token reveals nothing about the sealing key. */
    uint8_t key[crypto_generichash_KEYBYTES];
    static const char key_domain[] = "pbem/unsubscribe-key/v1";
    crypto_generichash(key, sizeof key, (const uint8_t *)key_domain,
                       sizeof key_domain - 1, service_key, sizeof service_key);
    char message[64];
    int len = snprintf(message, sizeof message, "pbem/unsubscribe/v1\n%lld",
                       player_id);
    crypto_generichash(mac, 32, (const uint8_t *)message, (size_t)len, key,
                       sizeof key);
    sodium_memzero(key, sizeof key);
}

void seal_unsubscribe_token(long long player_id, char out[SEAL_TOKEN_TEXT])
{
    uint8_t mac[32];
    unsubscribe_mac(player_id, mac);
    sodium_bin2hex(out, SEAL_TOKEN_TEXT, mac, sizeof mac);
}

bool seal_unsubscribe_check(long long player_id, const char *token)
{
    uint8_t mac[32], given[32];
    size_t len = 0;
    if (token == NULL || strlen(token) != 64 ||
        sodium_hex2bin(given, sizeof given, token, 64, NULL, &len, NULL) != 0 ||
        len != sizeof given)
        return false;
    unsubscribe_mac(player_id, mac);
    return sodium_memcmp(mac, given, sizeof mac) == 0;
}

void seal_derive_key(const char context[8], uint8_t *key, size_t len)
{
    _Static_assert(sizeof service_key == crypto_kdf_KEYBYTES,
                   "the service key is a kdf master key");
    crypto_kdf_derive_from_key(key, len, 1, context, service_key);
}
