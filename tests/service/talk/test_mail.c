/* Talk at the table by mail, beside players on the API: a player who
 * plays by mail reads what was said in their next mail (no mail of its
 * own), writes "say" and "say to NAME" paragraphs, is refused a name that
 * sits at no seat, and a free-text line is answered with the hint to use
 * "say". A private message reaches its two players' mail and nobody
 * else's. A player mutes and unmutes another by mail, and a daily digest
 * carries the talk as a turn mail does, each message once. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "../mailin/mail_scene.h"
#include "talk.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};
static const char *const addresses[] = {
    "robert@example.org", "eliza@example.org", "nigel@example.org"};

/* seat nudges the seats the match waits for: their next mail. */
static void nudge(const e2e_table *t, int seat)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/nudge", t->match);
    e2e_response r =
        e2e_call(&t->server, "POST", path, NULL, &t->players[seat]);
    cr_assert_eq(r.status, 202, "nudge: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

/* The next mail to seat's address from receiver line *from on, whose text
 * holds needle (20 s at most). New reference. */
static json_t *mail_saying(mail_scene *scene, int seat, const char *needle,
                           size_t *from)
{
    for (;;) {
        json_t *mail = mail_next_to(scene, addresses[seat], from, 20);
        cr_assert_not_null(mail, "no mail saying \"%s\" came to %s", needle,
                           addresses[seat]);
        if (strstr(mail_text(mail), needle) != NULL)
            return mail;
        json_decref(mail);
    }
}

/* Hands in body from seat as an answer to mail; the answer (20 s at most).
 * New reference. */
static json_t *answer(mail_scene *scene, int seat, const json_t *mail,
                      const char *body)
{
    char id[128] = "";
    size_t from = mail_count(scene);
    char *raw = mail_scene_compose(addresses[seat], mail_reply_to(mail),
                                   "Re: your turn", NULL, NULL, body, id);
    cr_assert_eq(mail_hand_in(scene, raw), 0, "mail-in refused it");
    free(raw);
    for (;;) {
        json_t *got = mail_next_to(scene, addresses[seat], &from, 20);
        cr_assert_not_null(got, "no answer to <%s>", id);
        const char *answered =
            json_string_value(json_object_get(got, "in_reply_to"));
        if (answered && strstr(answered, id))
            return got;
        json_decref(got);
    }
}

/* Waits (20 s at most) until the outbox has sent every mail it holds, so
 * that the next mail a player gets is one that what follows causes: the
 * match's first turn mail leaves on the outbox worker's time, and on a
 * busy machine it left after the talk had begun. */
static void until_mail_sent(void)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    double until = receiver_now() + 20;
    for (;;) {
        PGresult *r = PQexec(conn, "SELECT count(*) FROM outbox"
                                   " WHERE channel = 'email'"
                                   " AND status = 'pending'");
        cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                     PQerrorMessage(conn));
        int pending = atoi(PQgetvalue(r, 0, 0));
        PQclear(r);
        if (pending == 0)
            break;
        cr_assert_lt(receiver_now(), until,
                     "%d mails were still waiting in the outbox after 20 s",
                     pending);
        pause_ms(20);
    }
    PQfinish(conn);
}

static char *texts_of(const e2e_table *t, int seat)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t->match);
    e2e_response r = e2e_call(&t->server, "GET", path, NULL, &t->players[seat]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    char *all = strdup(r.body);
    e2e_response_free(&r);
    return all;
}

static void expect_in(const char *text, const char *needle, const char *where)
{
    cr_expect(strstr(text, needle) != NULL, "%s lacks \"%s\":\n%s", where,
              needle, text);
}

static void expect_not_in(const char *text, const char *needle,
                          const char *where)
{
    cr_expect(strstr(text, needle) == NULL, "%s holds \"%s\":\n%s", where,
              needle, text);
}

