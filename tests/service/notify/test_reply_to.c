/* Every mail to a person can be answered: with PBEM_MAIL_REPLY_TO set, a
 * notification carries Reply-To: a fresh single-use address whose token
 * names the seat the mail is about (a digest: the player's account), and
 * says in one line how to answer. The tokens are read back here with the
 * server's own key, as the mailin/ handler reads them. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth/reply_token.h"
#include "ledger/seal.h"
#include "../../support/notify_scene.h"
#include "store/store.h"

static const char *member(const json_t *object, const char *key)
{
    const char *value = json_string_value(json_object_get(object, key));
    return value ? value : "(none)";
}

static void scene(receiver *smtp, e2e_server *s, e2e_player *a, e2e_player *b)
{
    notify_server_env();
    receiver_start(smtp, "smtp-receiver.mjs", NULL);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp->port);
    setenv("PBEM_SMTP_URL", url, 1);
    setenv("PBEM_MAIL_FROM", "pbem <turns@pbem.example>", 1);
    e2e_start(s);
    e2e_register(s, "Robert", a);
    e2e_register(s, "Eliza", b);
}

/* The token of a Reply-To address, read with the server's key. */
static reply_token token_of(const e2e_server *s, const char *address)
{
    apierr err;
    cr_assert(seal_load_key(s->key_file, &err), "%s", err.message);
    cr_assert_eq(strncmp(address, "pbem+", 5), 0, "Reply-To: %s", address);
    const char *at = strchr(address, '@');
    cr_assert_not_null(at);
    cr_assert_str_eq(at, "@pbem.example");
    char text[REPLY_TOKEN_CHARS + 8];
    snprintf(text, sizeof text, "%.*s", (int)(at - address - 5), address + 5);
    reply_token token;
    char why[160] = "";
    cr_assert(reply_token_read(text, (long long)time(NULL), &token, why,
                               sizeof why),
              "token %s: %s", text, why);
    return token;
}

