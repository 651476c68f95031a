/* Web Push end to end: the real pbemd and its outbox worker deliver a
 * turn notice to a push service stub (tests/node/push-service.mjs) that
 * checks the VAPID signature and decrypts the notice with the
 * subscription's private key, as a browser would; and the RFC's own
 * example of the encryption, byte for byte. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/notify_scene.h"
#include "notify/push_crypto.h"

static size_t from_b64(const char *text, uint8_t *out, size_t size)
{
    size_t len = 0;
    cr_assert_eq(sodium_base642bin(out, size, text, strlen(text), NULL, &len,
                                   NULL,
                                   sodium_base64_VARIANT_URLSAFE_NO_PADDING),
                 0, "not base64url: %s", text);
    return len;
}

/* RFC 8291 Appendix A: its keys, salt and plaintext give its body. */
Test(push_crypto, rfc8291_appendix_a_encrypts_to_the_rfcs_body)
{
    cr_assert_eq(sodium_init() < 0, 0);
    uint8_t as_secret[32], salt[16], ua_public[65], auth[16], want[200];
    from_b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw", as_secret, 32);
    from_b64("DGv6ra1nlYgDCS1FRnbzlw", salt, 16);
    from_b64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyP"
             "js7Vd8pZGH6SRpkNtoIAiw4",
             ua_public, 65);
    from_b64("BTBZMqHH6r4Tts7J_aSIgg", auth, 16);
    size_t want_len = from_b64(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
        "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
        "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
        want, sizeof want);
    const char *plain = "When I grow up, I want to be a watermelon";
    uint8_t body[PUSH_CRYPTO_BODY_BYTES(41)];
    cr_assert_eq(want_len, sizeof body);
    cr_assert(push_crypto_encrypt_with(as_secret, salt, ua_public, auth,
                                       (const uint8_t *)plain, strlen(plain),
                                       body));
    cr_assert_eq(memcmp(body, want, sizeof body), 0,
                 "the body differs from RFC 8291's");
}

Test(push_crypto, a_key_off_the_curve_is_refused)
{
    uint8_t key[65] = {4};
    key[1] = 1;
    cr_assert_not(push_crypto_valid_key(key));
    key[0] = 2;
    cr_assert_not(push_crypto_valid_key(key));
}

/* POSTs the stub's subscription for p; answers the subscription's id. */
static void subscribe(const e2e_server *s, const e2e_player *p,
                      const receiver *push, char id[32])
{
    const json_t *first = receiver_await(push, 0, receiver_now() + 10);
    cr_assert_not_null(first, "the push service wrote no subscription");
    char *body = json_dumps(json_object_get(first, "subscription"), 0);
    e2e_response r =
        e2e_call(s, "POST", "/v1/players/me/push-subscriptions", body, p);
    free(body);
    cr_assert_eq(r.status, 201, "subscribe: %ld %s", r.status, r.body);
    snprintf(id, 32, "%s",
             json_string_value(json_object_get(
                 json_object_get(r.json, "subscription"), "id")));
    e2e_response_free(&r);
}

/* The prompt of the seat that must act in match, and that seat. */
static int pending(const e2e_server *s, const e2e_player *a, const char *match,
                   char prompt[300])
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, a);
    cr_assert_eq(r.status, 200);
    int seat = e2e_first_pending_seat(r.json);
    const char *p = json_string_value(json_object_get(r.json, "prompt"));
    if (p == NULL)
        p = json_string_value(
            json_object_get(json_object_get(r.json, "pending"), "prompt"));
    cr_assert_not_null(p, "the match shows no prompt: %s", r.body);
    snprintf(prompt, 300, "%s", p);
    e2e_response_free(&r);
    return seat;
}

