/* What the mail door refuses, and how it says so: mail from someone else,
 * forged, spent or expired reply addresses, a forged Authentication-Results,
 * mail programs talking to each other, bounces, huge or broken messages,
 * the same message twice, and two messages racing for one turn. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mail_people.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000",
                                       NULL};

static long long head_of(mail_table *t)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200);
    long long head = (long long)json_integer_value(
        json_object_get(json_object_get(r.json, "head"), "seq"));
    e2e_response_free(&r);
    return head;
}

/* Hands raw in and returns the answer threaded under its Message-ID, sent
 * to address (NULL: none is expected, and the next mail proves it). */
static json_t *answer_to(mail_scene *scene, const char *raw, const char *id,
                         const char *address)
{
    size_t from = mail_count(scene);
    cr_assert_eq(mail_hand_in(scene, raw), 0, "mail-in refused it");
    if (address == NULL)
        return NULL;
    for (;;) {
        json_t *mail = mail_next_to(scene, address, &from, 20);
        cr_assert_not_null(mail, "no answer to <%s>", id);
        const char *answered =
            json_string_value(json_object_get(mail, "in_reply_to"));
        if (answered && strstr(answered, id))
            return mail;
        json_decref(mail);
    }
}

/* How many mails answer Message-ID id. */
static int answers_to(mail_scene *scene, const char *id)
{
    json_t *lines = receiver_lines(&scene->smtp);
    int n = 0;
    size_t i;
    json_t *mail;
    json_array_foreach(lines, i, mail) {
        const char *answered =
            json_string_value(json_object_get(mail, "in_reply_to"));
        n += answered && strstr(answered, id) != NULL;
    }
    json_decref(lines);
    return n;
}

/* A mail that must be answered, sent after mails that must not be: once its
 * answer is in, any answer to those would be too (one worker, in order). */
static void marker(mail_table *t)
{
    json_t *answer = mail_table_answer(t, 1, "help");
    json_decref(answer);
}

static void expect_text(const json_t *mail, const char *words)
{
    cr_expect(mail_says(mail, words), "the answer does not say \"%s\":\n%s",
              words, mail_text(mail));
}