Test(reply_to, a_your_turn_mail_answers_to_the_seat_it_is_about,
     .timeout = 60)
{
    setenv("PBEM_MAIL_REPLY_TO", "pbem@pbem.example", 1);
    receiver smtp;
    e2e_server s = {0};
    e2e_player a, b;
    scene(&smtp, &s, &a, &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    json_t *m = json_array_get(mails, 0);
    const char *to = member(json_array_get(json_object_get(m, "to"), 0), "name");
    const e2e_player *who = strcmp(to, "Robert") == 0 ? &a : &b;
    int seat = who == &a ? 0 : 1;
    json_t *reply_to = json_object_get(m, "reply_to");
    cr_assert_eq(json_array_size(reply_to), 1, "no Reply-To: %s",
                 member(m, "raw"));
    reply_token token =
        token_of(&s, json_string_value(json_array_get(reply_to, 0)));
    cr_expect_eq(token.kind, REPLY_TOKEN_SEAT);
    cr_expect_eq(token.subject, store_parse_player_ref(who->id));
    cr_expect_eq(token.match_id, store_parse_match_ref(match));
    cr_expect_eq(token.seat, seat);
    const char *text = member(m, "text");
    cr_expect_not_null(strstr(text, "Answer this mail with your move on a "
                                    "line of its own, for example:\n  "),
                       "%s", text);
    cr_expect_not_null(
        strstr(text, "\nOther commands: view, log, matches, rules, help.\n"),
        "%s", text);
    cr_expect_not_null(strstr(member(m, "html"), "Answer this mail"));
    /* What the seat sees opens with who sits where. */
    const char *legend = seat == 0 ? "seat 0 Robert (you), seat 1 Eliza\n"
                                   : "seat 0 Robert, seat 1 Eliza (you)\n";
    cr_expect_not_null(strstr(text, legend), "%s", text);
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(reply_to, each_attempt_gets_its_own_address, .timeout = 60)
{
    setenv("PBEM_MAIL_REPLY_TO", "pbem@pbem.example", 1);
    receiver smtp;
    e2e_server s = {0};
    e2e_player a, b;
    scene(&smtp, &s, &a, &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    /* The same notification sent again (an admin's retry, a lost answer)
     * is the same message with another single-use address. */
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK);
    /* The receiver has the mail before the service marks it sent: made
     * pending before that, the service's mark would undo the retry. */
    double until = receiver_now() + 20;
    for (bool reset = false; !reset;) {
        PGresult *r =
            PQexec(db, "UPDATE outbox SET status = 'pending',"
                       " next_attempt_at = now()"
                       " WHERE channel = 'email' AND status = 'sent'");
        cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                     PQerrorMessage(db));
        reset = atoi(PQcmdTuples(r)) > 0;
        PQclear(r);
        cr_assert(reset || receiver_now() < until,
                  "waited 20 s for the mail received to be marked sent");
        if (!reset)
            pause_ms(20);
    }
    PQclear(PQexec(db, "NOTIFY pbem_outbox"));
    PQfinish(db);
    json_decref(mails);
    mails = receiver_wait(&smtp, 2, 20);
    cr_assert_eq(json_array_size(mails), 2);
    json_t *first = json_array_get(mails, 0), *second = json_array_get(mails, 1);
    cr_expect_str_eq(member(first, "message_id"), member(second, "message_id"));
    const char *one = json_string_value(
        json_array_get(json_object_get(first, "reply_to"), 0));
    const char *two = json_string_value(
        json_array_get(json_object_get(second, "reply_to"), 0));
    cr_assert_not_null(one);
    cr_assert_not_null(two);
    cr_expect_str_neq(one, two);
    reply_token t1 = token_of(&s, one), t2 = token_of(&s, two);
    cr_expect_eq(t1.subject, t2.subject);
    cr_expect_str_neq(t1.id, t2.id);
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(reply_to, without_a_reply_address_a_mail_has_none, .timeout = 60)
{
    unsetenv("PBEM_MAIL_REPLY_TO");
    receiver smtp;
    e2e_server s = {0};
    e2e_player a, b;
    scene(&smtp, &s, &a, &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    json_t *m = json_array_get(mails, 0);
    cr_expect(!json_is_array(json_object_get(m, "reply_to")), "Reply-To: %s",
              member(m, "raw"));
    cr_expect_null(strstr(member(m, "text"), "Answer this mail"));
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(reply_to, a_digest_answers_to_the_players_account, .timeout = 90)
{
    setenv("PBEM_MAIL_REPLY_TO", "pbem@pbem.example", 1);
    receiver smtp;
    e2e_server s = {0};
    e2e_player a, b;
    scene(&smtp, &s, &a, &b);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    char settings[96];
    snprintf(settings, sizeof settings, "{\"digest\":true,\"digest_hour\":%d}",
             (utc.tm_hour + 2) % 24);
    e2e_response r = e2e_call(&s, "PUT", "/v1/players/me/notification-settings",
                              settings, &a);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    r = e2e_call(&s, "PUT", "/v1/players/me/notification-settings", settings,
                 &b);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    char match[32];
    two_player_match(&s, &a, &b, match);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK);
    PQclear(PQexec(db, "UPDATE outbox SET next_attempt_at = now()"
                       " WHERE digest; NOTIFY pbem_outbox"));
    PQfinish(db);
    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    json_t *m = json_array_get(mails, 0);
    cr_assert_not_null(strstr(member(m, "subject"), "Your turn in"));
    const char *to = member(json_array_get(json_object_get(m, "to"), 0), "name");
    const e2e_player *who = strcmp(to, "Robert") == 0 ? &a : &b;
    reply_token token = token_of(
        &s, json_string_value(json_array_get(json_object_get(m, "reply_to"), 0)));
    cr_expect_eq(token.kind, REPLY_TOKEN_ACCOUNT);
    cr_expect_eq(token.subject, store_parse_player_ref(who->id));
    cr_expect_eq(token.match_id, 0);
    cr_expect_eq(token.seat, -1);
    cr_expect_not_null(strstr(member(m, "text"),
                              "Answer this mail with a command on a line of "
                              "its own: matches, help."));
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}
