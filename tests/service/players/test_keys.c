/* A player's account and keys on the real pbemd: who am I, which keys sign
 * for me, adding a second key signed by the first, revoking one (refused
 * by auth from the next request on), and the hostile inputs: bad base64,
 * names too long or with control characters, someone else's key id, a
 * token where none belongs, a key registered already. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "players_scene.h"

static json_t *get_ok(const e2e_server *s, const char *path,
                      const e2e_player *signer)
{
    e2e_response r = e2e_call(s, "GET", path, NULL, signer);
    cr_assert_eq(r.status, 200, "GET %s: %ld %s", path, r.status, r.body);
    json_t *json = json_incref(r.json);
    e2e_response_free(&r);
    return json;
}

/* DELETE the key; a success answers the key, revoked. */
static long revoke(const e2e_server *s, const char *key_id,
                   const e2e_player *signer, char *code, size_t size)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/players/me/keys/%s", key_id);
    e2e_response r = e2e_call(s, "DELETE", path, NULL, signer);
    long status = r.status;
    snprintf(code, size, "%s", status == 200 ? "" : e2e_error_code(&r));
    if (status == 200) {
        json_t *key = json_object_get(r.json, "key");
        cr_expect_str_eq(scene_member(key, "key_id"), key_id);
        cr_expect(json_is_string(json_object_get(key, "revoked_at")), "%s",
                  r.body);
    }
    e2e_response_free(&r);
    return status;
}

