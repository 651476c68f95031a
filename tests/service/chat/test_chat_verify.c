/* The chat platforms' signatures, with vectors from outside this code:
 * Slack's own worked example from its documentation ("Verifying requests
 * from Slack"), and a Discord interaction signed by Node's crypto
 * (OpenSSL's Ed25519) with a fixed key. What Discord's endpoint check and
 * a person replaying a captured request would meet: the recorded request
 * verifies, a changed byte or timestamp does not, an old one does not,
 * and each refusal is a 401. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

#include "chat/chat_verify.h"

/* Slack's example request: its secret, timestamp, body and signature. */
#define SLACK_SECRET "8f742231b10e8888abcd99yyyzzz85a5"
#define SLACK_TS "1531420618"
#define SLACK_BODY                                                             \
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain="            \
    "testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id="            \
    "U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&"         \
    "response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F"     \
    "397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015."         \
    "47445629121.803a0bc887a14d10d2c447fce8b6703c"
#define SLACK_SIGNATURE                                                        \
    "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"

/* A PING, signed by Node's crypto.sign(null, ts + body, key) with the
 * Ed25519 key whose seed is the bytes 1 to 32. */
#define DISCORD_KEY                                                            \
    "79b5562e8fe654f94078b112e8a98ba7901f853ae695bed7e0e3910bad049664"
#define DISCORD_TS "1764400000"
#define DISCORD_BODY                                                           \
    "{\"application_id\":\"1186000000000000000\",\"id\":"                      \
    "\"1186000000000000001\",\"token\":\"aW50ZXJhY3Rpb24\",\"type\":1,"        \
    "\"user\":{\"id\":\"80351110224678912\",\"username\":\"ada\"},"            \
    "\"version\":1}"
#define DISCORD_SIGNATURE                                                      \
    "8217b2d48d6e33bc31e1eb2b22c9ec9d82c823c48d9e18bcf3da5072f2d69340"         \
    "8b493ad0940a725d90105ce44c5130113dc16bb5d579da6774aa81f51fa1050d"

static long long at(const char *ts, long long seconds_later)
{
    return atoll(ts) + seconds_later;
}

static bool slack(const char *secret, const char *signature, const char *ts,
                  const char *body, long long now, apierr *err)
{
    return chat_verify_slack(secret, signature, ts, body, strlen(body), now,
                             err);
}

static bool discord(const char *signature, const char *ts, const char *body,
                    long long now, apierr *err)
{
    return chat_verify_discord(DISCORD_KEY, signature, ts, body, strlen(body),
                               now, err);
}

Test(chat_verify, slacks_documented_example_verifies)
{
    cr_assert(sodium_init() >= 0);
    apierr err;
    cr_expect(slack(SLACK_SECRET, SLACK_SIGNATURE, SLACK_TS, SLACK_BODY,
                    at(SLACK_TS, 30), &err),
              "%s", err.message);
}

Test(chat_verify, a_changed_slack_body_secret_or_timestamp_is_refused)
{
    cr_assert(sodium_init() >= 0);
    apierr err;
    char body[] = SLACK_BODY;
    body[strlen(body) - 1] ^= 1;
    cr_expect_not(slack(SLACK_SECRET, SLACK_SIGNATURE, SLACK_TS, body,
                        at(SLACK_TS, 0), &err));
    cr_expect_eq(err.status, 401);
    cr_expect_str_eq(err.code, "bad_signature");
    cr_expect_not(slack("8f742231b10e8888abcd99yyyzzz85a6", SLACK_SIGNATURE,
                        SLACK_TS, SLACK_BODY, at(SLACK_TS, 0), &err));
    cr_expect_eq(err.status, 401);
    /* The timestamp is signed: a fresh one on an old request fails. */
    cr_expect_not(slack(SLACK_SECRET, SLACK_SIGNATURE, "1531420619", SLACK_BODY,
                        at(SLACK_TS, 0), &err));
    cr_expect_str_eq(err.code, "bad_signature");
    cr_expect_not(slack(SLACK_SECRET, "v1=a2114d57", SLACK_TS, SLACK_BODY,
                        at(SLACK_TS, 0), &err));
    cr_expect_not(
        slack(SLACK_SECRET, NULL, SLACK_TS, SLACK_BODY, at(SLACK_TS, 0), &err));
    cr_expect_eq(err.status, 401);
}

