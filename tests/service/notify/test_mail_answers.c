/* Mail that answers mail, end to end: rows queued with mail_answers_queue
 * (as the mailin/ handler and invitations queue them) are sent by the real
 * pbemd's outbox worker through libcurl SMTP to a real SMTP server on
 * loopback (npm smtp-server, parsed by mailparser): the headers, the
 * threading, retries after a refused delivery, the dead letters, and two
 * processes sharing the rows. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/mail_answers.h"
#include "../../support/notify_scene.h"

static PGconn *database(void)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    return conn;
}

/* One value of a query that must answer one row (caller frees). */
static char *scalar(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s: %s", sql,
                 PQresultErrorMessage(r));
    cr_assert_eq(PQntuples(r), 1, "%s: %d rows", sql, PQntuples(r));
    char *value = strdup(PQgetvalue(r, 0, 0));
    PQclear(r);
    return value;
}

/* Queues answer as the mailin/ handler does, in a transaction of its
 * own; its answer_id. */
static long long queue(PGconn *db, const mail_answer *answer)
{
    PQclear(PQexec(db, "BEGIN"));
    apierr err;
    cr_assert(mail_answers_queue(db, answer, &err), "%s", err.message);
    PQclear(PQexec(db, "COMMIT"));
    char *id = scalar(db, "SELECT max(answer_id) FROM mail_answers");
    long long answer_id = atoll(id);
    free(id);
    return answer_id;
}

/* Waits up to seconds until the row's status (and attempts) is want
 * ("sent 1"); returns what it last was (caller frees). */
static char *wait_status(PGconn *db, long long answer_id, const char *want,
                         int seconds)
{
    char sql[160];
    snprintf(sql, sizeof sql,
             "SELECT status || ' ' || attempts FROM mail_answers"
             " WHERE answer_id = %lld",
             answer_id);
    char *got = NULL;
    for (int i = 0; i < seconds * 10; i++) {
        free(got);
        got = scalar(db, sql);
        if (strcmp(got, want) == 0)
            break;
        pause_ms(100);
    }
    return got;
}

/* The mails received (the refusals the receiver logs left out). */
static json_t *mails_of(const receiver *smtp, size_t count, int seconds)
{
    json_t *mails = json_array();
    for (int i = 0; i < seconds * 20; i++) {
        json_decref(mails);
        mails = json_array();
        json_t *lines = receiver_lines(smtp);
        size_t k;
        json_t *line;
        json_array_foreach(lines, k, line) {
            if (json_object_get(line, "subject") != NULL ||
                json_object_get(line, "error") != NULL)
                json_array_append(mails, line);
        }
        json_decref(lines);
        if (json_array_size(mails) >= count)
            break;
        pause_ms(50);
    }
    return mails;
}

/* An SMTP receiver (with args), a server sending through it. */
static void scene(receiver *smtp, const char *const *args, e2e_server *s)
{
    notify_server_env();
    receiver_start(smtp, "smtp-receiver.mjs", args);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp->port);
    setenv("PBEM_SMTP_URL", url, 1);
    setenv("PBEM_MAIL_FROM", "Tür Service <turns@pbem.example>", 1);
    e2e_start(s);
}

static const char *member(const json_t *object, const char *key)
{
    const char *value = json_string_value(json_object_get(object, key));
    return value ? value : "(none)";
}

