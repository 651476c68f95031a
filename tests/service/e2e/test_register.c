/* Registering a player proves possession of the key: POST /v1/players is
 * signed by the key it registers, so nobody can take another's public key
 * (keys are unique) and lock its owner out. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../support/e2e.h"

/* The registration body for key. */
static void registration(const client_key *key, const char *name,
                         char body[256])
{
    char key_b64[64];
    sodium_bin2base64(key_b64, sizeof key_b64, key->public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(body, 256, "{\"name\":\"%s\",\"public_key\":\"%s\"}", name,
             key_b64);
}

static void expect_error(e2e_response *r, long status, const char *code,
                         const char *words)
{
    cr_expect_eq(r->status, status, "%s", r->body);
    const json_t *error = json_object_get(r->json, "error");
    cr_expect_str_eq(json_string_value(json_object_get(error, "code")), code,
                     "%s", r->body);
    const char *message = json_string_value(json_object_get(error, "message"));
    cr_expect(message != NULL && strstr(message, words) != NULL, "%s", r->body);
    e2e_response_free(r);
}

Test(register, a_registration_must_be_signed_by_the_key_it_registers)
{
    e2e_server server = {0};
    e2e_start(&server);
    e2e_player owner = {0}, squatter = {0};
    client_new_key(&owner.key);
    client_new_key(&squatter.key);
    char body[256];
    registration(&owner.key, "Owner", body);

    e2e_response r = e2e_call(&server, "POST", "/v1/players", body, NULL);
    expect_error(&r, 401, "unsigned", "must be signed");

    /* The squatter knows the owner's public key and key id, not its
     * secret key. */
    snprintf(squatter.key.key_id, sizeof squatter.key.key_id, "%s",
             owner.key.key_id);
    r = e2e_call(&server, "POST", "/v1/players", body, &squatter);
    expect_error(&r, 401, "bad_signature", "not signed by the key");

    /* The owner's key under another key id. */
    e2e_player mislabelled = owner;
    snprintf(mislabelled.key.key_id, sizeof mislabelled.key.key_id,
             "k_0000000000000000");
    r = e2e_call(&server, "POST", "/v1/players", body, &mislabelled);
    expect_error(&r, 401, "bad_signature", owner.key.key_id);

    /* None of that registered anything: the owner still can. */
    r = e2e_call(&server, "POST", "/v1/players", body, &owner);
    cr_assert_eq(r.status, 201, "%s", r.body);
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "key_id")),
                     owner.key.key_id);
    e2e_response_free(&r);
    e2e_stop(&server);
}

Test(register, a_retried_registration_gets_its_first_answer)
{
    e2e_server server = {0};
    e2e_start(&server);
    e2e_player player = {0};
    client_new_key(&player.key);
    char body[256];
    registration(&player.key, "Retry", body);
    int64_t now = (int64_t)time(NULL);

    e2e_response first = e2e_call_signed(&server, "POST", "/v1/players", body,
                                         &player, now, "register-once", NULL,
                                         false);
    cr_assert_eq(first.status, 201, "%s", first.body);
    e2e_response again = e2e_call_signed(&server, "POST", "/v1/players", body,
                                         &player, now, "register-once", NULL,
                                         false);
    cr_expect_eq(again.status, 201, "%s", again.body);
    cr_expect(json_equal(first.json, again.json), "first %s, retry %s",
              first.body, again.body);
    e2e_response_free(&first);
    e2e_response_free(&again);

    /* A new request (new nonce) for the same key is a second registration. */
    e2e_response r = e2e_call(&server, "POST", "/v1/players", body, &player);
    expect_error(&r, 409, "key_registered", "already registered");
    e2e_stop(&server);
}

Test(register, a_body_without_a_key_is_refused_before_any_signature_check)
{
    e2e_server server = {0};
    e2e_start(&server);
    e2e_response r = e2e_call(&server, "POST", "/v1/players",
                              "{\"name\":\"Nobody\",\"public_key\":\"short\"}",
                              NULL);
    expect_error(&r, 400, "bad_public_key", "32-byte Ed25519");
    e2e_stop(&server);
}

/* A name is shown to the other players, in mail and in logs: a character
 * that steers the screen instead of spelling the name is refused. The
 * names are JSON text, escapes included. */
Test(register, a_name_holds_no_control_or_bidi_character)
{
    e2e_server server = {0};
    e2e_start(&server);
    static const char *const bad[] = {
        "Eve\\r\\nSubject: you won", "Eve\\u0007", "Eve\\u007f",
        "Eve\\u0085",                "Eve\\u2028x",
        "Eve\\u202Egnp.exe",         "Eve\\u202A",    "Eve\\u2066x",
        "Eve\\u2069",                "Eve\\t",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        e2e_player player = {0};
        client_new_key(&player.key);
        char body[256];
        registration(&player.key, bad[i], body);
        e2e_response r =
            e2e_call(&server, "POST", "/v1/players", body, &player);
        expect_error(&r, 400, "bad_name",
                     "each one that shows on the screen");
    }
    /* Letters of any script, and marks that do not reorder, are names. */
    static const char *const good[] = {"Zoë", "Ελένη", "王小明", "עדי",
                                       "Ann-Marie O'Neil"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        e2e_player player = {0};
        client_new_key(&player.key);
        char body[256];
        registration(&player.key, good[i], body);
        e2e_response r =
            e2e_call(&server, "POST", "/v1/players", body, &player);
        cr_expect_eq(r.status, 201, "%s: %s", good[i], r.body);
        e2e_response_free(&r);
    }
    e2e_stop(&server);
}
