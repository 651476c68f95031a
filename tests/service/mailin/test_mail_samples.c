/* Every kind of mail the service sends, for each game, as a person gets
 * it: a match started, joined and begun by mail only (with a refusal),
 * then a whole match played over HTTP by players with an address (with a
 * reminder and a digest on the way), and the first mail of each kind
 * written to
 * build/mail-samples/<game>/<kind>.eml (as sent) and .txt (its headers a
 * person sees and its text), to be read before a template is called done
 * (PBEM_MAIL_SAMPLES names another folder). Each sample must read as
 * text: no JSON, no base64, no link to the API (the unsubscribe link is
 * a page's too). */
#include <criterion/criterion.h>
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../support/notify_scene.h"
#include "mail_people.h"

static const char *const kinds[] = {"confirmation",
                                    "invitation",
                                    "joined",
                                    "your_turn",
                                    "answer",
                                    "refusal",
                                    "sealed",
                                    "answer_and_turn",
                                    "reminder",
                                    "digest",
                                    "match_over",
                                    "nudge",
                                    "deadline_reminder",
                                    "deadline_admins",
                                    "match_aborted",
                                    "your_turn_talk"};
#define KINDS (sizeof kinds / sizeof kinds[0])

static const char *member(const json_t *object, const char *key)
{
    const char *value = json_string_value(json_object_get(object, key));
    return value ? value : "";
}

/* What kind of mail m is, by its Message-ID and its opening words. */
static const char *kind_of(const json_t *m)
{
    const char *id = member(m, "message_id");
    const char *text = mail_text(m);
    if (strncmp(id, "<confirmation-", 14) == 0)
        return "confirmation";
    if (strncmp(id, "<invitation-", 12) == 0)
        return "invitation";
    if (strncmp(id, "<digest-", 8) == 0)
        return "digest";
    if (strncmp(id, "<answer-", 8) == 0) {
        if (strstr(text, "Refused") != NULL ||
            strstr(text, "Not a move") != NULL)
            return "refusal";
        /* A choice made in secret, sealed by the service or kept hidden
         * by the engine. */
        if (strstr(text, "Sealed") != NULL ||
            (strstr(text, "(event ") != NULL &&
             strstr(text, "in secret") != NULL))
            return "sealed";
        if (strstr(text, "You have seat") != NULL)
            return "joined";
        return "answer";
    }
    /* Answers held for the next turn's mail, told before it. */
    if (strstr(text, "\n\nSince then: ") != NULL)
        return "answer_and_turn";
    if (strncmp(text, "Reminder: your deadline", 23) == 0)
        return "deadline_reminder";
    if (strstr(text, "A deadline passed in") != NULL)
        return "deadline_admins";
    if (strstr(text, " was aborted") != NULL)
        return "match_aborted";
    if (strstr(text, " nudged you") != NULL)
        return "nudge";
    if (strncmp(text, "Reminder", 8) == 0)
        return "reminder";
    if (strstr(text, " is over.") != NULL)
        return "match_over";
    /* A turn mail with what was said at the table since the last. */
    if (strncmp(text, "Your turn", 9) == 0 &&
        strstr(text, "Messages at the table") != NULL)
        return "your_turn_talk";
    if (strncmp(text, "Your turn", 9) == 0)
        return "your_turn";
    return NULL;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "%s", path);
}

/* Writes m as <dir>/<kind>.eml and .txt. */
static void write_sample(const char *dir, const char *kind, const json_t *m)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.eml", dir, kind);
    write_file(path, member(m, "raw"));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    const json_t *from = json_array_get(json_object_get(m, "from"), 0);
    fprintf(
        f, "From: %s <%s>\nTo: %s\nSubject: %s\n\n%s", member(from, "name"),
        member(from, "address"),
        json_string_value(json_array_get(json_object_get(m, "envelope_to"), 0)),
        member(m, "subject"), mail_text(m));
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.txt", dir, kind);
    write_file(path, text);
    free(text);
}