Test(mail_answers, an_answer_is_threaded_under_the_mail_it_answers,
     .timeout = 60)
{
    receiver smtp;
    e2e_server s = {0};
    scene(&smtp, NULL, &s);
    PGconn *db = database();
    mail_answer answer = {
        .to = "zoe@example.org",
        .subject = "Re: Zoë's move in m_12",
        .body = "Done: play B5.\nIt is Bob's turn now.\n",
        .reply_to = "pbem+abcdef@pbem.example",
        .in_reply_to = "move-2@mail.example.org",
        .references = "<root-1@mail.example.org> move-1@mail.example.org",
        .kind = "answer",
    };
    long long id = queue(db, &answer);
    json_t *mails = mails_of(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    json_t *m = json_array_get(mails, 0);
    cr_assert_null(json_object_get(m, "error"), "%s", member(m, "error"));
    cr_expect(json_is_true(json_object_get(m, "ascii_only")),
              "non-ASCII must be encoded on the wire");
    json_t *from = json_array_get(json_object_get(m, "from"), 0);
    cr_expect_str_eq(member(from, "name"), "Tür Service");
    cr_expect_str_eq(member(from, "address"), "turns@pbem.example");
    json_t *to = json_array_get(json_object_get(m, "to"), 0);
    cr_expect_str_eq(member(to, "address"), "zoe@example.org");
    cr_expect_str_eq(member(m, "envelope_from"), "turns@pbem.example");
    cr_expect_str_eq(member(m, "subject"), "Re: Zoë's move in m_12");
    cr_expect_str_neq(member(m, "date"), "(none)");
    char message_id[96];
    snprintf(message_id, sizeof message_id, "<answer-%lld.", id);
    cr_expect_eq(strncmp(member(m, "message_id"), message_id,
                         strlen(message_id)),
                 0, "%s", member(m, "message_id"));
    cr_expect_str_eq(json_string_value(json_array_get(
                         json_object_get(m, "reply_to"), 0)),
                     "pbem+abcdef@pbem.example");
    cr_expect_str_eq(member(m, "in_reply_to"), "<move-2@mail.example.org>");
    json_t *references = json_object_get(m, "references");
    cr_assert_eq(json_array_size(references), 3, "References: %s",
                 member(m, "raw"));
    cr_expect_str_eq(json_string_value(json_array_get(references, 0)),
                     "<root-1@mail.example.org>");
    cr_expect_str_eq(json_string_value(json_array_get(references, 1)),
                     "<move-1@mail.example.org>");
    cr_expect_str_eq(json_string_value(json_array_get(references, 2)),
                     "<move-2@mail.example.org>");
    cr_expect_str_eq(member(m, "auto_submitted"), "auto-replied");
    cr_expect_str_eq(member(m, "text"),
                     "Done: play B5.\nIt is Bob's turn now.\n");
    cr_expect(!json_is_string(json_object_get(m, "html")), "an HTML part");
    char *status = wait_status(db, id, "sent 1", 10);
    cr_expect_str_eq(status, "sent 1");
    free(status);
    json_decref(mails);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(mail_answers, other_kinds_are_auto_generated_and_start_a_thread,
     .timeout = 60)
{
    receiver smtp;
    e2e_server s = {0};
    scene(&smtp, NULL, &s);
    PGconn *db = database();
    mail_answer confirmation = {
        .to = "new@example.org",
        .subject = "Please confirm your address",
        .body = "Answer this mail with the word yes.\n",
        .reply_to = "pbem+xyz@pbem.example",
        .kind = "confirmation",
    };
    long long id = queue(db, &confirmation);
    json_t *mails = mails_of(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    json_t *m = json_array_get(mails, 0);
    cr_expect_str_eq(member(m, "auto_submitted"), "auto-generated");
    cr_expect(!json_is_string(json_object_get(m, "in_reply_to")));
    cr_expect(!json_is_array(json_object_get(m, "references")));
    char message_id[96];
    snprintf(message_id, sizeof message_id, "<confirmation-%lld.", id);
    cr_expect_eq(strncmp(member(m, "message_id"), message_id,
                         strlen(message_id)),
                 0, "%s", member(m, "message_id"));
    json_decref(mails);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(mail_answers, a_refused_delivery_is_tried_again, .timeout = 60)
{
    receiver smtp;
    e2e_server s = {0};
    static const char *const refuse_once[] = {"--refuse", "1", NULL};
    scene(&smtp, refuse_once, &s);
    PGconn *db = database();
    mail_answer answer = {.to = "zoe@example.org",
                          .subject = "Re: help",
                          .body = "Commands: view, log, matches, help.\n",
                          .in_reply_to = "help-1@mail.example.org",
                          .kind = "answer"};
    long long id = queue(db, &answer);
    json_t *mails = mails_of(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1, "not delivered after a refusal");
    char *status = wait_status(db, id, "sent 2", 10);
    cr_expect_str_eq(status, "sent 2", "one refused attempt, then one sent");
    free(status);
    json_t *lines = receiver_lines(&smtp);
    cr_expect_eq(json_integer_value(
                     json_object_get(json_array_get(lines, 0), "refused")),
                 1, "the first delivery was not refused");
    json_decref(lines);
    json_decref(mails);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(mail_answers, the_last_refused_attempt_makes_it_dead, .timeout = 60)
{
    receiver smtp;
    e2e_server s = {0};
    static const char *const refuse_all[] = {"--refuse", "1000", NULL};
    setenv("PBEM_NOTIFY_MAX_ATTEMPTS", "3", 1);
    scene(&smtp, refuse_all, &s);
    unsetenv("PBEM_NOTIFY_MAX_ATTEMPTS");
    PGconn *db = database();
    mail_answer answer = {.to = "zoe@example.org",
                          .subject = "Re: help",
                          .body = "Commands: view, log, matches, help.\n",
                          .kind = "answer"};
    long long id = queue(db, &answer);
    char *status = wait_status(db, id, "dead 3", 20);
    cr_expect_str_eq(status, "dead 3");
    free(status);
    char sql[128];
    snprintf(sql, sizeof sql,
             "SELECT coalesce(last_error, '') FROM mail_answers"
             " WHERE answer_id = %lld",
             id);
    char *error = scalar(db, sql);
    cr_expect(strstr(error, "451") != NULL, "last_error: %s", error);
    free(error);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(mail_answers, an_address_that_could_break_a_header_is_dead_at_once,
     .timeout = 60)
{
    receiver smtp;
    e2e_server s = {0};
    scene(&smtp, NULL, &s);
    PGconn *db = database();
    mail_answer answer = {.to = "eve@example.org\r\nBcc: all@example.org",
                          .subject = "Re: hello",
                          .body = "Hello.\n",
                          .kind = "answer"};
    long long id = queue(db, &answer);
    char *status = wait_status(db, id, "dead 1", 10);
    cr_expect_str_eq(status, "dead 1");
    free(status);
    json_t *mails = mails_of(&smtp, 1, 1);
    cr_expect_eq(json_array_size(mails), 0, "a message went out");
    json_decref(mails);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(mail_answers, without_an_smtp_server_they_wait, .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    PGconn *db = database();
    mail_answer answer = {.to = "zoe@example.org",
                          .subject = "Re: help",
                          .body = "Commands.\n",
                          .kind = "answer"};
    long long id = queue(db, &answer);
    pause_ms(1500);
    char *status = wait_status(db, id, "pending 0", 1);
    cr_expect_str_eq(status, "pending 0");
    free(status);
    PQfinish(db);
    stop_server(&s);
}

Test(mail_answers, two_processes_send_each_answer_once, .timeout = 90)
{
    receiver smtp;
    e2e_server one = {0}, two = {0};
    scene(&smtp, NULL, &one);
    e2e_start(&two);
    PGconn *db = database();
    enum { COUNT = 24 };
    for (int i = 0; i < COUNT; i++) {
        char subject[32];
        snprintf(subject, sizeof subject, "Re: move %d", i);
        mail_answer answer = {.to = "zoe@example.org",
                              .subject = subject,
                              .body = "Done.\n",
                              .kind = "answer"};
        queue(db, &answer);
    }
    json_t *mails = mails_of(&smtp, COUNT, 30);
    pause_ms(1000);
    json_decref(mails);
    mails = mails_of(&smtp, COUNT, 1);
    cr_expect_eq(json_array_size(mails), COUNT, "%zu mails for %d answers",
                 json_array_size(mails), COUNT);
    json_t *seen = json_object();
    size_t i;
    json_t *m;
    json_array_foreach(mails, i, m) {
        const char *id = member(m, "message_id");
        cr_expect_null(json_object_get(seen, id), "%s sent twice", id);
        json_object_set_new(seen, id, json_true());
    }
    json_decref(seen);
    char *sent = scalar(db, "SELECT count(*) FILTER (WHERE status = 'sent'"
                            " AND attempts = 1) FROM mail_answers");
    cr_expect_eq(atoi(sent), COUNT);
    free(sent);
    json_decref(mails);
    PQfinish(db);
    stop_server(&one);
    stop_server(&two);
    receiver_stop(&smtp);
}
