/* An address belongs to an account only once a link mailed to it was
 * opened: registering with another person's address attaches nothing and
 * sends that address nothing but the link; an account changes its address
 * the same way, keeping the old one until the new one is confirmed; an
 * account whose only way in is one key cannot revoke it. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "players_scene.h"

static long long mails_to(const char *address)
{
    return scene_sql_number(
        "SELECT count(*) FROM mail_answers WHERE to_address = $1", address);
}

/* The confirmation link in the count-th mail (1-based), which must have
 * gone to email: the query after "?", static. */
static const char *confirmation_query(const receiver *smtp, size_t count,
                                      const char *email)
{
    static char query[128];
    json_t *mails = receiver_wait(smtp, count, 20);
    cr_assert_geq(json_array_size(mails), count,
                  "waited 20 s for mail %zu; %zu came", count,
                  json_array_size(mails));
    json_t *m = json_array_get(mails, count - 1);
    cr_expect_str_eq(
        scene_member(json_array_get(json_object_get(m, "to"), 0), "address"),
        email);
    const char *text = scene_member(m, "text");
    /* The mailed link opens a page, not the API. */
    const char *prefix = "https://pbem.example/confirm-email?";
    const char *at = strstr(text, prefix);
    cr_assert_not_null(at, "no confirmation link in: %s", text);
    at += strlen(prefix);
    size_t len = strspn(at, "tokenABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqr"
                            "stuvwxyz0123456789-_=");
    cr_assert_lt(len, sizeof query);
    snprintf(query, sizeof query, "%.*s", (int)len, at);
    json_decref(mails);
    return query;
}

static e2e_response open_link(const e2e_server *s, const char *method,
                              const char *query)
{
    /* The mail's link is the page (GET); its button POSTs the API. */
    char path[200];
    snprintf(path, sizeof path, "%s?%s",
             strcmp(method, "GET") == 0 ? "/confirm-email"
                                        : "/v1/email-confirmations",
             query);
    return e2e_call(s, method, path, NULL, NULL);
}

/* Registers name with email as a person does: the address waits for its
 * link. */
static void register_typed(const e2e_server *s, const char *name,
                           const char *email, e2e_player *p)
{
    memset(p, 0, sizeof *p);
    client_new_key(&p->key);
    char error[256];
    cr_assert(client_register(s->http, name, email, &p->key, p->id, error),
              "register %s: %s", name, error);
}

static json_t *me(const e2e_server *s, const e2e_player *p)
{
    e2e_response r = e2e_call(s, "GET", "/v1/players/me", NULL, p);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    json_t *out = json_incref(r.json);
    e2e_response_free(&r);
    return out;
}

Test(email, another_persons_address_is_not_attached_by_registering,
     .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    e2e_player ann, mallory;
    scene_register(&s, "Ann", "ann@example.org", &ann);
    /* Mallory registers with Ann's address. */
    register_typed(&s, "Mallory", "ann@example.org", &mallory);
    json_t *who = me(&s, &mallory);
    cr_expect(json_is_null(json_object_get(who, "email")), "%s",
              json_dumps(who, 0));
    cr_expect_str_eq(scene_member(who, "email_pending"), "ann@example.org");
    json_decref(who);
    /* Ann's address got the link, saying which account asks. */
    const char *query = confirmation_query(&smtp, 1, "ann@example.org");
    cr_expect_eq(mails_to("ann@example.org"), 1);
    json_t *mails = receiver_lines(&smtp);
    const char *text = scene_member(json_array_get(mails, 0), "text");
    cr_expect_not_null(strstr(text, "named \"Mallory\""), "%s", text);
    cr_expect_not_null(strstr(text, "ignore this mail"), "%s", text);
    json_decref(mails);
    /* The address still signs in to Ann's account, not Mallory's. */
    e2e_response r = scene_ask_link(&s, "ann@example.org");
    cr_expect_eq(r.status, 202, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    const char *token = scene_link_token(&smtp, 2, "ann@example.org");
    e2e_player phone;
    scene_new_key(&phone);
    r = scene_add_key(&s, &phone, "phone", token, &phone);
    cr_expect_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "player_id"), ann.id);
    e2e_response_free(&r);
    /* The link is only good on its page's button: a GET changes nothing. */
    r = open_link(&s, "GET", query);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    cr_expect_not_null(strstr(r.body, "Confirm this address"), "%s", r.body);
    e2e_response_free(&r);
    who = me(&s, &mallory);
    cr_expect(json_is_null(json_object_get(who, "email")));
    json_decref(who);
    receiver_stop(&smtp);
    e2e_stop(&s);
}

