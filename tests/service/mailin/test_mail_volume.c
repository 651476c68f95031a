/* One mail per decision point: a player whose mailed move leaves it their
 * turn again reads that turn in the answer to their mail, and gets no
 * separate "your turn" mail for it; one whose move leaves them waiting
 * for the others gets its answer inside their next turn's mail. Counted
 * over a whole match played by mail only, by people who play on without
 * waiting for each answer: of Adel Verplichtet in the suite, and of the
 * game PBEM_MAIL_VOLUME_GAME names when set (make bench plays each game
 * for its line of figures). */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail_people.h"

/* One number a query answers. */
static long long number(PGconn *db, const char *sql, const char *match)
{
    const char *values[] = {match + 2};
    PGresult *r = PQexecParams(db, sql, 1, NULL, values, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQresultErrorMessage(r));
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

/* Whether a mail to person p among lines[from..] answers the mail id:
 * its In-Reply-To or one of its References. */
static bool answered(const json_t *lines, size_t from, const char *address,
                     const char *id)
{
    char bracketed[160];
    snprintf(bracketed, sizeof bracketed, "<%s>", id);
    for (size_t i = from; i < json_array_size(lines); i++) {
        const json_t *mail = json_array_get(lines, i);
        const char *to = json_string_value(
            json_array_get(json_object_get(mail, "envelope_to"), 0));
        if (to == NULL || strcasecmp(to, address) != 0)
            continue;
        const char *reply =
            json_string_value(json_object_get(mail, "in_reply_to"));
        if (reply && strcmp(reply, bracketed) == 0)
            return true;
        size_t k;
        const json_t *ref;
        json_array_foreach(json_object_get(mail, "references"), k, ref)
        {
            if (strcmp(json_string_value(ref), bracketed) == 0)
                return true;
        }
    }
    return false;
}

Test(mail_volume, one_mail_per_decision_and_every_mail_answered,
     .timeout = 1200)
{
    srand(35);
    mail_scene scene;
    /* The hold outlasts any wait of the others here, so a sealed choice's
     * answer always comes with the next turn or the end. */
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      "PBEM_MAIL_ANSWER_HOLD_SECONDS=300",
                                      NULL};
    mail_scene_start(&scene, false, env);
    const char *game = getenv("PBEM_MAIL_VOLUME_GAME");
    if (game == NULL || game[0] == '\0')
        game = "adel_verplichtet";
    bool sealed = strcmp(game, "adel_verplichtet") == 0;
    mail_table t;
    mail_table_sit_down(&t, &scene, game, 3, "");
    size_t from = t.cursor;
    t.hurried = true;
    mail_table_play_to_the_end(&t, 8000);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    /* A "your turn" mail sent about the very transaction in which the
     * same seat's mailed move was applied: the answer had told it. */
    long long twice =
        number(db,
               "SELECT count(*) FROM outbox o"
               "  JOIN seats s ON s.match_id = o.match_id"
               "              AND s.player_id = o.player_id"
               " WHERE o.match_id = $1::bigint AND o.channel = 'email'"
               "   AND o.reason = 'your_turn' AND o.status <> 'cancelled'"
               "   AND EXISTS (SELECT 1 FROM events e"
               "                WHERE e.match_id = o.match_id"
               "                  AND e.created_at = o.created_at"
               "                  AND e.seat = s.seat"
               "                  AND e.body::jsonb #>> '{data,request,via}'"
               "                      = 'email')",
               t.match);
    long long spared =
        number(db,
               "SELECT count(*) FROM outbox WHERE match_id = $1::bigint"
               "   AND channel = 'email' AND reason = 'your_turn'"
               "   AND status = 'cancelled'"
               "   AND last_error LIKE 'the answer to the mailed move%'",
               t.match);
    long long merged = number(db,
                              "SELECT count(*) FROM mail_answers"
                              " WHERE match_id = $1::bigint"
                              "   AND merged_into IS NOT NULL",
                              t.match);
    cr_expect_eq(twice, 0,
                 "%lld turns were mailed twice: in the answer and again",
                 twice);
    /* Adel Verplichtet's Lords often choose twice in a row (where to go,
     * then what to play there): the answer tells the second turn. */
    cr_expect(!sealed || spared > 0, "no mailed move kept its player's turn");
    cr_expect_gt(merged, 0, "no answer went inside the next turn's mail");
    /* The decision points each seat faced: each time it was asked to act
     * (its "your turn", mailed or told in an answer), each further move
     * of a turn of several moves (Antiquity Quest's draw, play and
     * discard; Another Man's Treasure's draw, then its play: the answer
     * to the mailed move shows the next one, where no "your turn" was
     * made), and the end. A turn a seat never answered (Another Man's
     * Treasure's "Can I have it?" window, closed by the next player's
     * draw first) was faced all the same. */
    long long decisions[MAIL_PEOPLE_MAX] = {0};
    for (int p = 0; p < t.seats; p++) {
        char sql[1400];
        snprintf(
            sql, sizeof sql,
            "SELECT (SELECT count(*) FROM outbox o"
            "         WHERE o.match_id = s.match_id"
            "           AND o.player_id = s.player_id"
            "           AND o.channel = 'email'"
            "           AND o.reason IN ('your_turn', 'match_over'))"
            "     + (SELECT count(*) FROM mail_answers a"
            "          JOIN events e ON e.match_id = s.match_id"
            "           AND e.seat = s.seat AND e.seq = substring("
            "               a.body FROM '\\(event ([0-9]+)\\)')::bigint"
            "         WHERE lower(a.to_address) = lower(pl.email)"
            "           AND a.kind = 'answer'"
            "           AND position('Your moves (write one' IN a.body) > 0"
            "           AND NOT EXISTS (SELECT 1 FROM outbox o"
            "                WHERE o.match_id = s.match_id"
            "                  AND o.seq = e.seq"
            "                  AND o.player_id = s.player_id"
            "                  AND o.channel = 'email'"
            "                  AND o.reason IN ('your_turn',"
            "                                   'match_over')))"
            "  FROM seats s JOIN players pl USING (player_id)"
            " WHERE s.match_id = $1::bigint AND s.seat = %d",
            p);
        decisions[p] = number(db, sql, t.match);
        /* And at least a decision per mail the seat sent, and the end. */
        long long mailed = 0, ends = 0;
        size_t k;
        const json_t *sent;
        json_array_foreach(t.sent, k, sent)
        {
            mailed += json_integer_value(json_object_get(sent, "person")) == p;
        }
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM outbox o JOIN seats s"
                 "    ON s.match_id = o.match_id AND s.player_id = o.player_id"
                 " WHERE o.match_id = $1::bigint AND s.seat = %d"
                 "   AND o.channel = 'email' AND o.reason = 'match_over'",
                 p);
        ends = number(db, sql, t.match);
        if (mailed + ends > decisions[p])
            decisions[p] = mailed + ends;
    }
    /* The last answers may still be on their way: wait (20 s at most,
     * woken by each mail) until every mail sent has one. */
    json_t *lines = NULL;
    double until = receiver_now() + 20;
    size_t unanswered;
    do {
        json_decref(lines);
        lines = receiver_lines(&scene.smtp);
        unanswered = 0;
        size_t i;
        const json_t *sent;
        json_array_foreach(t.sent, i, sent)
        {
            int p = (int)json_integer_value(json_object_get(sent, "person"));
            unanswered +=
                !answered(lines, from, t.people[p].address,
                          json_string_value(json_object_get(sent, "id")));
        }
    } while (unanswered > 0 &&
             receiver_await(&scene.smtp, json_array_size(lines), until) !=
                 NULL);
    /* The figures: mails each player received for the whole match. */
    int received[MAIL_PEOPLE_MAX] = {0}, all = 0;
    for (size_t i = from; i < json_array_size(lines); i++) {
        const char *to = json_string_value(json_array_get(
            json_object_get(json_array_get(lines, i), "envelope_to"), 0));
        for (int p = 0; p < t.seats && to; p++)
            if (strcasecmp(to, t.people[p].address) == 0) {
                received[p]++;
                all++;
            }
    }
    fprintf(stderr,
            "%s by mail, 3 players, %d moves: %d mails "
            "(Alice %d, Bob %d, Carol %d) for %lld decision points "
            "(Alice %lld, Bob %lld, Carol %lld); %lld answers went with the "
            "next turn, %lld turns were told in the answer\n",
            game, t.moves, all, received[0], received[1], received[2],
            decisions[0] + decisions[1] + decisions[2], decisions[0],
            decisions[1], decisions[2], merged, spared);
    for (int p = 0; p < t.seats; p++) {
        if (received[p] <= decisions[p])
            continue;
        /* Which mails came besides the turns: the answers that showed
         * none. */
        for (size_t k = from; k < json_array_size(lines); k++) {
            const json_t *mail = json_array_get(lines, k);
            const char *to = json_string_value(
                json_array_get(json_object_get(mail, "envelope_to"), 0));
            const char *text = mail_text(mail);
            if (to && strcasecmp(to, t.people[p].address) == 0 &&
                strstr(text, "Your moves") == NULL &&
                strstr(text, "Moves you can make") == NULL)
                fprintf(stderr, "a mail to %s with no turn:\n%.600s\n",
                        t.people[p].name, text);
        }
        cr_expect_fail("%s received %d mails for %lld decision points",
                       t.people[p].name, received[p], decisions[p]);
    }
    /* Fewer mails, and still an answer to every mail a person sent. */
    size_t i;
    const json_t *sent;
    int told = 0;
    json_array_foreach(t.sent, i, sent)
    {
        int p = (int)json_integer_value(json_object_get(sent, "person"));
        const char *id = json_string_value(json_object_get(sent, "id"));
        if (!answered(lines, from, t.people[p].address, id) && told++ < 3)
            cr_expect_fail(
                "%s's mail \"%s\" <%s> was never answered", t.people[p].name,
                json_string_value(json_object_get(sent, "text")), id);
    }
    cr_expect_eq(unanswered, 0, "%zu of %zu mails were never answered",
                 unanswered, json_array_size(t.sent));
    /* A mail carrying answers refers to each mail it answers once: the
     * latest, which it also answers (In-Reply-To), was listed twice. */
    int repeated = 0;
    for (size_t k = from; k < json_array_size(lines); k++) {
        const json_t *refs =
            json_object_get(json_array_get(lines, k), "references");
        for (size_t a = 0; a < json_array_size(refs); a++)
            for (size_t b = a + 1; b < json_array_size(refs); b++)
                if (strcmp(json_string_value(json_array_get(refs, a)),
                           json_string_value(json_array_get(refs, b))) == 0 &&
                    repeated++ < 3)
                    cr_expect_fail("References lists %s twice",
                                   json_string_value(json_array_get(refs, a)));
    }
    /* A merged mail reads: the answer, then "Since then:" and the turn,
     * with the match shown once, as it is now; a sealed choice's answer
     * says it is sealed. */
    const char *merged_text = NULL;
    for (size_t k = from; k < json_array_size(lines) && !merged_text; k++) {
        const char *text = mail_text(json_array_get(lines, k));
        if (strncmp(text, "> ", 2) == 0 && strstr(text, "Since then: "))
            merged_text = text;
    }
    cr_assert_not_null(merged_text, "no mail carried an answer and a turn");
    const char *then = strstr(merged_text, "Since then: ");
    cr_expect(!sealed || (strstr(merged_text, "Sealed: ") != NULL &&
                          strstr(merged_text, "Sealed: ") < then),
              "the answer does not come first:\n%s", merged_text);
    cr_expect(strncmp(merged_text, "> ", 2) == 0 && then != NULL,
              "the answer does not come first:\n%s", merged_text);
    cr_expect(strstr(merged_text, "Moves you can make now") > then,
              "the turn does not follow the answer:\n%s", merged_text);
    cr_expect(strstr(merged_text, "\n--\nMatch ") == NULL,
              "the answer's view of the match came along:\n%s", merged_text);
    json_decref(lines);
    PQfinish(db);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(mail_volume, a_held_answer_goes_alone_when_the_others_are_slow,
     .timeout = 120)
{
    mail_scene scene;
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      "PBEM_MAIL_ANSWER_HOLD_SECONDS=1", NULL};
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "adel_verplichtet", 3, "");
    /* Alice seals her choice; Bob and Carol take their time. */
    mail_table_wait(&t, 0);
    json_t *moves = mail_offered_moves(t.people[0].latest);
    cr_assert_gt(json_array_size(moves), 0);
    double sent = receiver_now();
    json_t *answer =
        mail_table_answer(&t, 0, json_string_value(json_array_get(moves, 0)));
    double waited = receiver_now() - sent;
    const char *text = mail_text(answer);
    cr_expect(strstr(text, "Sealed: ") != NULL, "%s", text);
    cr_expect(strstr(text, "waiting for Bob and Carol") != NULL, "%s", text);
    cr_expect(strstr(text, "Since then:") == NULL, "%s", text);
    cr_expect_geq(waited, 0.9, "the answer came after %.2f s, unheld", waited);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    /* The receiver has the mail a moment before pbemd records it sent:
     * wait (10 s at most) for the record. */
    long long alone = 0;
    for (int tries = 0; tries < 100 && alone != 1; tries++) {
        if (tries > 0)
            pause_ms(100);
        alone = number(db,
                       "SELECT count(*) FROM mail_answers"
                       " WHERE match_id = $1::bigint AND status = 'sent'"
                       "   AND merged_into IS NULL",
                       t.match);
    }
    cr_expect_eq(alone, 1, "the answer was not held for the match's next mail");
    PQfinish(db);
    json_decref(answer);
    json_decref(moves);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* The seat the match waits for alone (the round's first turn). */
static int only_pending_seat(mail_table *t)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *seats =
        json_object_get(json_object_get(r.json, "pending"), "seats");
    cr_assert_eq(json_array_size(seats), 1, "%s", r.body);
    int seat = (int)json_integer_value(json_array_get(seats, 0));
    e2e_response_free(&r);
    return seat;
}