/* A copy of the latest "your turn" email row of the match, due now, as
 * reason (a reminder) or as a digest entry: the worker sends it as it
 * sends those, from the real payload. */
static void queue_variant(const char *match, const char *reason, bool digest,
                          const char *channel, const char *extra)
{
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    const char *values[] = {match + 2, reason, digest ? "true" : "false",
                            channel, extra};
    /* The turn's own mail may still be on its way: up to 20 s. */
    PGresult *r = NULL;
    for (int tries = 0; tries < 200; tries++) {
        PQclear(r);
        r = PQexecParams(
            db,
            "INSERT INTO outbox (match_id, seq, player_id, channel, reason,"
            "                    payload, next_attempt_at, digest)"
            " SELECT match_id, seq,"
            "        CASE WHEN $4 = 'admins' THEN 0 ELSE player_id END,"
            "        $4, $2::text,"
            "        jsonb_set(payload, '{reminder_hours}', '24')"
            "          || $5::jsonb, now(), $3::boolean"
            "   FROM outbox WHERE match_id = $1::bigint AND channel = 'email'"
            "    AND reason = 'your_turn' AND status = 'sent'"
            "  ORDER BY outbox_id DESC LIMIT 1",
            5, NULL, values, NULL, NULL, 0);
        cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                     PQresultErrorMessage(r));
        if (atoi(PQcmdTuples(r)) == 1)
            break;
        pause_ms(100);
    }
    cr_assert_eq(atoi(PQcmdTuples(r)), 1, "no your-turn mail to copy");
    PQclear(r);
    PQclear(PQexec(db, "NOTIFY pbem_outbox"));
    PQfinish(db);
}

static void queue_copy(const char *match, const char *reason, bool digest)
{
    queue_variant(match, reason, digest, "email", "{}");
}

/* Waits until a mail whose text has words came after line from. */
static void wait_for(const receiver *smtp, size_t from, const char *words)
{
    double until = receiver_now() + 20;
    const json_t *m;
    for (size_t i = from; (m = receiver_await(smtp, i, until)); i++)
        if (mail_says(m, words))
            return;
    cr_assert_fail("no mail saying \"%s\" came", words);
}

/* A seat the match waits for, picked at random (-1: none, or sealed
 * choices being revealed); false once it is over. */
static bool pending_seat(mail_table *t, int *seat)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    bool going = strcmp(member(r.json, "status"), "active") == 0;
    const json_t *seats =
        json_object_get(json_object_get(r.json, "pending"), "seats");
    size_t n = json_array_size(seats);
    *seat =
        going && n > 0
            ? (int)json_integer_value(json_array_get(seats, (size_t)rand() % n))
            : -1;
    e2e_response_free(&r);
    return going;
}

/* Every link in text (a word starting "/" or "http", up to white space,
 * a quote or a bracket) opens a page: none is the API's, neither
 * "/v1/…" nor "<base>/v1/…". The List-Unsubscribe header's one-click URL,
 * for mail programs, is not in the text. */
static void expect_page_links(const char *text, const char *raw)
{
    const char *stops = " \n\t\"'<>()";
    for (const char *p = text; *p; p += strcspn(p, stops), p += *p != '\0') {
        size_t len = strcspn(p, stops);
        if (len == 0)
            continue;
        const char *path = p;
        if (strncmp(p, "http://", 7) == 0 || strncmp(p, "https://", 8) == 0) {
            const char *host = strstr(p, "://") + 3;
            path = host + strcspn(host, "/ \n\t\"'<>()");
        }
        cr_expect(strncmp(path, "/v1/", 4) != 0, "an API link \"%.*s\" in:\n%s",
                  (int)len, p, raw);
    }
}

/* The kinds samples are kept of, the first of each, from the mails smtp
 * received, into dir; marks them in written. */
