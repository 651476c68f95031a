/* Bounces: the mailin/ handler records one (mail_failures_record) when a
 * DSN for the service's own mail comes in, and the player's delivery
 * status shows their address failing, for 30 days from the first bounce
 * of a run. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/mail_failures.h"
#include "../../support/notify_scene.h"

static PGconn *database(void)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    return conn;
}

static void bounce(PGconn *db, const char *address, const char *reason)
{
    apierr err;
    cr_assert(mail_failures_record(db, address, reason, &err), "%s",
              err.message);
}

/* The "email" member of p's GET /v1/players/me/notifications (new
 * reference, or NULL when absent). */
static json_t *email_status(const e2e_server *s, const e2e_player *p)
{
    e2e_response r = e2e_call(s, "GET", "/v1/players/me/notifications", NULL, p);
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *email = json_incref(json_object_get(r.json, "email"));
    e2e_response_free(&r);
    return email;
}

Test(mail_failures, a_bouncing_address_shows_in_the_delivery_status,
     .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a;
    e2e_register(&s, "Robert", &a); /* player@example.org */
    json_t *status = email_status(&s, &a);
    cr_assert_not_null(status);
    cr_expect(json_is_false(json_object_get(status, "failing")));
    cr_expect_eq(json_object_size(status), 1);
    json_decref(status);

    PGconn *db = database();
    bounce(db, "Player@Example.org", "550 5.1.1 <player@example.org>: no such user");
    bounce(db, "player@example.org", "550 5.1.1 mailbox unavailable");
    status = email_status(&s, &a);
    cr_expect(json_is_true(json_object_get(status, "failing")));
    cr_expect_eq(json_integer_value(json_object_get(status, "bounces")), 2);
    cr_expect_str_eq(json_string_value(json_object_get(status, "reason")),
                     "550 5.1.1 mailbox unavailable");
    const char *since = json_string_value(json_object_get(status, "since"));
    cr_assert_not_null(since);
    cr_expect_eq(strlen(since), 20, "%s", since);
    json_decref(status);

    /* A run ends 30 days after it began; the next bounce starts another. */
    PQclear(PQexec(db, "UPDATE mail_failures SET failed_at = now()"
                       " - interval '31 days'"));
    status = email_status(&s, &a);
    cr_expect(json_is_false(json_object_get(status, "failing")));
    json_decref(status);
    bounce(db, "player@example.org", NULL);
    status = email_status(&s, &a);
    cr_expect(json_is_true(json_object_get(status, "failing")));
    cr_expect_eq(json_integer_value(json_object_get(status, "bounces")), 1);
    cr_expect_str_eq(json_string_value(json_object_get(status, "reason")),
                     "the mail bounced");
    json_decref(status);

    /* Another address's bounces are not the player's. */
    PQclear(PQexec(db, "DELETE FROM mail_failures"));
    bounce(db, "someone.else@example.org", "550");
    status = email_status(&s, &a);
    cr_expect(json_is_false(json_object_get(status, "failing")));
    json_decref(status);
    PQfinish(db);
    stop_server(&s);
}

Test(mail_failures, a_player_without_an_address_has_no_email_status,
     .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p;
    memset(&p, 0, sizeof p);
    client_new_key(&p.key);
    char error[256];
    cr_assert(client_register(s.http, "Nomail", NULL, &p.key, p.id, error),
              "%s", error);
    json_t *status = email_status(&s, &p);
    cr_expect_null(status);
    json_decref(status);
    stop_server(&s);
}

Test(mail_failures, a_bounce_must_name_an_address, .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    PGconn *db = database();
    apierr err;
    cr_expect_not(mail_failures_record(db, NULL, "550", &err));
    cr_expect_eq(err.status, 400);
    cr_expect_not(mail_failures_record(db, "nobody", "550", &err));
    cr_expect_str_eq(err.code, "bad_email");
    PQfinish(db);
    stop_server(&s);
}