Test(talk_mail, a_mail_player_talks_with_api_players_and_privacy_holds,
     .timeout = 240)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    e2e_table t;
    memset(&t, 0, sizeof t);
    t.server = scene.server;
    e2e_seat_players(&t, "antiquity_quest", 3, NULL);
    for (int s = 0; s < 3; s++)
        e2e_confirm_address(t.players[s].id, addresses[s]);
    json_t *match = e2e_get(&t, "", NULL);
    int mailer = e2e_first_pending_seat(match);
    json_decref(match);
    cr_assert_geq(mailer, 0);
    int api = (mailer + 1) % 3, third = (mailer + 2) % 3;

    /* The API player speaks; the mailer reads it in the nudge's mail. */
    until_mail_sent();
    size_t from = mail_count(&scene);
    talk_say(&t, api, -1, "Hello from the page");
    talk_say(&t, api, mailer, "Psst, only for you");
    nudge(&t, api);
    json_t *turn = mail_saying(&scene, mailer, "since your last mail", &from);
    const char *text = mail_text(turn);
    expect_in(text, "Hello from the page", "the mailer's turn mail");
    expect_in(text, ", to you alone: Psst, only for you",
              "the mailer's turn mail");

    /* The mailer answers with two paragraphs of talk and a greeting. */
    char body[512];
    snprintf(body, sizeof body,
             "say to %s: got it,\nsee you later\n\nsay Hi all\n\n"
             "Cheers, nice game\n",
             t.players[api].name);
    json_t *answered = answer(&scene, mailer, turn, body);
    text = mail_text(answered);
    expect_in(text, "Message sent privately to", "the answer");
    expect_in(text, "Message sent to everyone at the table.", "the answer");
    expect_in(text, "Not a move", "the answer");
    expect_in(text, "\"say\"", "the answer's hint");
    /* Carried once: the answer does not repeat what the turn mail said. */
    expect_not_in(text, "Psst", "the answer");
    json_decref(answered);
    json_decref(turn);

    char *api_reads = texts_of(&t, api);
    expect_in(api_reads, "got it,\\nsee you later",
              "the API player's messages");
    expect_in(api_reads, "Hi all", "the API player's messages");
    free(api_reads);
    char *third_reads = texts_of(&t, third);
    expect_not_in(third_reads, "got it", "the third player's messages");
    expect_not_in(third_reads, "Psst", "the third player's messages");
    expect_in(third_reads, "Hi all", "the third player's messages");
    free(third_reads);

    /* The third player's next mail: the public talk, none of the private. */
    from = mail_count(&scene);
    while (e2e_first_pending_seat(match = e2e_get(&t, "", NULL)) != third) {
        json_decref(match);
        cr_assert(e2e_play_one(&t), "the match ended before seat %d's turn",
                  third);
    }
    json_decref(match);
    json_t *third_mail =
        mail_saying(&scene, third, "since your last mail", &from);
    text = mail_text(third_mail);
    expect_in(text, "Hi all", "the third player's mail");
    expect_in(text, "Hello from the page", "the third player's mail");
    expect_not_in(text, "got it", "the third player's mail");
    expect_not_in(text, "Psst", "the third player's mail");
    json_decref(third_mail);
    mail_scene_stop(&scene);
}

Test(talk_mail, say_to_a_name_nobody_has_is_refused_not_said_to_all,
     .timeout = 180)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    e2e_table t;
    memset(&t, 0, sizeof t);
    t.server = scene.server;
    e2e_seat_players(&t, "antiquity_quest", 3, NULL);
    for (int s = 0; s < 3; s++)
        e2e_confirm_address(t.players[s].id, addresses[s]);
    json_t *match = e2e_get(&t, "", NULL);
    int mailer = e2e_first_pending_seat(match);
    json_decref(match);
    int other = (mailer + 1) % 3;
    size_t from = mail_count(&scene);
    nudge(&t, other);
    json_t *turn = mail_saying(&scene, mailer, "nudge", &from);
    json_t *answered = answer(&scene, mailer, turn, "say to Zed my plan\n");
    expect_in(mail_text(answered), "nobody called \"Zed\" sits at this table",
              "the answer");
    json_decref(answered);
    json_decref(turn);
    char *reads = texts_of(&t, other);
    expect_not_in(reads, "my plan", "the other player's messages");
    free(reads);
    mail_scene_stop(&scene);
}

/* The table of the talk_mail tests: a server, three players with their
 * addresses, and the seat the match waits for (the mailer), once the
 * match's first mails are out. */
static int mail_table(mail_scene *scene, e2e_table *t)
{
    mail_scene_start(scene, false, generous);
    memset(t, 0, sizeof *t);
    t->server = scene->server;
    e2e_seat_players(t, "antiquity_quest", 3, NULL);
    for (int s = 0; s < 3; s++)
        e2e_confirm_address(t->players[s].id, addresses[s]);
    json_t *match = e2e_get(t, "", NULL);
    int mailer = e2e_first_pending_seat(match);
    json_decref(match);
    cr_assert_geq(mailer, 0);
    until_mail_sent();
    return mailer;
}

