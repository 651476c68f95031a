/* chat_verify.c */
#include "chat/chat_verify.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The timestamp as unix seconds within the window around now. */
static bool fresh(const char *timestamp, long long now, apierr *err)
{
    char *end = NULL;
    long long at = timestamp && timestamp[0] ? strtoll(timestamp, &end, 10) : 0;
    if (end == NULL || *end != '\0' || at <= 0)
        return apierr_set(err, 401, "bad_signature",
                          "the request's timestamp is missing or is not "
                          "unix seconds");
    if (at < now - CHAT_VERIFY_WINDOW || at > now + CHAT_VERIFY_WINDOW)
        return apierr_set(err, 401, "stale_signature",
                          "the request's timestamp is more than %d seconds "
                          "away from now: a replay, or a clock that is off",
                          CHAT_VERIFY_WINDOW);
    return true;
}

/* hex (exactly 2 * len digits) into out. */
static bool from_hex(const char *hex, unsigned char *out, size_t len)
{
    size_t got = 0;
    return hex != NULL && strlen(hex) == 2 * len &&
           sodium_hex2bin(out, len, hex, 2 * len, NULL, &got, NULL) == 0 &&
           got == len;
}

bool chat_verify_discord(const char *public_key_hex, const char *signature,
                         const char *timestamp, const char *body,
                         size_t body_len, long long now, apierr *err)
{
    unsigned char key[crypto_sign_PUBLICKEYBYTES];
    unsigned char sig[crypto_sign_BYTES];
    if (!from_hex(public_key_hex, key, sizeof key))
        return apierr_set(err, 401, "chat_not_configured",
                          "this service has no Discord application key "
                          "(PBEM_DISCORD_PUBLIC_KEY)");
    if (!from_hex(signature, sig, sizeof sig))
        return apierr_set(err, 401, "bad_signature",
                          "X-Signature-Ed25519 must be 128 hex digits");
    if (!fresh(timestamp, now, err))
        return false;
    size_t ts_len = strlen(timestamp);
    unsigned char *message = malloc(ts_len + body_len + 1);
    if (message == NULL)
        abort();
    memcpy(message, timestamp, ts_len);
    if (body_len > 0)
        memcpy(message + ts_len, body, body_len);
    int verified =
        crypto_sign_verify_detached(sig, message, ts_len + body_len, key);
    free(message);
    if (verified != 0)
        return apierr_set(err, 401, "bad_signature",
                          "the interaction's signature does not verify");
    return true;
}

bool chat_verify_slack(const char *secret, const char *signature,
                       const char *timestamp, const char *body, size_t body_len,
                       long long now, apierr *err)
{
    if (secret == NULL || secret[0] == '\0')
        return apierr_set(err, 401, "chat_not_configured",
                          "this service has no Slack signing secret "
                          "(PBEM_SLACK_SIGNING_SECRET)");
    unsigned char claimed[crypto_auth_hmacsha256_BYTES];
    if (signature == NULL || strncmp(signature, "v0=", 3) != 0 ||
        !from_hex(signature + 3, claimed, sizeof claimed))
        return apierr_set(err, 401, "bad_signature",
                          "X-Slack-Signature must be v0= and 64 hex digits");
    if (!fresh(timestamp, now, err))
        return false;
    crypto_auth_hmacsha256_state state;
    unsigned char mac[crypto_auth_hmacsha256_BYTES];
    crypto_auth_hmacsha256_init(&state, (const unsigned char *)secret,
                                strlen(secret));
    crypto_auth_hmacsha256_update(&state, (const unsigned char *)"v0:", 3);
    crypto_auth_hmacsha256_update(&state, (const unsigned char *)timestamp,
                                  strlen(timestamp));
    crypto_auth_hmacsha256_update(&state, (const unsigned char *)":", 1);
    crypto_auth_hmacsha256_update(&state, (const unsigned char *)body,
                                  body_len);
    crypto_auth_hmacsha256_final(&state, mac);
    if (sodium_memcmp(mac, claimed, sizeof mac) != 0)
        return apierr_set(err, 401, "bad_signature",
                          "the request's signature does not verify");
    return true;
}