/* Waits (20 s at most, woken by each mail) until person p's latest mail
 * offers move. */
static void wait_for_offer(mail_table *t, int p, const char *move)
{
    double until = receiver_now() + 20;
    bool offered = false;
    do {
        mail_table_read(t);
        json_t *moves = mail_offered_moves(t->people[p].latest);
        size_t i;
        const json_t *m;
        json_array_foreach(moves, i, m)
        {
            offered = offered || strcmp(json_string_value(m), move) == 0;
        }
        json_decref(moves);
    } while (!offered &&
             receiver_await(&t->scene->smtp, t->cursor, until) != NULL);
    cr_assert(offered, "no mail offered %s \"%s\"", t->people[p].name, move);
}

/* Another Man's Treasure: after a discard the next player is asked to
 * draw while the others answer "Can I have it?". When the last of them
 * answers, the next player's decision is the same as before (draw or
 * take): one mail asked it, and no second one comes. */
Test(mail_volume, the_next_player_is_asked_once_while_the_others_answer,
     .timeout = 120)
{
    mail_scene scene;
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "another_mans_treasure", 3, "");
    int first = only_pending_seat(&t);
    int next = (first + 1) % 3, other = (first + 2) % 3;
    wait_for_offer(&t, first, "draw");
    json_t *answer = mail_table_answer(&t, first, "draw");
    json_t *moves = mail_offered_moves(answer);
    const char *discard = NULL;
    size_t i;
    const json_t *m;
    json_array_foreach(moves, i, m)
    {
        if (discard == NULL &&
            strncmp(json_string_value(m), "discard ", 8) == 0)
            discard = json_string_value(m);
    }
    cr_assert_not_null(discard, "no discard offered:\n%s", mail_text(answer));
    size_t from = receiver_count(&scene.smtp);
    json_t *discarded = mail_table_answer(&t, first, discard);
    /* The next player's turn mail, and the others' "Can I have it?". */
    wait_for_offer(&t, next, "draw");
    wait_for_offer(&t, other, "pass");
    json_decref(mail_table_answer(&t, other, "pass"));
    wait_for_offer(&t, first, "pass");
    json_decref(mail_table_answer(&t, first, "pass"));
    json_t *drew = mail_table_answer(&t, next, "draw");
    cr_expect(mail_says(drew, "discard"),
              "the draw's answer shows no play:\n%s", mail_text(drew));
    /* Every turn mail queued has gone (the receiver has each before pbemd
     * records it sent): wait (10 s at most) for the records. */
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    long long unsent = 1;
    for (int tries = 0; tries < 100 && unsent > 0; tries++) {
        if (tries > 0)
            pause_ms(100);
        unsent =
            number(db,
                   "SELECT count(*) FROM outbox WHERE match_id = $1::bigint"
                   "   AND channel = 'email' AND status = 'pending'"
                   "   AND reason = 'your_turn' AND attempts = 0"
                   "   AND next_attempt_at < now() + interval '1 minute'",
                   t.match);
    }
    cr_expect_eq(unsent, 0, "%lld turn mails are still to go", unsent);
    /* The next player read, from the discard on: the turn mail, then
     * the answer to their draw. */
    json_t *lines = receiver_lines(&scene.smtp);
    int to_next = 0;
    for (size_t k = from; k < json_array_size(lines); k++) {
        const json_t *mail = json_array_get(lines, k);
        const char *to = json_string_value(
            json_array_get(json_object_get(mail, "envelope_to"), 0));
        if (to && strcasecmp(to, t.people[next].address) == 0) {
            to_next++;
            cr_log_info("mail %d to %s:\n%.300s", to_next, t.people[next].name,
                        mail_text(mail));
        }
    }
    cr_expect_eq(to_next, 2,
                 "%s got %d mails for two decisions (draw, then play)",
                 t.people[next].name, to_next);
    json_decref(lines);
    PQfinish(db);
    json_decref(drew);
    json_decref(discarded);
    json_decref(moves);
    json_decref(answer);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
