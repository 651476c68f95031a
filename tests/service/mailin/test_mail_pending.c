/* Someone who registered on the web with their address, and has not
 * opened the link mailed to it yet, then writes by mail from it (#37):
 * the mail door says the address waits for that account and how to
 * confirm it, and answering makes the address that account's, where it
 * used to make a second, email-only account. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail_people.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};

/* The next mail to address that answers Message-ID id. */
static json_t *answer_to(mail_scene *scene, const char *address, const char *id,
                         size_t *from)
{
    for (;;) {
        json_t *mail = mail_next_to(scene, address, from, 20);
        cr_assert_not_null(mail, "no answer to <%s>", id);
        const char *answered =
            json_string_value(json_object_get(mail, "in_reply_to"));
        if (answered && strstr(answered, id))
            return mail;
        json_decref(mail);
    }
}

static long long number(PGconn *db, const char *sql, const char *param)
{
    const char *params[] = {param};
    PGresult *r = PQexecParams(db, sql, 1, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(db));
    long long n = PQntuples(r) ? atoll(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
}

/* address belongs to one account, the web account ref, whose link is
 * spent: no second account was made for it. */
static void expect_the_address_of(const char *ref, const char *address)
{
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    const char *holders = "SELECT count(*) FROM players"
                          " WHERE lower(email) = lower($1)";
    cr_expect_eq(number(db, holders, address), 1,
                 "the address belongs to one account");
    const char *holder = "SELECT player_id FROM players"
                         " WHERE lower(email) = lower($1)";
    cr_expect_eq(number(db, holder, address), atoll(ref + 2),
                 "the address is not the web account's");
    cr_expect_eq(number(db,
                        "SELECT count(*) FROM email_confirmations"
                        " WHERE player_id = $1::bigint"
                        "   AND confirmed_at IS NOT NULL",
                        ref + 2),
                 1, "the link is not spent");
    PQfinish(db);
}

/* name registers on the web with address and is mailed the confirmation
 * link, which stays unopened; ref gets the account's id. From then on,
 * *from counts mails after the link. */
static void registered_waiting(mail_scene *scene, const char *name,
                               const char *address, size_t *from, char ref[32])
{
    client_key key;
    client_new_key(&key);
    char error[256];
    cr_assert(
        client_register(scene->server.http, name, address, &key, ref, error),
        "%s", error);
    json_t *link = mail_next_to(scene, address, from, 20);
    cr_assert_not_null(link, "no confirmation link went to %s", address);
    json_decref(link);
}

Test(mail_pending, a_web_account_waiting_for_its_link_is_the_one_mail_reaches,
     .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    const char *ann = "ann@example.org";
    size_t from = mail_count(&scene);
    char ref[32];
    registered_waiting(&scene, "Ann Web", ann, &from, ref);

    /* She does not open it, and writes to the service instead. */
    char id[128] = "";
    char *raw = mail_scene_compose(ann, "pbem@example.org", "a game", NULL,
                                   NULL, "new antiquity_quest seats=2", id);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    json_t *asked = answer_to(&scene, ann, id, &from);
    const char *text = mail_text(asked);
    cr_expect(strstr(text, "This address is waiting to be confirmed for the "
                           "player \"Ann Web\"") != NULL,
              "%s", text);
    cr_expect(strstr(text, "Open the link in the mail sent to it") != NULL,
              "%s", text);
    cr_expect(strstr(text, "or answer this mail") != NULL, "%s", text);
    cr_expect(strstr(text, "makes this address a player") == NULL,
              "a second account is offered:\n%s", text);

    /* She answers it: the address is Ann Web's, and no other player's. */
    const char *reply_to = mail_reply_to(asked);
    cr_assert_not_null(reply_to);
    char again[128] = "";
    raw =
        mail_scene_compose(ann, reply_to, "Re: a game", id, NULL, "yes", again);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    json_t *done = answer_to(&scene, ann, again, &from);
    cr_expect(strstr(mail_text(done), "antiquity_quest") != NULL ||
                  strstr(mail_text(done), "Antiquity Quest") != NULL,
              "the first mail's command did not run:\n%s", mail_text(done));
    expect_the_address_of(ref, ann);
    json_decref(asked);
    json_decref(done);
    mail_scene_stop(&scene);
}

/* Bob registered on the web and has not opened his link when Alice's
 * invitation reaches the address: answering it seats his web account and
 * makes the address its, where it used to make a second account. */
Test(mail_pending, an_invitation_answered_seats_the_account_waiting_for_it,
     .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    const char *bob = "bob@example.org";
    size_t from = mail_count(&scene);
    char ref[32];
    registered_waiting(&scene, "Bob Web", bob, &from, ref);

    /* Alice invites bob@example.org; he answers "join" (the sit-down
     * asserts "You have seat"). */
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");

    expect_the_address_of(ref, bob);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    cr_expect_eq(number(db,
                        "SELECT player_id FROM seats"
                        " WHERE seat = 1 AND match_id = $1::bigint",
                        t.match + 2),
                 atoll(ref + 2), "seat 1 is not Bob's web account's");
    PQfinish(db);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
