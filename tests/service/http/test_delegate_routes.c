/* test_delegate_routes.c: what every route answers a bot's delegated key,
 * through the real pbemd, as docs/bots.md and openapi.yaml say it: a
 * request signed by a key the player granted view, move and join for every
 * match, naming the player in Pbem-On-Behalf-Of.
 *   - view, move and join routes serve it (whatever they answer then, it
 *     is not 401 or 403);
 *   - every other route signed by a player's key answers 403
 *     delegate_not_allowed: that is the player's own;
 *   - registration, adding a key, the mail door and the admin routes do
 *     not read the header: the signature must be the account's new key,
 *     the admin's or the mail server's, and the bot's is none of them: 401;
 *   - public routes answer as they answer anyone.
 * Every answer is recorded, so the response check of make test holds each
 * status against the ones openapi.yaml lists for its route. Streams are
 * left out: they would stay open (their scopes are the delegates suite's). */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../support/e2e.h"

typedef enum delegate_expect {
    SERVED,      /* neither 401 nor 403 */
    NOT_ALLOWED, /* 403 delegate_not_allowed */
    NOT_THEIRS,  /* 401 */
    PUBLIC,      /* below 400, as for anyone */
} delegate_expect;

typedef struct delegate_case {
    const char *method;
    const char *path; /* "%s" is the match id */
    const char *body; /* "%k" is a fresh public key */
    delegate_expect expect;
} delegate_case;

static const delegate_case cases[] = {
    {"GET", "/healthz", NULL, PUBLIC},
    {"GET", "/v1/games", NULL, PUBLIC},
    {"GET", "/v1/matches/%s", NULL, PUBLIC},
    {"GET", "/v1/matches/%s/events", NULL, PUBLIC},
    {"GET", "/v1/matches/%s/verify", NULL, PUBLIC},

    {"GET", "/v1/matches/%s/view", NULL, SERVED},
    {"GET", "/v1/matches/%s/decisions/d1", NULL, SERVED},
    {"POST", "/v1/matches/%s/moves", "{\"seq\":0,\"action\":{}}", SERVED},
    {"POST", "/v1/matches/%s/decisions/d1/commit", "{}", SERVED},
    {"POST", "/v1/matches/%s/decisions/d1/reveal", "{}", SERVED},
    {"POST", "/v1/matches/%s/join", "{}", SERVED},
    {"GET", "/v1/matches/%s/messages", NULL, SERVED},

    {"POST", "/v1/matches", "{\"game\":\"antiquity_quest\",\"seats\":2}",
     NOT_ALLOWED},
    {"POST", "/v1/matches/%s/invitations", "{}", NOT_ALLOWED},
    {"POST", "/v1/matches/%s/webhooks", "{}", NOT_ALLOWED},
    {"POST", "/v1/matches/%s/nudge", NULL, NOT_ALLOWED},
    {"POST", "/v1/matches/%s/messages", "{\"text\":\"hi\"}", NOT_ALLOWED},
    {"GET", "/v1/players/me", NULL, NOT_ALLOWED},
    {"GET", "/v1/players/me/matches", NULL, NOT_ALLOWED},
    {"GET", "/v1/players/me/keys", NULL, NOT_ALLOWED},
    {"DELETE", "/v1/players/me/keys/k_0000000000000001", NULL, NOT_ALLOWED},
    {"GET", "/v1/players/me/vacation", NULL, NOT_ALLOWED},
    {"POST", "/v1/players/me/vacation", "{}", NOT_ALLOWED},
    {"DELETE", "/v1/players/me/vacation/v_1", NULL, NOT_ALLOWED},
    {"GET", "/v1/players/me/delegates", NULL, NOT_ALLOWED},
    {"POST", "/v1/players/me/delegates", "{}", NOT_ALLOWED},
    {"DELETE", "/v1/players/me/delegates/d_1", NULL, NOT_ALLOWED},
    {"GET", "/v1/players/me/notifications", NULL, NOT_ALLOWED},
    {"GET", "/v1/players/me/notification-settings", NULL, NOT_ALLOWED},
    {"PUT", "/v1/players/me/notification-settings", "{}", NOT_ALLOWED},
    {"GET", "/v1/players/me/webhooks", NULL, NOT_ALLOWED},
    {"POST", "/v1/players/me/webhooks", "{}", NOT_ALLOWED},
    {"DELETE", "/v1/players/me/webhooks/w_1", NULL, NOT_ALLOWED},
    /* A link code would let whoever types it act as the player. */
    {"POST", "/v1/players/me/chat-links", NULL, NOT_ALLOWED},
    {"GET", "/v1/players/me/push-subscriptions", NULL, NOT_ALLOWED},
    {"POST", "/v1/players/me/push-subscriptions", "{}", NOT_ALLOWED},
    {"DELETE", "/v1/players/me/push-subscriptions/ps_1", NULL, NOT_ALLOWED},

    {"POST", "/v1/players", "{\"name\":\"Bot\",\"public_key\":\"%k\"}",
     NOT_THEIRS},
    {"POST", "/v1/players/me/keys", "{\"public_key\":\"%k\"}", NOT_THEIRS},
    {"POST", "/v1/mail/inbound", "From: a@b\r\n\r\nhi", NOT_THEIRS},
    {"POST", "/v1/chat/discord/interactions", "{\"type\":1}", NOT_THEIRS},
    {"POST", "/v1/chat/slack/commands", "text=view", NOT_THEIRS},
    {"GET", "/v1/admin/export", NULL, NOT_THEIRS},
    {"POST", "/v1/admin/matches/import", "{}", NOT_THEIRS},
    {"GET", "/v1/admin/notifications", NULL, NOT_THEIRS},
    {"POST", "/v1/admin/notifications/1/retry", NULL, NOT_THEIRS},
    {"GET", "/v1/admin/matches/%s/export", NULL, NOT_THEIRS},
    {"POST", "/v1/admin/matches/%s/rewind", "{\"seq\":1}", NOT_THEIRS},
    {"POST", "/v1/admin/matches/%s/abort", "{}", NOT_THEIRS},
    {"POST", "/v1/admin/matches/%s/seats/0/replace", "{}", NOT_THEIRS},
};

