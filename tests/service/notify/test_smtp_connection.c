/* The SMTP connection the outbox worker keeps between mails: when the
 * mail server has closed it for idleness (answering 421, as Postfix and
 * npm smtp-server do), the next mail goes out at once on a new connection
 * instead of failing and waiting for the retry delay. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../support/notify_scene.h"

/* Asks for a sign-in link for the address (anyone may). */
static void ask_sign_in(const e2e_server *s)
{
    e2e_response r = e2e_call(s, "POST", "/v1/players/sign-in-links",
                              "{\"email\":\"player@example.org\"}", NULL);
    cr_assert(r.status == 200 || r.status == 202, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
}

/* The index of the first line of lines (from index from) with key, or -1. */
static long line_with(const json_t *lines, size_t from, const char *key)
{
    for (size_t i = from; i < json_array_size(lines); i++)
        if (json_object_get(json_array_get(lines, i), key) != NULL)
            return (long)i;
    return -1;
}

/* Waits up to seconds for a line with key after from; its index or -1. */
static long wait_line(const receiver *smtp, size_t from, const char *key,
                      double seconds)
{
    double until = receiver_now() + seconds;
    for (size_t i = from;; i++) {
        const json_t *line = receiver_await(smtp, i, until);
        if (line == NULL)
            return -1;
        if (json_object_get(line, key) != NULL)
            return (long)i;
    }
}

Test(smtp_connection, a_connection_the_server_closed_is_replaced_at_once,
     .timeout = 90)
{
    notify_server_env();
    /* A counted failure would wait 30 s before its retry. */
    setenv("PBEM_NOTIFY_BACKOFF_MS", "30000", 1);
    receiver smtp;
    static const char *const idle[] = {"--idle-ms", "700", NULL};
    receiver_start(&smtp, "smtp-receiver.mjs", idle);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp.port);
    setenv("PBEM_SMTP_URL", url, 1);
    setenv("PBEM_MAIL_FROM", "pbem <turns@pbem.example>", 1);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    ask_sign_in(&s);
    long first = wait_line(&smtp, 0, "subject", 20);
    cr_assert_geq(first, 0, "the first sign-in link did not come");
    /* The server closes the idle connection the worker kept. */
    long closed = wait_line(&smtp, (size_t)first + 1, "closed", 20);
    cr_assert_geq(closed, 0, "the receiver never closed the idle connection");
    double asked = receiver_now();
    ask_sign_in(&s);
    long second = wait_line(&smtp, (size_t)closed + 1, "subject", 20);
    double took = receiver_now() - asked;
    cr_assert_geq(second, 0, "the second sign-in link did not come");
    cr_expect_lt(took, 10.0, "it came after %.1f s: after a retry delay", took);
    /* And no attempt was counted as failed. */
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    /* The receiver has the mail before pbemd has recorded it sent: wait
     * (10 s at most) for both rows to be sent before reading attempts. */
    PGresult *r = NULL;
    for (int waited_ms = 0; waited_ms <= 10000; waited_ms += 50) {
        PQclear(r);
        r = PQexec(db, "SELECT count(*) FROM mail_answers"
                       " WHERE status = 'sent'");
        cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK);
        if (strcmp(PQgetvalue(r, 0, 0), "2") == 0)
            break;
        usleep(50 * 1000);
    }
    cr_expect_str_eq(PQgetvalue(r, 0, 0), "2",
                     "10 s after the second mail came, not both were sent");
    PQclear(r);
    r = PQexec(db, "SELECT count(*) FROM mail_answers"
                   " WHERE status = 'sent' AND attempts = 1");
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK);
    cr_expect_str_eq(PQgetvalue(r, 0, 0), "2",
                     "a failed attempt was counted for a closed connection");
    PQclear(r);
    PQfinish(db);
    json_t *lines = receiver_lines(&smtp);
    cr_expect_eq(line_with(lines, (size_t)second + 1, "error"), -1);
    json_decref(lines);
    stop_server(&s);
    receiver_stop(&smtp);
}