static void keep_samples(const receiver *smtp, const char *dir, bool *written)
{
    json_t *lines = receiver_lines(smtp);
    size_t i;
    json_t *m;
    json_array_foreach(lines, i, m)
    {
        if (json_object_get(m, "subject") == NULL)
            continue;
        const char *raw = member(m, "raw");
        const char *text = mail_text(m);
        cr_expect_null(strstr(raw, "base64"), "base64 in:\n%s", raw);
        cr_expect_null(strstr(text, "\"scores\""), "JSON in:\n%s", text);
        expect_page_links(text, text);
        expect_page_links(member(m, "html"), text);
        const char *kind = kind_of(m);
        /* Talk read in a mail says how to talk back. */
        if (kind != NULL && strcmp(kind, "your_turn_talk") == 0)
            cr_expect_not_null(strstr(text, "\"say\" and your words"),
                               "no way to talk back in:\n%s", text);
        for (size_t k = 0; kind && k < KINDS; k++) {
            if (strcmp(kinds[k], kind) == 0 && !written[k]) {
                write_sample(dir, kind, m);
                written[k] = true;
            }
        }
    }
    json_decref(lines);
}

/* The mail door's kinds: a match started, joined and played a few moves
 * by mail only, with a refusal. */
static void by_mail(const char *game, int seats, const char *dir, bool *written)
{
    mail_scene scene;
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      "PBEM_PUBLIC_URL=https://pbem.example",
                                      "PBEM_MAIL_ANSWER_HOLD_SECONDS=300",
                                      NULL};
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, game, seats, "");
    mail_table_wait(&t, 0);
    json_decref(mail_table_answer(&t, 0, "dance a jig"));
    /* People who play on: an answer that waits for the others comes
     * with the next turn. */
    t.hurried = true;
    int seat;
    for (int moves = 0; moves < 12 && pending_seat(&t, &seat);) {
        if (seat < 0) {
            pause_ms(50); /* sealed choices being revealed */
            continue;
        }
        mail_table_wait(&t, seat);
        json_t *offered = mail_offered_moves(t.people[seat].latest);
        const char *move = json_string_value(json_array_get(
            offered, (size_t)rand() % (json_array_size(offered) + 1)));
        json_decref(mail_table_answer(&t, seat, move ? move : "view"));
        json_decref(offered);
        moves += move != NULL;
    }
    keep_samples(&scene.smtp, dir, written);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* seat of t's match says text at the table, to seat `to` alone (-1:
 * everyone). */
static void say(const e2e_table *t, int seat, int to, const char *text)
{
    json_t *body = json_pack("{s:s}", "text", text);
    if (to >= 0)
        json_object_set_new(body, "to", json_integer(to));
    char *raw = json_dumps(body, JSON_COMPACT), path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t->match);
    e2e_response r = e2e_call(&t->server, "POST", path, raw, &t->players[seat]);
    cr_assert_eq(r.status, 201, "saying \"%s\": %ld %s", text, r.status,
                 r.body);
    e2e_response_free(&r);
    free(raw);
    json_decref(body);
}

/* The notifications' kinds: a whole match played over HTTP by players
 * who have an address, with a reminder and a digest on the way, and talk
 * at the table: the other seat greets the table before the digest (which
 * carries it), the seat waited for answers after it, to everyone and to
 * that seat alone (its next turn mail carries both). */