/* text with "%k" replaced by a fresh key's base64 (malloc'd), or NULL. */
static char *with_fresh_key(const char *text)
{
    if (text == NULL)
        return NULL;
    const char *at = strstr(text, "%k");
    if (at == NULL)
        return strdup(text);
    client_key key;
    client_new_key(&key);
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    size_t len = strlen(text) + strlen(b64);
    char *out = malloc(len + 1);
    cr_assert_not_null(out);
    snprintf(out, len + 1, "%.*s%s%s", (int)(at - text), text, b64, at + 2);
    return out;
}

/* The player grants bot view, move and join in every match for a day. */
static void grant_everything(const e2e_table *t, const client_key *bot)
{
    char key[64], expires[32], body[512];
    sodium_bin2base64(key, sizeof key, bot->public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    time_t tomorrow = time(NULL) + 86400;
    struct tm tm;
    gmtime_r(&tomorrow, &tm);
    strftime(expires, sizeof expires, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(body, sizeof body,
             "{\"public_key\":\"%s\",\"name\":\"Table bot\","
             "\"scope\":[\"view\",\"move\",\"join\"],\"matches\":\"all\","
             "\"expires\":\"%s\"}",
             key, expires);
    e2e_response r = e2e_call(&t->server, "POST", "/v1/players/me/delegates",
                              body, &t->players[0]);
    cr_assert_eq(r.status, 201, "grant: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

static void expect_answer(const delegate_case *c, const char *path,
                          const e2e_response *r)
{
    const char *code = e2e_error_code(r);
    switch (c->expect) {
    case SERVED:
        cr_expect(r->status != 401 && r->status != 403,
                  "%s %s: a granted bot got %ld %s", c->method, path, r->status,
                  r->body);
        break;
    case NOT_ALLOWED:
        cr_expect(r->status == 403 && strcmp(code, "delegate_not_allowed") == 0,
                  "%s %s: wanted 403 delegate_not_allowed, got %ld %s",
                  c->method, path, r->status, r->body);
        break;
    case NOT_THEIRS:
        cr_expect_eq(r->status, 401, "%s %s: wanted 401, got %ld %s", c->method,
                     path, r->status, r->body);
        break;
    case PUBLIC:
        cr_expect_lt(r->status, 400, "%s %s: got %ld %s", c->method, path,
                     r->status, r->body);
        break;
    }
}

/* Names a fresh key as the operator's key for name (PBEM_ADMIN_KEY…), so
 * its routes judge signatures rather than answer that they are off. */
static void operator_key(const char *name)
{
    client_key key;
    client_new_key(&key);
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    setenv(name, b64, 1);
}

Test(delegate_routes, each_route_answers_a_bot_as_the_docs_say, .timeout = 120)
{
    operator_key("PBEM_ADMIN_KEY");
    operator_key("PBEM_MAIL_INBOUND_KEY");
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    client_key bot;
    client_new_key(&bot);
    grant_everything(&t, &bot);
    client_send_options as_player = {.on_behalf_of = t.players[0].id};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[160];
        snprintf(path, sizeof path, cases[i].path, t.match);
        char *body = with_fresh_key(cases[i].body);
        e2e_response r = e2e_call_with(&t.server, cases[i].method, path, body,
                                       &bot, &as_player);
        expect_answer(&cases[i], path, &r);
        e2e_response_free(&r);
        free(body);
    }
    e2e_stop(&t.server);
}