Test(push, a_turn_notice_arrives_signed_and_readable_only_by_the_browser,
     .timeout = 60)
{
    notify_server_env();
    receiver push;
    receiver_start(&push, "push-service.mjs", NULL);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    /* One browser both players use: whoever must act is told there. */
    char id_a[32], id_b[32];
    subscribe(&s, &a, &push, id_a);
    subscribe(&s, &b, &push, id_b);
    e2e_response r =
        e2e_call(&s, "GET", "/v1/players/me/push-subscriptions", NULL, &a);
    cr_assert_eq(r.status, 200);
    const char *vapid =
        json_string_value(json_object_get(r.json, "vapid_public_key"));
    cr_assert(vapid && strlen(vapid) == 87, "the VAPID key: %s", r.body);
    char vapid_key[100];
    snprintf(vapid_key, sizeof vapid_key, "%s", vapid);
    json_t *mine = json_object_get(r.json, "subscriptions");
    cr_assert_eq(json_array_size(mine), 1);
    cr_assert_str_eq(
        json_string_value(json_object_get(json_array_get(mine, 0), "id")),
        id_a);
    e2e_response_free(&r);

    char match[32], prompt[300];
    two_player_match(&s, &a, &b, match);
    int seat = pending(&s, &a, match, prompt);
    cr_assert_geq(seat, 0);
    const json_t *line = receiver_await(&push, 1, receiver_now() + 20);
    cr_assert_not_null(line, "no push came within 20 s");
    cr_assert(json_is_true(json_object_get(line, "verified")),
              "the push service refused it: %s",
              json_string_value(json_object_get(line, "error")));
    /* Signed with the key the page subscribes with. */
    cr_assert_str_eq(json_string_value(json_object_get(line, "vapid_key")),
                     vapid_key);
    const json_t *notice = json_object_get(line, "notice");
    char title[100], url[64], ending[340];
    snprintf(title, sizeof title, "Your turn in Artifact Stack");
    snprintf(url, sizeof url, "/matches/%s", match);
    snprintf(ending, sizeof ending, "Your turn: %s.", prompt);
    cr_assert_str_eq(json_string_value(json_object_get(notice, "title")),
                     title);
    cr_assert_str_eq(json_string_value(json_object_get(notice, "url")), url);
    const char *body = json_string_value(json_object_get(notice, "body"));
    cr_assert_not_null(body);
    cr_assert(strlen(body) >= strlen(ending) &&
                  strcmp(body + strlen(body) - strlen(ending), ending) == 0,
              "the notice reads \"%s\", not ending \"%s\"", body, ending);
    /* Its player sees it sent, on its channel. */
    json_t *sent =
        wait_notification(&s, seat == 0 ? &a : &b, "push:", "sent", 10);
    cr_assert_not_null(sent, "the push row is not marked sent");
    json_decref(sent);
    stop_server(&s);
    receiver_stop(&push);
}

Test(push, a_subscription_the_push_service_dropped_is_turned_off, .timeout = 60)
{
    notify_server_env();
    const char *args[] = {"--status", "410", NULL};
    receiver push;
    receiver_start(&push, "push-service.mjs", args);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    char id_a[32], id_b[32], match[32];
    subscribe(&s, &a, &push, id_a);
    subscribe(&s, &b, &push, id_b);
    two_player_match(&s, &a, &b, match);
    char prompt[300];
    const e2e_player *told = pending(&s, &a, match, prompt) == 0 ? &a : &b;
    json_t *dead = wait_notification(&s, told, "push:", "dead", 20);
    cr_assert_not_null(dead, "a 410 did not end the push row");
    cr_assert_eq(json_integer_value(json_object_get(dead, "attempts")), 1,
                 "a dropped subscription is not tried again");
    json_decref(dead);
    e2e_response r =
        e2e_call(&s, "GET", "/v1/players/me/push-subscriptions", NULL, told);
    cr_assert_eq(r.status, 200);
    cr_assert_eq(json_array_size(json_object_get(r.json, "subscriptions")), 0,
                 "the dropped subscription is still on: %s", r.body);
    e2e_response_free(&r);
    stop_server(&s);
    receiver_stop(&push);
}

Test(push, a_bad_subscription_is_refused_with_the_reason, .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    static const struct {
        const char *body, *says;
    } cases[] = {
        {"{\"keys\":{}}", "endpoint is missing"},
        {"{\"endpoint\":\"ftp://push.example/x\",\"keys\":{}}", "https://"},
        {"{\"endpoint\":\"https://push.example/x\",\"keys\":{\"p256dh\":"
         "\"BAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
         "A"
         "AAAAAAAAAAAAAAAAAA\",\"auth\":\"BTBZMqHH6r4Tts7J_aSIgg\"}}",
         "P-256 public key"},
        {"{\"endpoint\":\"https://push.example/x\",\"keys\":{\"p256dh\":"
         "\"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-"
         "AYWXvTBHm4bjyPjs7V"
         "d8pZGH6SRpkNtoIAiw4\",\"auth\":\"BTBZ\"}}",
         "16-byte auth"},
        {"{\"endpoint\":\"https://u:p@push.example/x\",\"keys\":{}}",
         "credentials"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        e2e_response r = e2e_call(
            &s, "POST", "/v1/players/me/push-subscriptions", cases[i].body, &a);
        cr_assert_eq(r.status, 400, "%s: %ld %s", cases[i].body, r.status,
                     r.body);
        cr_assert_str_eq(e2e_error_code(&r), "bad_subscription");
        cr_assert(strstr(r.body, cases[i].says) != NULL, "%s answered %s",
                  cases[i].body, r.body);
        e2e_response_free(&r);
    }
    /* Turning off one that is not yours, or twice, is 404. */
    e2e_response r = e2e_call(
        &s, "DELETE", "/v1/players/me/push-subscriptions/ps_999", NULL, &a);
    cr_assert_eq(r.status, 404, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    stop_server(&s);
}
