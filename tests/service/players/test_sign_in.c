/* Signing in by mail on the real pbemd, with a real SMTP receiver: a link
 * is mailed for a known address and nothing for an unknown one (the same
 * answer either way); the link's token lets one new key, signing for
 * itself, into the account it was made for, once, for 15 minutes of the
 * test clock; asking too often mails no more; hostile tokens and bodies
 * are refused. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "players_scene.h"

static void expect_sent(e2e_response *r)
{
    cr_expect_eq(r->status, 202, "%ld %s", r->status, r->body);
    cr_expect_str_eq(scene_member(r->json, "status"), "sent");
    cr_expect_eq(json_object_size(r->json), 1, "%s", r->body);
    e2e_response_free(r);
}

static long long mails_to(const char *address)
{
    return scene_sql_number(
        "SELECT count(*) FROM mail_answers WHERE to_address = $1", address);
}

Test(sign_in, an_email_only_player_gets_a_first_key_by_the_link,
     .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    char zoe[32];
    scene_email_only_player("Zoë", "zoe@example.org", zoe);

    /* Unknown first: the same answer, and no mail. */
    e2e_response r = scene_ask_link(&s, "nobody@example.org");
    expect_sent(&r);
    r = scene_ask_link(&s, "ZOE@example.org");
    expect_sent(&r);
    const char *token = scene_link_token(&smtp, 1, "zoe@example.org");
    char saved[128];
    snprintf(saved, sizeof saved, "%s", token);
    cr_expect_eq(strlen(saved), 43, "%s", saved);
    cr_expect_eq(mails_to("nobody@example.org"), 0);
    json_t *mails = receiver_lines(&smtp);
    cr_expect_eq(json_array_size(mails), 1);
    const char *text =
        scene_member(json_array_get(mails, 0), "text");
    cr_expect_not_null(strstr(text, "Hello Zoë,"), "%s", text);
    cr_expect_not_null(strstr(text, "15 minutes"), "%s", text);
    json_decref(mails);
    /* Only the BLAKE2b-256 digest of the token is kept. */
    uint8_t raw[32], digest[32];
    size_t raw_len = 0;
    cr_assert_eq(sodium_base642bin(raw, sizeof raw, saved, strlen(saved),
                                   NULL, &raw_len, NULL,
                                   sodium_base64_VARIANT_URLSAFE_NO_PADDING),
                 0);
    cr_assert_eq(raw_len, 32);
    crypto_generichash(digest, sizeof digest, raw, sizeof raw, NULL, 0);
    char digest_hex[65];
    sodium_bin2hex(digest_hex, sizeof digest_hex, digest, sizeof digest);
    cr_expect_eq(scene_sql_number("SELECT count(*) FROM sign_in_links"
                                  " WHERE token_digest = decode($1, 'hex')",
                                  digest_hex),
                 1);
    cr_expect_eq(scene_sql_number("SELECT count(*) FROM sign_in_links l"
                                  " WHERE l::text LIKE '%' || $1 || '%'",
                                  saved),
                 0);

    /* Nor does the outbox keep the link once the mail is sent. */
    for (int i = 0; i < 200 && scene_sql_number(
                                   "SELECT count(*) FROM mail_answers"
                                   " WHERE kind = $1 AND status = 'sent'",
                                   "sign_in") == 0;
         i++)
        pause_ms(50);
    cr_expect_eq(scene_sql_number("SELECT count(*) FROM mail_answers"
                                  " WHERE status = 'sent'"
                                  " AND body LIKE '%/sign-in/(removed once"
                                  " sent)%' AND position($1 IN body) = 0",
                                  saved),
                 1);

    e2e_player browser;
    scene_new_key(&browser);
    r = scene_add_key(&s, &browser, "browser", saved, &browser);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "player_id"), zoe);
    cr_expect_str_eq(scene_member(r.json, "key_id"), browser.key.key_id);
    e2e_response_free(&r);

    r = e2e_call(&s, "GET", "/v1/players/me", NULL, &browser);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "player_id"), zoe);
    cr_expect_str_eq(scene_member(r.json, "name"), "Zoë");
    cr_expect_str_eq(scene_member(r.json, "email"), "zoe@example.org");
    e2e_response_free(&r);

    /* Used once: a second key cannot use it again. */
    e2e_player thief;
    scene_new_key(&thief);
    r = scene_add_key(&s, &thief, NULL, saved, &thief);
    cr_expect_eq(r.status, 409, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "sign_in_token_spent");
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/players/me", NULL, &thief);
    cr_expect_eq(r.status, 401);
    e2e_response_free(&r);
    receiver_stop(&smtp);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(sign_in, a_second_device_of_a_player_with_keys_joins_the_same_account,
     .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    e2e_player ada, bob;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_register(&s, "Bob", "bob@example.org", &bob);
    e2e_response r = scene_ask_link(&s, "ada@example.org");
    expect_sent(&r);
    char token[128];
    snprintf(token, sizeof token, "%s",
             scene_link_token(&smtp, 1, "ada@example.org"));

    /* The token is Ada's: the key goes to Ada whoever holds the link. */
    e2e_player tablet;
    scene_new_key(&tablet);
    char b64[64], body[400];
    sodium_bin2base64(b64, sizeof b64, tablet.key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(body, sizeof body,
             "{\"public_key\":\"%s\",\"sign_in_token\":\"%s\"}", b64, token);
    int64_t created = (int64_t)time(NULL);
    r = e2e_call_signed(&s, "POST", "/v1/players/me/keys", body, &tablet,
                        created, "n-tablet", NULL, false);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "player_id"), ada.id);
    e2e_response_free(&r);
    /* The answer was lost: the same request gets it again, although the
     * token is spent now. */
    r = e2e_call_signed(&s, "POST", "/v1/players/me/keys", body, &tablet,
                        created, "n-tablet", NULL, false);
    cr_expect_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "player_id"), ada.id);
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/players/me/keys", NULL, &ada);
    cr_assert_eq(r.status, 200);
    cr_expect_eq(json_array_size(json_object_get(r.json, "keys")), 2);
    e2e_response_free(&r);

    /* A token sent with a key of the account is not how it works. */
    r = scene_ask_link(&s, "bob@example.org");
    expect_sent(&r);
    snprintf(token, sizeof token, "%s",
             scene_link_token(&smtp, 2, "bob@example.org"));
    e2e_player other;
    scene_new_key(&other);
    r = scene_add_key(&s, &other, NULL, token, &ada);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "unexpected_sign_in_token");
    e2e_response_free(&r);
    /* The refusal did not spend Bob's link. */
    r = scene_add_key(&s, &other, NULL, token, &other);
    cr_expect_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "player_id"), bob.id);
    e2e_response_free(&r);
    receiver_stop(&smtp);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(sign_in, a_link_expires_after_15_minutes, .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    char zoe[32];
    scene_email_only_player("Zoë", "zoe@example.org", zoe);
    e2e_response r = scene_ask_link(&s, "zoe@example.org");
    expect_sent(&r);
    char token[128];
    snprintf(token, sizeof token, "%s",
             scene_link_token(&smtp, 1, "zoe@example.org"));

    scene_clock(scene_t0 + 15 * 60);
    e2e_player browser;
    scene_new_key(&browser);
    r = scene_add_key(&s, &browser, NULL, token, &browser);
    cr_expect_eq(r.status, 410, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "sign_in_token_expired");
    e2e_response_free(&r);

    /* A new link, a minute before its end, works. */
    r = scene_ask_link(&s, "zoe@example.org");
    expect_sent(&r);
    snprintf(token, sizeof token, "%s",
             scene_link_token(&smtp, 2, "zoe@example.org"));
    scene_clock(scene_t0 + 29 * 60);
    e2e_player second;
    scene_new_key(&second);
    r = scene_add_key(&s, &second, NULL, token, &second);
    cr_expect_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "player_id"), zoe);
    e2e_response_free(&r);
    receiver_stop(&smtp);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(sign_in, hostile_tokens_are_refused, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player key;
    scene_new_key(&key);
    struct {
        const char *token;
        long status;
        const char *code;
    } cases[] = {
        {"abc", 400, "bad_sign_in_token"},
        {"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!", 400,
         "bad_sign_in_token"},
        {"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", 400,
         "bad_sign_in_token"},
        /* The right shape, but never made. */
        {"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 401,
         "unknown_sign_in_token"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        e2e_response r = scene_add_key(&s, &key, NULL, cases[i].token, &key);
        cr_expect_eq(r.status, cases[i].status, "%s: %ld %s", cases[i].token,
                     r.status, r.body);
        cr_expect_str_eq(e2e_error_code(&r), cases[i].code);
        e2e_response_free(&r);
    }
    char b64[64], body[160];
    sodium_bin2base64(b64, sizeof b64, key.key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(body, sizeof body, "{\"public_key\":\"%s\",\"sign_in_token\":7}",
             b64);
    e2e_response r = e2e_call(&s, "POST", "/v1/players/me/keys", body, &key);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "bad_sign_in_token");
    e2e_response_free(&r);
    /* Signed by a key that is neither the body's nor registered. */
    e2e_player stranger;
    scene_new_key(&stranger);
    r = scene_add_key(&s, &key, NULL, NULL, &stranger);
    cr_expect_eq(r.status, 401, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "unknown_key");
    e2e_response_free(&r);

    const char *bodies[] = {"{}", "{\"email\":42}", "{\"email\":\"no-at\"}",
                            "{\"email\":\"a@b\\r\\nBcc: x@y\"}", "[]",
                            "not json"};
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        r = e2e_call(&s, "POST", "/v1/players/sign-in-links", bodies[i], NULL);
        cr_expect_eq(r.status, 400, "%s: %ld %s", bodies[i], r.status,
                     r.body);
        e2e_response_free(&r);
    }
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(sign_in, asking_too_often_mails_no_more, .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    e2e_player ada;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    for (int i = 0; i < 7; i++) {
        e2e_response r = scene_ask_link(&s, "ada@example.org");
        expect_sent(&r);
    }
    cr_expect_eq(mails_to("ada@example.org"), 5);
    /* An hour later the address may ask again. */
    scene_clock(scene_t0 + 3600);
    e2e_response r = scene_ask_link(&s, "ada@example.org");
    expect_sent(&r);
    cr_expect_eq(mails_to("ada@example.org"), 6);
    json_t *mails = receiver_wait(&smtp, 6, 30);
    cr_expect_eq(json_array_size(mails), 6);
    json_decref(mails);
    receiver_stop(&smtp);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}