Test(email, an_address_is_the_accounts_once_its_link_is_opened, .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    e2e_player zed;
    register_typed(&s, "Zed", "zed@example.org", &zed);
    /* Not yet: no sign-in link goes to it. */
    e2e_response r = scene_ask_link(&s, "zed@example.org");
    cr_expect_eq(r.status, 202);
    e2e_response_free(&r);
    const char *query = confirmation_query(&smtp, 1, "zed@example.org");
    char saved[128];
    snprintf(saved, sizeof saved, "%s", query);
    cr_expect_eq(mails_to("zed@example.org"), 1, "only the link went out");
    /* Once sent, the outbox's copy of the mail no longer holds the link. */
    long long forgotten = 0;
    for (int waited_ms = 0; forgotten == 0 && waited_ms < 10000;
         waited_ms += 100) {
        forgotten = scene_sql_number(
            "SELECT count(*) FROM mail_answers"
            " WHERE to_address = 'zed@example.org' AND status = 'sent'"
            " AND body LIKE '%token=(removed once sent)%'"
            " AND position($1 in body) = 0",
            saved);
        if (forgotten == 0)
            nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
    }
    cr_expect_eq(forgotten, 1,
                 "10 s after the mail came, its row still holds the link");

    r = open_link(&s, "POST", saved);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "status"), "confirmed");
    cr_expect_str_eq(scene_member(r.json, "email"), "zed@example.org");
    e2e_response_free(&r);
    json_t *who = me(&s, &zed);
    cr_expect_str_eq(scene_member(who, "email"), "zed@example.org");
    cr_expect_null(json_object_get(who, "email_pending"));
    json_decref(who);
    /* Once only. */
    r = open_link(&s, "POST", saved);
    cr_expect_eq(r.status, 409, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    /* Now the address signs in. */
    r = scene_ask_link(&s, "zed@example.org");
    cr_expect_eq(r.status, 202);
    e2e_response_free(&r);
    scene_link_token(&smtp, 2, "zed@example.org");
    /* Links that are not ours. */
    r = open_link(&s, "POST", "token=nonsense");
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    r = open_link(&s, "GET",
                  "token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    cr_expect_eq(r.status, 404, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    receiver_stop(&smtp);
    e2e_stop(&s);
}

Test(email, a_new_address_replaces_the_old_only_once_confirmed, .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    e2e_player ada;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    e2e_response r = e2e_call(&s, "POST", "/v1/players/me/email",
                              "{\"email\":\"ada@new.example\"}", &ada);
    cr_expect_eq(r.status, 202, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "email"), "ada@example.org");
    cr_expect_str_eq(scene_member(r.json, "email_pending"), "ada@new.example");
    e2e_response_free(&r);
    json_t *who = me(&s, &ada);
    cr_expect_str_eq(scene_member(who, "email"), "ada@example.org");
    cr_expect_str_eq(scene_member(who, "email_pending"), "ada@new.example");
    json_decref(who);
    const char *query = confirmation_query(&smtp, 1, "ada@new.example");
    char saved[128];
    snprintf(saved, sizeof saved, "%s", query);
    /* Two days later the link has expired; the old address stays. */
    scene_clock(scene_t0 + 49 * 3600);
    r = open_link(&s, "POST", saved);
    cr_expect_eq(r.status, 410, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    who = me(&s, &ada);
    cr_expect_str_eq(scene_member(who, "email"), "ada@example.org");
    cr_expect_null(json_object_get(who, "email_pending"));
    json_decref(who);
    /* Asked again and opened in time, it takes the old one's place. */
    r = e2e_call(&s, "POST", "/v1/players/me/email",
                 "{\"email\":\"ada@new.example\"}", &ada);
    cr_expect_eq(r.status, 202, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    query = confirmation_query(&smtp, 2, "ada@new.example");
    r = open_link(&s, "POST", query);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    who = me(&s, &ada);
    cr_expect_str_eq(scene_member(who, "email"), "ada@new.example");
    json_decref(who);
    /* The same address again: nothing to confirm, no mail. */
    r = e2e_call(&s, "POST", "/v1/players/me/email",
                 "{\"email\":\"ADA@new.example\"}", &ada);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    cr_expect_eq(mails_to("ada@new.example"), 2);
    r = e2e_call(&s, "POST", "/v1/players/me/email",
                 "{\"email\":\"not an address\"}", &ada);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    receiver_stop(&smtp);
    e2e_stop(&s);
}

/* An address typed at registration but never confirmed is no way back
 * in: the only key stays. */
Test(email, the_last_key_of_an_account_without_a_confirmed_address_stays,
     .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player eve;
    register_typed(&s, "Eve", "eve@example.org", &eve);
    char path[96];
    snprintf(path, sizeof path, "/v1/players/me/keys/%s", eve.key.key_id);
    e2e_response r = e2e_call(&s, "DELETE", path, NULL, &eve);
    cr_expect_eq(r.status, 409, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "last_key");
    cr_expect_not_null(strstr(r.body, "no confirmed email address"), "%s",
                       r.body);
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/players/me", NULL, &eve);
    cr_expect_eq(r.status, 200, "the key still signs: %ld", r.status);
    e2e_response_free(&r);
    e2e_stop(&s);
}
