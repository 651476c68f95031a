/* Dead letters through the admin API: signed with the admin key (keyid
 * "admin"), listed, and retried until delivered. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/notify_scene.h"

static void admin_key(e2e_player *admin)
{
    memset(admin, 0, sizeof *admin);
    client_new_key(&admin->key);
    snprintf(admin->key.key_id, sizeof admin->key.key_id, "admin");
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, admin->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    setenv("PBEM_ADMIN_KEY", b64, 1);
}

Test(admin, dead_letters_listed_and_retried, .timeout = 60)
{
    cr_assert(sodium_init() >= 0);
    notify_server_env();
    setenv("PBEM_NOTIFY_MAX_ATTEMPTS", "2", 1);
    e2e_player admin;
    admin_key(&admin);
    receiver hook;
    const char *args[] = {"--fail", "2", NULL};
    receiver_start(&hook, "webhook-receiver.mjs", args);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    char url[128], match[32];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", hook.port);
    receiver_add_secret(&hook, register_webhook(&s, &a, NULL, url));
    receiver_add_secret(&hook, register_webhook(&s, &b, NULL, url));
    two_player_match(&s, &a, &b, match);
    json_t *dead =
        wait_notification_of_either(&s, &a, &b, "webhook:", "dead", 20, NULL);
    cr_assert_not_null(dead);
    char id[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(dead, "id")));
    json_decref(dead);

    /* Players cannot use the admin API; unsigned requests neither. */
    e2e_response r = e2e_call(&s, "GET", "/v1/admin/notifications", NULL, &a);
    cr_assert_eq(r.status, 401, "%s", r.body);
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/admin/notifications", NULL, NULL);
    cr_assert_eq(r.status, 401);
    e2e_response_free(&r);

    r = e2e_call(&s, "GET", "/v1/admin/notifications?status=dead", NULL, &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *first = json_array_get(json_object_get(r.json, "notifications"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(first, "id")), id);
    cr_assert_eq(json_array_size(json_object_get(first, "attempt_log")), 2);
    e2e_response_free(&r);

    char path[128];
    snprintf(path, sizeof path, "/v1/admin/notifications/%s/retry", id);
    r = e2e_call(&s, "POST", path, "{}", &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    /* Revived: pending, or already sent if the worker was quicker than
     * this answer. */
    cr_assert_str_neq(json_string_value(json_object_get(
                          json_object_get(r.json, "notification"), "status")),
                      "dead");
    e2e_response_free(&r);
    /* Retrying what is not dead is refused. */
    json_t *lines = receiver_wait(&hook, 3, 20);
    cr_assert_eq(json_array_size(lines), 3);
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(lines, 2), "status")),
                 204);
    json_decref(lines);
    json_t *sent =
        wait_notification_of_either(&s, &a, &b, "webhook:", "sent", 15, NULL);
    cr_assert_not_null(sent);
    cr_assert_eq(json_array_size(json_object_get(sent, "attempt_log")), 3);
    json_decref(sent);
    r = e2e_call(&s, "POST", path, "{}", &admin);
    cr_assert_eq(r.status, 409, "%s", r.body);
    e2e_response_free(&r);
    stop_server(&s);
    receiver_stop(&hook);
}
