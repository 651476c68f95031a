/* Hostile input over HTTP: whatever a client sends, the server answers with
 * the one error shape and stays up for the next request. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../support/e2e.h"

/* The server still answers after r: it did not die on the request. */
static void expect_alive(const e2e_server *server)
{
    e2e_response r = e2e_call(server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
}

static void expect_error(e2e_response *r, long status, const char *code)
{
    cr_expect_eq(r->status, status, "%s", r->body);
    cr_expect_str_eq(e2e_error_code(r), code, "%s", r->body);
    e2e_response_free(r);
}

Test(hostile, error_messages_that_quote_broken_utf8_do_not_kill_the_server)
{
    e2e_server server = {0};
    e2e_start(&server);
    e2e_player p;
    e2e_register(&server, "Mallory", &p);

    /* jansson quotes the bytes near a bad escape: here half of an "é". */
    e2e_response r =
        e2e_call(&server, "POST", "/v1/players", "{\"a\":\"\\u\xc3\xa9\"}", NULL);
    expect_error(&r, 400, "bad_json");
    expect_alive(&server);

    /* A setting name cut after 60 bytes, in the middle of an "é". */
    char key[96] = "x";
    for (int i = 0; i < 40; i++)
        strcat(key, "\xc3\xa9");
    char body[256];
    snprintf(body, sizeof body, "{\"%s\":true}", key);
    r = e2e_call(&server, "PUT", "/v1/players/me/notification-settings", body,
                 &p);
    expect_error(&r, 400, "bad_settings");
    expect_alive(&server);

    /* The same in a match's deadline settings. */
    char create[512];
    snprintf(create, sizeof create,
             "{\"game\":\"antiquity_quest\",\"seats\":2,"
             "\"deadline\":{\"turn_hours\":24,\"%s\":1}}",
             key);
    r = e2e_call(&server, "POST", "/v1/matches", create, &p);
    expect_error(&r, 400, "bad_deadline");
    expect_alive(&server);
    e2e_stop(&server);
}