Test(talk_mail, mute_and_unmute_a_player_by_mail, .timeout = 180)
{
    mail_scene scene;
    e2e_table t;
    int mailer = mail_table(&scene, &t);
    int other = (mailer + 1) % 3;
    size_t from = mail_count(&scene);
    nudge(&t, other);
    json_t *turn = mail_saying(&scene, mailer, "nudge", &from);
    char body[128];
    snprintf(body, sizeof body, "mute %s\n", t.players[other].name);
    json_t *muted = answer(&scene, mailer, turn, body);
    char said[160];
    snprintf(said, sizeof said, "Muted %s: nothing %s writes reaches you",
             t.players[other].name, t.players[other].name);
    expect_in(mail_text(muted), said, "the answer to mute");
    talk_say(&t, other, -1, "Words while muted");
    char *reads = texts_of(&t, mailer);
    expect_not_in(reads, "Words while muted", "the mailer's messages");
    free(reads);

    json_t *refused = answer(&scene, mailer, muted, "mute Zed\n");
    expect_in(mail_text(refused), "nobody called \"Zed\" sits at this table",
              "the answer to a mute of nobody");
    snprintf(body, sizeof body, "unmute %s\n", t.players[other].name);
    json_t *unmuted = answer(&scene, mailer, refused, body);
    snprintf(said, sizeof said, "Unmuted %s", t.players[other].name);
    expect_in(mail_text(unmuted), said, "the answer to unmute");
    talk_say(&t, other, -1, "Heard again");
    reads = texts_of(&t, mailer);
    expect_in(reads, "Heard again", "the mailer's messages");
    free(reads);
    json_decref(unmuted);
    json_decref(refused);
    json_decref(muted);
    json_decref(turn);
    mail_scene_stop(&scene);
}

static PGconn *database(void)
{
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    return db;
}

/* A copy of the latest "your turn" mail row to seat's player once it is
 * sent (the turn's own mail, which must not be the one carrying the talk),
 * queued as a digest entry due in an hour (digest_due makes it due); a
 * reason of its own, as a row is one per match, seq, player and reason. */
static void queue_digest(const e2e_table *t, int seat)
{
    PGconn *db = database();
    const char *values[] = {t->match + 2, t->players[seat].id + 2};
    PGresult *r = NULL;
    /* The turn's own mail may still be on its way: up to 20 s. */
    for (int tries = 0; tries < 200; tries++) {
        PQclear(r);
        r = PQexecParams(
            db,
            "INSERT INTO outbox (match_id, seq, player_id, channel, reason,"
            "                    payload, next_attempt_at, digest)"
            " SELECT match_id, seq, player_id, 'email', 'reminder_0h', payload,"
            "        now() + interval '1 hour', true"
            "   FROM outbox WHERE match_id = $1::bigint AND channel = 'email'"
            "    AND player_id = $2::bigint AND reason = 'your_turn'"
            "    AND status = 'sent' ORDER BY outbox_id DESC LIMIT 1",
            2, NULL, values, NULL, NULL, 0);
        cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                     PQresultErrorMessage(r));
        if (atoi(PQcmdTuples(r)) == 1)
            break;
        pause_ms(100);
    }
    cr_assert_eq(atoi(PQcmdTuples(r)), 1, "no your-turn mail to copy");
    PQclear(r);
    PQfinish(db);
}

/* The digest entries fall due now, as at the player's digest hour. */
static void digest_due(void)
{
    PGconn *db = database();
    PGresult *r = PQexec(db, "UPDATE outbox SET next_attempt_at = now()"
                             " WHERE digest AND status = 'pending'");
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQresultErrorMessage(r));
    PQclear(r);
    PQclear(PQexec(db, "NOTIFY pbem_outbox"));
    PQfinish(db);
}

Test(talk_mail, a_digest_carries_the_talk_once, .timeout = 180)
{
    mail_scene scene;
    e2e_table t;
    int mailer = mail_table(&scene, &t);
    int other = (mailer + 1) % 3;
    size_t from = mail_count(&scene);
    queue_digest(&t, mailer);
    talk_say(&t, other, -1, "Said before the digest");
    digest_due();
    json_t *digest =
        mail_saying(&scene, mailer, "These matches are waiting", &from);
    const char *text = mail_text(digest);
    expect_in(text,
              "Messages at the table since your last mail:", "the digest");
    expect_in(text, "Said before the digest", "the digest");
    expect_in(text, "answer the latest mail about that match with \"say\"",
              "the digest's hint");
    json_decref(digest);

    /* The next mail carries what came since, not what the digest did. */
    talk_say(&t, other, -1, "Said after the digest");
    nudge(&t, other);
    json_t *nudged = mail_saying(&scene, mailer, "nudge", &from);
    text = mail_text(nudged);
    expect_in(text, "Said after the digest", "the nudge after the digest");
    expect_not_in(text, "Said before the digest", "the nudge after the digest");
    json_decref(nudged);
    mail_scene_stop(&scene);
}