Test(mail_refusals, someone_elses_forged_spent_and_repeated_mail, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    mail_table_read(&t);
    long long head = head_of(&t);
    char reply_to[128];
    snprintf(reply_to, sizeof reply_to, "%s", mail_reply_to(t.people[0].latest));

    /* Carol writes to Alice's reply address. */
    char id[128] = "";
    char *raw = mail_scene_compose("carol@example.org", reply_to, "Re: turn", NULL,
                             NULL, "draw", id);
    json_t *a = answer_to(&scene, raw, id, "carol@example.org");
    expect_text(a, "The turn service did not act on your mail:");
    expect_text(a, "this mail comes from carol@example.org, which is not the "
                   "address the reply address was made for");
    expect_text(a, "Nothing in it was applied.");
    json_decref(a);
    free(raw);

    /* A token changed by one character. */
    char forged[128];
    snprintf(forged, sizeof forged, "%s", reply_to);
    char *plus = strchr(forged, '+');
    plus[5] = plus[5] == 'a' ? 'b' : 'a';
    id[0] = '\0';
    raw = mail_scene_compose("alice@example.org", forged, "Re: turn", NULL, NULL,
                       "view", id);
    a = answer_to(&scene, raw, id, "alice@example.org");
    expect_text(a, "this reply address is not one the service gave out");
    json_decref(a);
    free(raw);

    /* The real address works once; the same address again is refused,
     * and the same message again changes nothing and gets no answer. */
    char first[128] = "";
    char *once = mail_scene_compose("alice@example.org", reply_to, "Re: turn", NULL,
                              NULL, "view", first);
    a = answer_to(&scene, once, first, "alice@example.org");
    expect_text(a, "> view\nYour view is below.");
    json_decref(a);
    id[0] = '\0';
    raw = mail_scene_compose("alice@example.org", reply_to, "Re: turn", NULL, NULL,
                       "view", id);
    a = answer_to(&scene, raw, id, "alice@example.org");
    expect_text(a, "this reply address was already used by an earlier mail "
                   "(each one works once)");
    json_decref(a);
    free(raw);
    answer_to(&scene, once, first, NULL);
    marker(&t);
    cr_expect_eq(answers_to(&scene, first), 1,
                 "the same message handed in twice was answered twice");
    free(once);
    cr_expect_eq(head_of(&t), head, "a refused mail changed the match");
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(mail_refusals, an_expired_reply_address, .timeout = 120)
{
    char clock[256];
    snprintf(clock, sizeof clock, "%s/clock-%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    FILE *f = fopen(clock, "w");
    fprintf(f, "%lld\n", (long long)time(NULL));
    fclose(f);
    char clock_env[300];
    snprintf(clock_env, sizeof clock_env, "PBEM_CLOCK_FILE=%s", clock);
    const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000",
                               "PBEM_MAIL_TOKEN_DAYS=2", clock_env, NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    mail_table_read(&t);
    /* Three days later (a new file renamed over the old: every reader
     * sees the whole time or the old one). */
    char moved[300];
    snprintf(moved, sizeof moved, "%s.new", clock);
    f = fopen(moved, "w");
    fprintf(f, "%lld\n", (long long)time(NULL) + 3 * 86400);
    fclose(f);
    cr_assert_eq(rename(moved, clock), 0);
    char id[128] = "";
    char *raw = mail_scene_compose("alice@example.org",
                             mail_reply_to(t.people[0].latest), "Re: turn",
                             NULL, NULL, "view", id);
    json_t *a = answer_to(&scene, raw, id, "alice@example.org");
    expect_text(a, "this reply address expired at");
    expect_text(a, "answer the latest mail from the service, or write \"help\"");
    json_decref(a);
    free(raw);
    mail_table_free(&t);
    mail_scene_stop(&scene);
    unlink(clock);
}

Test(mail_refusals, mail_from_programs_is_never_answered, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    mail_table_read(&t);
    char reply_to[128];
    snprintf(reply_to, sizeof reply_to, "%s", mail_reply_to(t.people[0].latest));
    static const char *const automatic[] = {
        "Auto-Submitted: auto-replied\r\n",
        "Precedence: bulk\r\n",
        "List-Id: <players.example.org>\r\n",
        "Return-Path: <>\r\n",
    };
    char ids[4][128];
    for (int i = 0; i < 4; i++) {
        ids[i][0] = '\0';
        /* A subject of their own: "Out of office" alone gets silence
         * now, which would hide what the header does. */
        char *raw = mail_scene_compose("alice@example.org", reply_to,
                                 "Re: your turn", NULL, automatic[i],
                                 "I am away until Monday.", ids[i]);
        answer_to(&scene, raw, ids[i], NULL);
        free(raw);
    }
    marker(&t);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(answers_to(&scene, ids[i]), 0, "answered a mail with %s",
                     automatic[i]);
    /* Ignoring them spent nothing: Alice's address still works. */
    char id[128] = "";
    char *raw = mail_scene_compose("alice@example.org", reply_to, "Re: turn", NULL,
                             NULL, "view", id);
    json_t *a = answer_to(&scene, raw, id, "alice@example.org");
    expect_text(a, "Your view is below.");
    json_decref(a);
    free(raw);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(mail_refusals, a_bounce_marks_the_address_failing, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    const char *dsn =
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\r\n"
        "To: pbem@example.org\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        "Message-ID: <bounce.1@mx.example.org>\r\nAuto-Submitted: auto-replied\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: multipart/report; report-type=delivery-status;\r\n"
        " boundary=\"b1\"\r\n\r\n"
        "--b1\r\nContent-Type: text/plain\r\n\r\nThe mail could not be "
        "delivered.\r\n"
        "--b1\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.org\r\n\r\n"
        "Original-Recipient: rfc822;gone@example.net\r\n"
        "Final-Recipient: rfc822;gone@example.net\r\nAction: failed\r\n"
        "Status: 5.1.1\r\n\r\n--b1--\r\n";
    cr_assert_eq(mail_hand_in(&scene, dsn), 0);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK);
    PGresult *r = PQexec(db, "SELECT bounces FROM mail_failures"
                             " WHERE email = 'gone@example.net'");
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK);
    cr_expect_eq(PQntuples(r), 1, "the bounced address is not marked");
    PQclear(r);
    r = PQexec(db, "SELECT outcome FROM mail_messages"
                   " WHERE message_key LIKE 'id:bounce.1@mx.example.org/%'");
    cr_expect_str_eq(PQntuples(r) ? PQgetvalue(r, 0, 0) : "", "bounce");
    PQclear(r);
    PQfinish(db);
    mail_scene_stop(&scene);
}

Test(mail_refusals, huge_and_broken_messages, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    /* 2 MiB: the mail server is told to bounce it (EX_DATAERR). */
    size_t size = 2 * 1024 * 1024;
    char *big = malloc(size + 1);
    int head = snprintf(big, size, "From: alice@example.org\r\n"
                                   "To: pbem@example.org\r\nSubject: big\r\n\r\n");
    memset(big + head, 'x', size - (size_t)head);
    for (size_t i = (size_t)head + 76; i < size; i += 78)
        big[i] = '\r', big[i + 1] = '\n';
    big[size] = '\0';
    cr_expect_eq(mail_hand_in(&scene, big), 65, "a 2 MiB message");
    free(big);
    cr_expect_eq(mail_hand_in(&scene, "\x01\x02 not a mail \x7f\r\n"), 65,
                 "bytes that are no mail");
    /* Broken MIME that still names a sender: answered, never a crash. */
    char id[128] = "";
    char *raw = mail_scene_compose("bob@example.org", "pbem@example.org", "help",
                             NULL,
                             "Content-Type: multipart/mixed\r\n",
                             "help", id);
    /* mail_compose wrote its own Content-Type first; the second one, a
     * multipart without a boundary, is what a broken program sends. */
    json_t *a = answer_to(&scene, raw, id, "bob@example.org");
    cr_expect(mail_says(a, "Write one command per line"),
              "%s", mail_text(a));
    json_decref(a);
    free(raw);
    mail_scene_stop(&scene);
}

Test(mail_refusals, a_forged_authentication_results, .timeout = 120)
{
    const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000",
                               "PBEM_MAIL_TRUST_AUTHSERV_ID=mx.example.org",
                               NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    static const struct {
        const char *headers;
        const char *says;
    } cases[] = {
        {NULL, "could not confirm that this mail comes from example.org"},
        {"Authentication-Results: evil.example; dkim=pass "
         "header.d=example.org\r\n",
         "could not confirm"},
        {"Authentication-Results: mx.example.org; dkim=fail "
         "header.d=example.org\r\nAuthentication-Results: mx.example.org; "
         "dkim=pass header.d=example.org\r\n",
         "could not confirm"},
        {"Authentication-Results: mx.example.org; dmarc=pass "
         "header.from=example.org\r\n",
         "Write one command per line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char id[128] = "";
        char *raw = mail_scene_compose("alice@example.org", "pbem@example.org",
                                 "help", NULL, cases[i].headers, "help", id);
        json_t *a = answer_to(&scene, raw, id, "alice@example.org");
        cr_expect(mail_says(a, cases[i].says),
                  "case %zu:\n%s", i, mail_text(a));
        json_decref(a);
        free(raw);
    }
    mail_scene_stop(&scene);
}

/* Hands two messages in at once, each through its own pbem mail-in. */
static void hand_in_together(mail_scene *scene, const char *a, const char *b)
{
    pid_t first = fork();
    cr_assert_geq(first, 0);
    if (first == 0)
        _exit(mail_hand_in(scene, a));
    int b_status = mail_hand_in(scene, b);
    int a_status;
    cr_assert_eq(waitpid(first, &a_status, 0), first);
    cr_expect_eq(WEXITSTATUS(a_status), 0);
    cr_expect_eq(b_status, 0);
}

Test(mail_refusals, two_mails_racing_for_one_turn, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    /* Whoever must act first answers one reply address twice at once,
     * with two different moves. */
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t.match);
    e2e_response r = e2e_call(&scene.server, "GET", path, NULL, NULL);
    int seat = (int)json_integer_value(json_array_get(
        json_object_get(json_object_get(r.json, "pending"), "seats"), 0));
    e2e_response_free(&r);
    mail_table_wait(&t, seat);
    json_t *moves = mail_offered_moves(t.people[seat].latest);
    cr_assert_geq(json_array_size(moves), 1, "a move to make");
    size_t other = json_array_size(moves) > 1 ? 1 : 0;
    const char *reply_to = mail_reply_to(t.people[seat].latest);
    const char *who = t.people[seat].address;
    char id_a[128] = "", id_b[128] = "";
    char *a = mail_scene_compose(who, reply_to, "Re: turn", NULL, NULL,
                           json_string_value(json_array_get(moves, 0)), id_a);
    char *b = mail_scene_compose(who, reply_to, "Re: turn", NULL, NULL,
                           json_string_value(json_array_get(moves, other)),
                           id_b);
    long long head = head_of(&t);
    size_t from = mail_count(&scene);
    hand_in_together(&scene, a, b);
    int done = 0, refused = 0;
    for (int got = 0; got < 2;) {
        json_t *mail = mail_next_to(&scene, who, &from, 20);
        cr_assert_not_null(mail, "both mails are answered");
        const char *answered =
            json_string_value(json_object_get(mail, "in_reply_to"));
        if (answered && (strstr(answered, id_a) || strstr(answered, id_b))) {
            got++;
            done += mail_says(mail, " (event ");
            refused += mail_says(mail, "was used by another mail a "
                                               "moment ago") ||
                       mail_says(mail, "already used");
        }
        json_decref(mail);
    }
    cr_expect_eq(done, 1, "exactly one of the two moves applies");
    cr_expect_eq(refused, 1, "the other is refused for its spent address");
    cr_expect_gt(head_of(&t), head);
    json_decref(moves);
    free(a);
    free(b);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(mail_refusals, answers_stop_at_the_hourly_limit, .timeout = 120)
{
    const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=3", NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    char ids[5][128];
    for (int i = 0; i < 5; i++) {
        ids[i][0] = '\0';
        char *raw = mail_scene_compose("carol@example.org", "pbem@example.org",
                                 "help", NULL, NULL, "help", ids[i]);
        if (i < 3) {
            json_t *a = answer_to(&scene, raw, ids[i], "carol@example.org");
            json_decref(a);
        } else {
            answer_to(&scene, raw, ids[i], NULL);
        }
        free(raw);
    }
    /* Another sender is still answered; by then Carol's would be too. */
    char id[128] = "";
    char *raw = mail_scene_compose("dave@example.org", "pbem@example.org", "help",
                             NULL, NULL, "help", id);
    json_decref(answer_to(&scene, raw, id, "dave@example.org"));
    free(raw);
    cr_expect_eq(answers_to(&scene, ids[3]) + answers_to(&scene, ids[4]), 0,
                 "mail over the hourly limit was answered");
    e2e_response r = e2e_call(&scene.server, "GET", "/metrics", NULL, NULL);
    cr_expect(strstr(r.body, "pbem_mail_received_total{outcome=\"limited\"} 2")
                  != NULL,
              "the dropped mail is not counted:\n%s", r.body);
    e2e_response_free(&r);
    mail_scene_stop(&scene);
}

Test(mail_refusals, the_mail_server_is_told_to_retry_or_bounce, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    /* pbemd not there: the mail server keeps the message (EX_TEMPFAIL). */
    char command[1024];
    snprintf(command, sizeof command,
             "printf 'From: a@example.org\\r\\nTo: pbem@example.org\\r\\n"
             "\\r\\nhelp\\r\\n' | \"%s\" mail-in --url http://127.0.0.1:1 "
             "--key \"%s\" 2>/dev/null",
             getenv("PBEM_CLI"), scene.key_file);
    int status = system(command);
    cr_expect_eq(WEXITSTATUS(status), 75, "no pbemd: try again later");
    /* Over 1 MiB on the wire: 413 before anything else is read. */
    size_t size = 1024 * 1024 + 10;
    char *body = malloc(size + 1);
    memset(body, 'x', size);
    body[size] = '\0';
    e2e_response r = e2e_call(&scene.server, "POST", "/v1/mail/inbound", body,
                              NULL);
    cr_expect_eq(r.status, 413, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    free(body);
    /* Unsigned: nobody but the mail server hands mail in. */
    r = e2e_call(&scene.server, "POST", "/v1/mail/inbound", "From: x\r\n\r\n",
                 NULL);
    cr_expect_eq(r.status, 401, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    mail_scene_stop(&scene);
}