Test(account, me_says_who_signed, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ada, bob;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_register(&s, "Bob", NULL, &bob);
    json_t *me = get_ok(&s, "/v1/players/me", &ada);
    cr_expect_str_eq(scene_member(me, "player_id"), ada.id);
    cr_expect_str_eq(scene_member(me, "name"), "Ada");
    cr_expect_str_eq(scene_member(me, "email"), "ada@example.org");
    json_decref(me);
    me = get_ok(&s, "/v1/players/me", &bob);
    cr_expect_str_eq(scene_member(me, "player_id"), bob.id);
    cr_expect(json_is_null(json_object_get(me, "email")));
    json_decref(me);

    e2e_response r = e2e_call(&s, "GET", "/v1/players/me", NULL, NULL);
    cr_expect_eq(r.status, 401);
    cr_expect_str_eq(e2e_error_code(&r), "unsigned");
    e2e_response_free(&r);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(keys, a_second_key_signed_by_the_first_signs_for_the_same_player,
     .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ada, phone;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_new_key(&phone);
    e2e_response r = scene_add_key(&s, &phone, "phone", NULL, &ada);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "key_id"), phone.key.key_id);
    cr_expect_str_eq(scene_member(r.json, "player_id"), ada.id);
    e2e_response_free(&r);

    json_t *me = get_ok(&s, "/v1/players/me", &phone);
    cr_expect_str_eq(scene_member(me, "player_id"), ada.id);
    json_decref(me);

    /* Both keys, oldest first; "current" is the one signing. */
    json_t *list = get_ok(&s, "/v1/players/me/keys", &phone);
    json_t *keys = json_object_get(list, "keys");
    cr_assert_eq(json_array_size(keys), 2, "%s",
                 json_dumps(list, JSON_COMPACT));
    json_t *first = json_array_get(keys, 0), *second = json_array_get(keys, 1);
    cr_expect_str_eq(scene_member(first, "key_id"), ada.key.key_id);
    cr_expect(json_is_null(json_object_get(first, "name")));
    cr_expect(json_is_false(json_object_get(first, "current")));
    cr_expect_str_eq(scene_member(second, "key_id"), phone.key.key_id);
    cr_expect_str_eq(scene_member(second, "name"), "phone");
    cr_expect(json_is_true(json_object_get(second, "current")));
    cr_expect(json_is_null(json_object_get(second, "revoked_at")));
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, phone.key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    cr_expect_str_eq(scene_member(second, "public_key"), b64);
    const char *created = scene_member(second, "created_at");
    cr_expect_eq(strlen(created), 20, "%s", created);
    cr_expect_eq(created[19], 'Z', "%s", created);
    json_decref(list);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(keys, hostile_additions_are_refused_with_a_sentence, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ada, bob, other;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_register(&s, "Bob", "bob@example.org", &bob);
    scene_new_key(&other);

    const char *bodies[] = {
        "{\"public_key\":\"not base64!\"}",
        "{\"public_key\":\"AAAA\"}",
        "{\"public_key\":42}",
        "{}",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        e2e_response r =
            e2e_call(&s, "POST", "/v1/players/me/keys", bodies[i], &ada);
        cr_expect_eq(r.status, 400, "%s: %ld %s", bodies[i], r.status, r.body);
        cr_expect_str_eq(e2e_error_code(&r), "bad_public_key");
        e2e_response_free(&r);
    }
    char long_name[100];
    memset(long_name, 'x', 81);
    long_name[81] = '\0';
    const char *names[] = {long_name, "", "tab\there", "new\nline"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        e2e_response r = scene_add_key(&s, &other, names[i], NULL, &ada);
        cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
        cr_expect_str_eq(e2e_error_code(&r), "bad_key_name");
        e2e_response_free(&r);
    }
    memset(long_name, 'x', 80);
    long_name[80] = '\0';

    /* A token belongs to a key signing for itself, not to one of yours. */
    e2e_response r = scene_add_key(&s, &other, NULL,
                                   "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                                   &ada);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "unexpected_sign_in_token");
    e2e_response_free(&r);

    /* A new key signing for itself needs a sign-in token. */
    r = scene_add_key(&s, &other, NULL, NULL, &other);
    cr_expect_eq(r.status, 401, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "sign_in_token_required");
    e2e_response_free(&r);

    /* Bob's key cannot be added to Ada's account. */
    r = scene_add_key(&s, &bob, NULL, NULL, &ada);
    cr_expect_eq(r.status, 409, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "key_registered");
    e2e_response_free(&r);

    /* None of that added anything; an 80-byte name is fine. */
    r = scene_add_key(&s, &other, long_name, NULL, &ada);
    cr_expect_eq(r.status, 201, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    json_t *list = get_ok(&s, "/v1/players/me/keys", &ada);
    cr_expect_eq(json_array_size(json_object_get(list, "keys")), 2);
    json_decref(list);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(keys, a_revoked_key_is_refused_at_once, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ada, phone;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_new_key(&phone);
    e2e_response r = scene_add_key(&s, &phone, "phone", NULL, &ada);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    /* The phone's key has just been used, so the server remembers it. */
    json_t *me = get_ok(&s, "/v1/players/me", &phone);
    json_decref(me);

    char code[64];
    cr_expect_eq(revoke(&s, phone.key.key_id, &ada, code, sizeof code), 200,
                 "%s", code);
    /* Told in words, not as a key never seen. */
    r = e2e_call(&s, "GET", "/v1/players/me", NULL, &phone);
    cr_expect_eq(r.status, 401, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "key_revoked");
    cr_expect(strstr(r.body, "this key was revoked on 20") != NULL &&
                  strstr(r.body, " UTC; sign in again") != NULL,
              "%s", r.body);
    e2e_response_free(&r);

    /* Revoking again changes nothing; the list shows when. */
    cr_expect_eq(revoke(&s, phone.key.key_id, &ada, code, sizeof code), 200,
                 "%s", code);
    json_t *list = get_ok(&s, "/v1/players/me/keys", &ada);
    json_t *second = json_array_get(json_object_get(list, "keys"), 1);
    cr_expect_str_eq(scene_member(second, "key_id"), phone.key.key_id);
    cr_expect(json_is_string(json_object_get(second, "revoked_at")));
    json_decref(list);

    /* A revoked key cannot come back. */
    r = scene_add_key(&s, &phone, NULL, NULL, &ada);
    cr_expect_eq(r.status, 409, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "key_registered");
    e2e_response_free(&r);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(keys, someone_elses_key_is_not_found, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ada, bob;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_register(&s, "Bob", "bob@example.org", &bob);
    char code[64];
    cr_expect_eq(revoke(&s, bob.key.key_id, &ada, code, sizeof code), 404);
    cr_expect_str_eq(code, "no_such_key");
    cr_expect_eq(revoke(&s, "k_0000000000000000", &ada, code, sizeof code),
                 404);
    cr_expect_str_eq(code, "no_such_key");
    /* Bob still signs. */
    json_t *me = get_ok(&s, "/v1/players/me", &bob);
    json_decref(me);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

Test(keys, the_last_key_of_an_account_without_email_stays, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player bob, ada, laptop;
    scene_register(&s, "Bob", NULL, &bob);
    scene_register(&s, "Ada", "ada@example.org", &ada);
    char code[64];
    cr_expect_eq(revoke(&s, bob.key.key_id, &bob, code, sizeof code), 409);
    cr_expect_str_eq(code, "last_key");
    json_t *me = get_ok(&s, "/v1/players/me", &bob);
    json_decref(me);

    /* With a second key, the first may go (signed by itself: signing
     * out). */
    scene_new_key(&laptop);
    e2e_response r = scene_add_key(&s, &laptop, "laptop", NULL, &bob);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    cr_expect_eq(revoke(&s, bob.key.key_id, &bob, code, sizeof code), 200,
                 "%s", code);
    cr_expect_eq(revoke(&s, laptop.key.key_id, &laptop, code, sizeof code),
                 409);
    cr_expect_str_eq(code, "last_key");

    /* An account with an address can always come back by a link. */
    cr_expect_eq(revoke(&s, ada.key.key_id, &ada, code, sizeof code), 200,
                 "%s", code);
    r = e2e_call(&s, "GET", "/v1/players/me", NULL, &ada);
    cr_expect_eq(r.status, 401);
    e2e_response_free(&r);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}

/* A lost answer: the same signed request sent again gets the first answer
 * back and adds nothing; the nonce on another request is refused. */
Test(keys, a_retried_addition_gets_its_first_answer, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ada, phone, other;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_new_key(&phone);
    scene_new_key(&other);
    char b64[64], body[160];
    sodium_bin2base64(b64, sizeof b64, phone.key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(body, sizeof body, "{\"public_key\":\"%s\",\"name\":\"phone\"}",
             b64);
    int64_t created = (int64_t)time(NULL);
    e2e_response first = e2e_call_signed(&s, "POST", "/v1/players/me/keys",
                                         body, &ada, created, "n-add-phone",
                                         NULL, false);
    cr_assert_eq(first.status, 201, "%ld %s", first.status, first.body);
    e2e_response again = e2e_call_signed(&s, "POST", "/v1/players/me/keys",
                                         body, &ada, created, "n-add-phone",
                                         NULL, false);
    cr_expect_eq(again.status, 201, "%ld %s", again.status, again.body);
    cr_expect(json_equal(first.json, again.json), "%s vs %s", first.body,
              again.body);
    e2e_response_free(&first);
    e2e_response_free(&again);

    sodium_bin2base64(b64, sizeof b64, other.key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(body, sizeof body, "{\"public_key\":\"%s\"}", b64);
    e2e_response reused = e2e_call_signed(&s, "POST", "/v1/players/me/keys",
                                          body, &ada, created, "n-add-phone",
                                          NULL, false);
    cr_expect_eq(reused.status, 401, "%ld %s", reused.status, reused.body);
    cr_expect_str_eq(e2e_error_code(&reused), "nonce_reused");
    e2e_response_free(&reused);

    json_t *list = get_ok(&s, "/v1/players/me/keys", &ada);
    cr_expect_eq(json_array_size(json_object_get(list, "keys")), 2);
    json_decref(list);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}