static void by_notification(const char *game, int seats, const char *dir,
                            bool *written)
{
    notify_server_env();
    receiver smtp;
    receiver_start(&smtp, "smtp-receiver.mjs", NULL);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp.port);
    setenv("PBEM_SMTP_URL", url, 1);
    setenv("PBEM_MAIL_FROM", "pbem <pbem@example.org>", 1);
    setenv("PBEM_MAIL_REPLY_TO", "pbem@example.org", 1);
    setenv("PBEM_PUBLIC_URL", "https://pbem.example", 1);
    setenv("PBEM_ADMIN_EMAIL", "admins@example.org", 1);
    e2e_table t;
    e2e_sit_down(&t, game, seats, NULL);
    size_t before = receiver_count(&smtp);
    queue_copy(t.match, "reminder_24h", false);
    wait_for(&smtp, before, "Reminder");
    /* The rarer kinds, from the same turn's payload: a nudge, a deadline
     * coming, a deadline passed (to the admins) and an abort. */
    before = receiver_count(&smtp);
    queue_variant(t.match, "nudge_1", false, "email",
                  "{\"nudged_by\": \"Eliza\"}");
    wait_for(&smtp, before, " nudged you");
    static const char deadline[] =
        "{\"deadline\": {\"due_at\": \"2026-12-01T18:00:00Z\","
        " \"fires_at\": \"2026-12-02T06:00:00Z\","
        " \"action\": \"notify_admins\","
        " \"reason\": \"seat 0 did not take its turn within 72 hours\"}}";
    before = receiver_count(&smtp);
    queue_variant(t.match, "deadline_reminder", false, "email", deadline);
    wait_for(&smtp, before, "Reminder: your deadline");
    before = receiver_count(&smtp);
    queue_variant(t.match, "deadline_admins", false, "admins", deadline);
    wait_for(&smtp, before, "A deadline passed in");
    before = receiver_count(&smtp);
    queue_variant(t.match, "match_aborted", false, "email",
                  "{\"reason\": \"Both players asked to start over with "
                  "other options.\"}");
    wait_for(&smtp, before, " was aborted");
    json_t *match = e2e_get(&t, "", NULL);
    int waited = e2e_first_pending_seat(match);
    json_decref(match);
    cr_assert_geq(waited, 0);
    int other = (waited + 1) % seats;
    say(&t, other, -1, "Good luck, everyone! I have played this once before.");
    before = receiver_count(&smtp);
    queue_copy(t.match, "reminder_0h", true);
    wait_for(&smtp, before, "These matches are waiting for you");
    say(&t, waited, -1, "Thanks, and to you.");
    say(&t, waited, other,
        "Between us: shall we keep the\nleader in check together?");
    for (int moves = 0; moves < 5000 && e2e_play_one(&t); moves++)
        continue;
    wait_for(&smtp, 0, " is over.");
    keep_samples(&smtp, dir, written);
    stop_server(&t.server);
    receiver_stop(&smtp);
    unsetenv("PBEM_SMTP_URL");
    unsetenv("PBEM_ADMIN_EMAIL");
}

static void samples_of(const char *game, int seats)
{
    srand(7);
    const char *root = getenv("PBEM_MAIL_SAMPLES");
    char dir[400];
    snprintf(dir, sizeof dir, "%s/%s", root ? root : "build/mail-samples",
             game);
    mkdir(root ? root : "build/mail-samples", 0755);
    mkdir(dir, 0755);
    bool written[KINDS] = {false};
    by_mail(game, seats, dir, written);
    by_notification(game, seats, dir, written);
    bool sealed_game = strcmp(game, "adel_verplichtet") == 0;
    for (size_t k = 0; k < KINDS; k++) {
        if (strcmp(kinds[k], "sealed") == 0 && !sealed_game)
            continue;
        /* A sealed choice waits for the others: its answer comes with the
         * next turn. Other games' few moves may keep the turn. */
        if (strcmp(kinds[k], "answer_and_turn") == 0 && !sealed_game)
            continue;
        cr_expect(written[k], "%s: no %s mail came", game, kinds[k]);
    }
}

Test(mail_samples, adel_verplichtet, .timeout = 600)
{
    samples_of("adel_verplichtet", 3);
}

Test(mail_samples, antiquity_quest, .timeout = 600)
{
    samples_of("antiquity_quest", 2);
}

Test(mail_samples, artifact_stack, .timeout = 600)
{
    samples_of("artifact_stack", 2);
}

Test(mail_samples, another_mans_treasure, .timeout = 600)
{
    samples_of("another_mans_treasure", 2);
}

Test(mail_samples, quarriors, .timeout = 600)
{
    samples_of("quarriors", 2);
}