Test(chat_verify, a_slack_request_older_than_five_minutes_is_stale)
{
    cr_assert(sodium_init() >= 0);
    apierr err;
    cr_expect(slack(SLACK_SECRET, SLACK_SIGNATURE, SLACK_TS, SLACK_BODY,
                    at(SLACK_TS, CHAT_VERIFY_WINDOW), &err));
    cr_expect_not(slack(SLACK_SECRET, SLACK_SIGNATURE, SLACK_TS, SLACK_BODY,
                        at(SLACK_TS, CHAT_VERIFY_WINDOW + 1), &err));
    cr_expect_eq(err.status, 401);
    cr_expect_str_eq(err.code, "stale_signature");
    cr_expect_not(slack(SLACK_SECRET, SLACK_SIGNATURE, SLACK_TS, SLACK_BODY,
                        at(SLACK_TS, -CHAT_VERIFY_WINDOW - 1), &err));
    cr_expect_str_eq(err.code, "stale_signature");
    cr_expect_not(slack("", SLACK_SIGNATURE, SLACK_TS, SLACK_BODY,
                        at(SLACK_TS, 0), &err));
    cr_expect_str_eq(err.code, "chat_not_configured");
}

Test(chat_verify, a_discord_ping_signed_by_node_verifies)
{
    cr_assert(sodium_init() >= 0);
    apierr err;
    cr_expect(discord(DISCORD_SIGNATURE, DISCORD_TS, DISCORD_BODY,
                      at(DISCORD_TS, 1), &err),
              "%s", err.message);
    /* libsodium signs the same bytes the same way (Ed25519 is
     * deterministic): the tests' own signer agrees with Node's. */
    uint8_t seed[32], pk[32], sk[64], sig[64];
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(i + 1);
    crypto_sign_seed_keypair(pk, sk, seed);
    const char *message = DISCORD_TS DISCORD_BODY;
    crypto_sign_detached(sig, NULL, (const uint8_t *)message, strlen(message),
                         sk);
    char hex[129];
    sodium_bin2hex(hex, sizeof hex, sig, sizeof sig);
    cr_expect_str_eq(hex, DISCORD_SIGNATURE);
}

Test(chat_verify, a_changed_or_old_discord_interaction_is_refused)
{
    cr_assert(sodium_init() >= 0);
    apierr err;
    char body[] = DISCORD_BODY;
    body[10] = 'X';
    cr_expect_not(
        discord(DISCORD_SIGNATURE, DISCORD_TS, body, at(DISCORD_TS, 0), &err));
    cr_expect_eq(err.status, 401);
    cr_expect_str_eq(err.code, "bad_signature");
    cr_expect_not(discord(DISCORD_SIGNATURE, "1764400001", DISCORD_BODY,
                          at(DISCORD_TS, 0), &err));
    cr_expect_str_eq(err.code, "bad_signature");
    cr_expect_not(discord(DISCORD_SIGNATURE, DISCORD_TS, DISCORD_BODY,
                          at(DISCORD_TS, CHAT_VERIFY_WINDOW + 1), &err));
    cr_expect_eq(err.status, 401);
    cr_expect_str_eq(err.code, "stale_signature");
    cr_expect_not(
        discord("zz", DISCORD_TS, DISCORD_BODY, at(DISCORD_TS, 0), &err));
    cr_expect_not(discord(DISCORD_SIGNATURE, NULL, DISCORD_BODY,
                          at(DISCORD_TS, 0), &err));
    cr_expect_eq(err.status, 401);
    cr_expect_not(chat_verify_discord(NULL, DISCORD_SIGNATURE, DISCORD_TS,
                                      DISCORD_BODY, strlen(DISCORD_BODY),
                                      at(DISCORD_TS, 0), &err));
    cr_expect_str_eq(err.code, "chat_not_configured");
}
