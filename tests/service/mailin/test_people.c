/* What a person playing over days meets at the mail door, each case
 * asserting what they receive: a fast writer loses no move, an invitation
 * answered in their own words, a greeting, s-nail's tab quote, a move
 * told with its outcome, a sealed choice, Quarriors' "end", and the
 * mail server's side (pbem keygen --mail, mail-in's refusals). */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mail_people.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};

/* The seats the match waits for ("seats" of its pending), as a new
 * array, and its wait in *wait (64 bytes; may be NULL). */
static json_t *pending_of(mail_table *t, char *wait)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *pending = json_object_get(r.json, "pending");
    json_t *seats = json_deep_copy(json_object_get(pending, "seats"));
    if (wait != NULL)
        snprintf(wait, 64, "%s",
                 json_string_value(json_object_get(pending, "wait")) ?: "");
    e2e_response_free(&r);
    return seats ? seats : json_array();
}

/* The one seat the match waits for, or -1. */
static int acting_seat(mail_table *t)
{
    json_t *seats = pending_of(t, NULL);
    int seat = json_array_size(seats) == 1
                   ? (int)json_integer_value(json_array_get(seats, 0))
                   : -1;
    json_decref(seats);
    return seat;
}

/* Waits (20 s at most) until the match waits for seat alone. */
static void wait_for_seat(mail_table *t, int seat, const char *why)
{
    double until = receiver_now() + 20;
    while (acting_seat(t) != seat) {
        cr_assert_lt(receiver_now(), until,
                     "waited 20 s for the match to wait for seat %d (%s)", seat,
                     why);
        pause_ms(50);
    }
}

/* The first offered move that starts with one of prefixes (in order of
 * preference), else the first offered; NULL when none is offered. Points
 * into moves. */
static const char *pick(const json_t *moves, const char *const *prefixes)
{
    for (int k = 0; prefixes && prefixes[k]; k++) {
        size_t i;
        const json_t *move;
        json_array_foreach(moves, i, move)
        {
            if (strncmp(json_string_value(move), prefixes[k],
                        strlen(prefixes[k])) == 0)
                return json_string_value(move);
        }
    }
    return json_string_value(json_array_get(moves, 0));
}

/* Hands in an answer from person p to mail (its Reply-To), body as the
 * person's program wrote it; the Message-ID in id (128 bytes). */
static void reply_to_mail(mail_table *t, int p, const json_t *mail,
                          const char *body, char *id)
{
    const char *was = json_string_value(json_object_get(mail, "subject"));
    char subject[300];
    snprintf(subject, sizeof subject, "Re: %s", was ? was : "");
    id[0] = '\0';
    char *raw = mail_scene_compose(t->people[p].address, mail_reply_to(mail), subject,
                             NULL, NULL, body, id);
    cr_assert_eq(mail_hand_in(t->scene, raw), 0, "mail-in refused it");
    free(raw);
}

/* The mail to address answering Message-ID id, waiting up to 20 s from
 * receiver line *from on. New reference. */
static json_t *answer_to(mail_table *t, const char *address, const char *id,
                         size_t *from)
{
    for (;;) {
        json_t *mail = mail_next_to(t->scene, address, from, 20);
        cr_assert_not_null(mail, "no answer to <%s> came to %s", id, address);
        const char *answered =
            json_string_value(json_object_get(mail, "in_reply_to"));
        if (answered && strstr(answered, id))
            return mail;
        json_decref(mail);
    }
}

static void expect_says(const json_t *mail, const char *words)
{
    cr_expect(mail_says(mail, words), "the mail does not say \"%s\":\n%s",
              words, mail_text(mail));
}

static void expect_not_says(const json_t *mail, const char *words)
{
    cr_expect(!mail_says(mail, words), "the mail says \"%s\":\n%s", words,
              mail_text(mail));
}

/* #35.1: with 3 answers an hour, Alice (3 answers already, setting the
 * match up) plays a whole turn: every move is applied, she is told once
 * that she writes fast and when the answer comes, and the held answer
 * comes as one mail when it is due. */
Test(mail_people, a_player_past_the_hourly_limit_loses_no_move, .timeout = 180)
{
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=3", NULL};
    static const char *const short_turn[] = {"draw", "discard", NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    /* Bob (one answer so far) plays until it is Alice's turn. */
    for (int guard = 0; acting_seat(&t) != 0; guard++) {
        cr_assert_lt(guard, 2, "Bob's turn takes more than two mails");
        cr_assert_eq(acting_seat(&t), 1);
        mail_table_wait(&t, 1);
        json_t *moves = mail_offered_moves(t.people[1].latest);
        json_decref(mail_table_answer(&t, 1, pick(moves, short_turn)));
        json_decref(moves);
    }
    /* Alice's clock is Paris's (settings zone Europe/Paris): the time
     * her answer comes is told on it. */
    PGconn *zone_db = PQconnectdb(getenv("DATABASE_URL"));
    PGresult *set = PQexec(
        zone_db, "INSERT INTO notification_settings (player_id, time_zone)"
                 " SELECT player_id, 'Europe/Paris' FROM players"
                 "  WHERE email = 'alice@example.org'");
    cr_assert_eq(atoi(PQcmdTuples(set)), 1, "%s", PQerrorMessage(zone_db));
    PQclear(set);
    PQfinish(zone_db);
    /* Alice's first move past the limit: applied and answered, once
     * saying she writes fast. */
    mail_table_wait(&t, 0);
    json_t *moves = mail_offered_moves(t.people[0].latest);
    cr_assert_not_null(pick(moves, short_turn), "Alice is offered a move");
    json_t *noted = mail_table_answer(&t, 0, pick(moves, short_turn));
    json_decref(moves);
    expect_says(noted, "You are writing fast: every move you send is applied "
                       "at once, but I will answer your next mails in one "
                       "mail at ");
    expect_says(noted, " (Europe/Paris).");
    expect_says(noted, " (event ");
    cr_assert_not_null(mail_reply_to(noted), "the answer has a reply address");
    /* Her next move, answering that: applied at once, its answer held. */
    wait_for_seat(&t, 0, "Alice's turn goes on after her first move");
    moves = mail_offered_moves(noted);
    cr_assert_not_null(pick(moves, short_turn),
                       "Alice is offered a second move:\n%s", mail_text(noted));
    char second[100], second_line[128];
    snprintf(second, sizeof second, "%s", pick(moves, short_turn));
    snprintf(second_line, sizeof second_line, "> %s\n", second);
    json_decref(moves);
    char id[128];
    size_t from = mail_count(&scene);
    reply_to_mail(&t, 0, noted, second, id);
    json_decref(noted);
    wait_for_seat(&t, 1, "Alice's second move, past the limit, is applied");
    /* The held answer waits in the queue with what the move did. */
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK);
    const char *params[] = {"alice@example.org"};
    PGresult *r = PQexecParams(
        db,
        "SELECT body FROM mail_answers WHERE to_address = $1"
        " AND status = 'pending' AND next_attempt_at > now() + interval "
        "'1 minute'",
        1, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s", PQerrorMessage(db));
    cr_assert_eq(PQntuples(r), 1, "one answer held for Alice");
    cr_expect(strstr(PQgetvalue(r, 0, 0), second_line) != NULL,
              "the held answer does not tell \"%s\":\n%s", second,
              PQgetvalue(r, 0, 0));
    PQclear(r);
    /* The hour passes: the held answer goes out as one mail. */
    r = PQexecParams(db,
                     "UPDATE mail_answers SET next_attempt_at = now()"
                     " WHERE to_address = $1 AND status = 'pending'",
                     1, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    PQclear(PQexec(db, "SELECT pg_notify('pbem_outbox', '')"));
    PQfinish(db);
    json_t *held = answer_to(&t, "alice@example.org", id, &from);
    expect_says(held, second_line);
    expect_says(held, " (event ");
    cr_expect_not_null(mail_reply_to(held), "the held answer has a reply "
                                            "address");
    json_decref(held);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* #35.2: invitations answered as people write; a line that is no answer
 * spends nothing and says how, with a reply address. */
Test(mail_people, an_invitation_is_read_generously_and_never_burned,
     .timeout = 180)
{
    static const char *const joins[] = {NULL, "Join!", "Count me in, join"};
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    /* The sit-down asserts that each is seated ("You have seat"). */
    mail_table_sit_down_saying(&t, &scene, "antiquity_quest", 3, "", joins);
    /* Alice starts a second match and invites Dave. */
    json_t *open = mail_table_answer(&t, 0, "new antiquity_quest seats=3");
    expect_says(open, "is open and you have seat 0");
    json_decref(open);
    size_t from = mail_count(&scene);
    json_decref(mail_table_answer(&t, 0, "invite dave@example.org Dave"));
    json_t *invitation = mail_next_to(&scene, "dave@example.org", &from, 20);
    cr_assert_not_null(invitation, "Dave is invited");
    char invitation_to[160];
    snprintf(invitation_to, sizeof invitation_to, "%s",
             mail_reply_to(invitation));
    /* "Who is this?": no account talk, how to join, a reply address. */
    char id[128] = "";
    char *raw = mail_scene_compose("dave@example.org", invitation_to,
                             "Re: invitation", NULL, NULL, "Who is this?", id);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    json_t *a = answer_to(&t, "dave@example.org", id, &from);
    expect_says(a, "answer it with \"join\"");
    expect_not_says(a, "you have no account yet");
    cr_expect_not_null(mail_reply_to(a), "the refusal has a reply address");
    json_decref(a);
    /* The invitation's own address still works, and "I'm in." seats. */
    id[0] = '\0';
    raw = mail_scene_compose("dave@example.org", invitation_to, "Re: invitation",
                       NULL, NULL, "I\xE2\x80\x99m in.", id);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    a = answer_to(&t, "dave@example.org", id, &from);
    expect_says(a, "You have seat 1");
    json_decref(a);
    json_decref(invitation);
    /* Bob, a player already, invited too: a stray line tells him how to
     * join, not that he has no seat; "ok" seats him. */
    json_decref(mail_table_answer(&t, 0, "invite bob@example.org Bob"));
    invitation = NULL;
    while (invitation == NULL) {
        json_t *mail = mail_next_to(&scene, "bob@example.org", &from, 20);
        cr_assert_not_null(mail, "Bob is invited");
        if (mail_says(mail, "join") &&
            mail_reply_to(mail) != NULL)
            invitation = mail;
        else
            json_decref(mail);
    }
    snprintf(invitation_to, sizeof invitation_to, "%s",
             mail_reply_to(invitation));
    id[0] = '\0';
    raw = mail_scene_compose("bob@example.org", invitation_to, "Re: invitation", NULL,
                       NULL, "Hello?", id);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    a = answer_to(&t, "bob@example.org", id, &from);
    expect_says(a, "answer it with \"join\"");
    expect_not_says(a, "no seat");
    json_decref(a);
    id[0] = '\0';
    raw = mail_scene_compose("bob@example.org", invitation_to, "Re: invitation", NULL,
                       NULL, "OK", id);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    a = answer_to(&t, "bob@example.org", id, &from);
    expect_says(a, "You have seat 2");
    json_decref(a);
    json_decref(invitation);
    mail_table_read(&t);
    /* A refused line from a known player: a fresh reply address too (the
     * spent one refused). */
    const char *spent = mail_reply_to(t.people[1].latest);
    char spent_to[160];
    snprintf(spent_to, sizeof spent_to, "%s", spent);
    json_decref(mail_table_answer(&t, 1, "view"));
    id[0] = '\0';
    raw = mail_scene_compose("bob@example.org", spent_to, "Re: turn", NULL, NULL,
                       "view", id);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    a = answer_to(&t, "bob@example.org", id, &from);
    expect_says(a, "already used by an earlier mail");
    cr_expect_not_null(mail_reply_to(a), "the refusal has a reply address");
    json_decref(a);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* The body of an answer as s-nail writes it: the text, then the
 * attribution and the original indented by a tab. */
static char *s_nail_body(const char *text, const json_t *original)
{
    char *body = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&body, &size);
    fprintf(out, "%s\n\npbem <pbem@example.org> wrote:\n", text);
    const char *quoted = mail_text(original);
    for (const char *line = quoted; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        fprintf(out, "\t%.*s\n", (int)n, line);
        line += n + (end != NULL);
    }
    fclose(out);
    return body;
}

/* #35.3 and #35.4: a greeting and a closing are "not a move", never a
 * rule about turns; an s-nail answer is read for what was written; a
 * move is told with its outcome and its event number. */
Test(mail_people, chat_lines_s_nail_quotes_and_moves_told, .timeout = 180)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    int acting = acting_seat(&t);
    cr_assert_geq(acting, 0);
    int other = 1 - acting;
    /* The one who waits greets the other. */
    static const char *const chat[] = {"Hi Carol, nice dig!", "Regards,"};
    for (int i = 0; i < 2; i++) {
        mail_table_wait(&t, other);
        json_t *a = mail_table_answer(&t, other, chat[i]);
        expect_says(a, "Not a move: ");
        expect_not_says(a, "not your turn");
        cr_expect_not_null(mail_reply_to(a), "no reply address");
        json_decref(a);
    }
    /* The one who acts answers with s-nail. */
    mail_table_wait(&t, acting);
    const json_t *latest = t.people[acting].latest;
    json_t *moves = mail_offered_moves(latest);
    const char *move = json_string_value(json_array_get(moves, 0));
    cr_assert_not_null(move);
    char *body = s_nail_body(move, latest);
    char id[128];
    size_t from = mail_count(&scene);
    reply_to_mail(&t, acting, latest, body, id);
    t.people[acting].answered = true;
    free(body);
    json_t *a = answer_to(&t, t.people[acting].address, id, &from);
    char echo[160];
    snprintf(echo, sizeof echo, "> %s\nYou", move);
    /* Told to the one who moved, in the second person, then its event. */
    expect_says(a, echo);
    expect_says(a, " (event ");
    expect_not_says(a, "Done (event");
    expect_not_says(a, "> pbem");
    expect_not_says(a, "Not a move");
    json_decref(a);
    json_decref(moves);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* #35.5: a sealed choice is confirmed with what it was and who is still
 * choosing, and the view after it offers no more moves. */
Test(mail_people, a_sealed_choice_says_who_is_left_to_choose, .timeout = 180)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "adel_verplichtet", 3, "");
    char wait[64];
    json_t *seats = pending_of(&t, wait);
    cr_assert_str_eq(wait, "simultaneous",
                     "the match opens with a secret "
                     "choice");
    cr_assert_eq(json_array_size(seats), 3);
    json_decref(seats);
    mail_table_wait(&t, 1);
    json_t *moves = mail_offered_moves(t.people[1].latest);
    const char *move = json_string_value(json_array_get(moves, 0));
    cr_assert_not_null(move);
    json_t *a = mail_table_answer(&t, 1, move);
    char sealed[200];
    snprintf(sealed, sizeof sealed,
             "Sealed: %s.\nNobody sees it until everyone has chosen; waiting "
             "for Alice and Carol.",
             move);
    expect_says(a, sealed);
    expect_not_says(a, "Your moves");
    json_decref(a);
    json_decref(moves);

    /* The last to choose is told the choices are out and that the table
     * shown is the match after them, which may already wait for the
     * next secret choice. */
    for (int seat = 0; seat < 3; seat += 2) {
        mail_table_wait(&t, seat);
        moves = mail_offered_moves(t.people[seat].latest);
        move = json_string_value(json_array_get(moves, 0));
        cr_assert_not_null(move);
        a = mail_table_answer(&t, seat, move);
        if (seat == 2) {
            expect_says(a, "Everyone has chosen, so the choices are "
                           "revealed: the table below\nshows the match "
                           "after them.");
            expect_not_says(a, "in a moment");
        }
        json_decref(a);
        json_decref(moves);
    }
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* #43.1: Quarriors' "end" is a move by mail when it is one the player may
 * make; the reading stops there all the same. */
Test(mail_people, quarriors_turns_end_by_mail, .timeout = 300)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "quarriors", 2, "");
    static const char *const ends[] = {"end", "End"};
    int ended = 0;
    srand(35);
    for (int sent = 0; ended < 2; sent++) {
        cr_assert_lt(sent, 200, "no turn could be ended by mail");
        int seat = acting_seat(&t);
        cr_assert_geq(seat, 0, "the match waits for one seat");
        mail_table_wait(&t, seat);
        json_t *moves = mail_offered_moves(t.people[seat].latest);
        bool can_end = false;
        size_t i;
        const json_t *m;
        json_array_foreach(moves, i, m) can_end =
            can_end || strcmp(json_string_value(m), "end") == 0;
        if (can_end) {
            json_t *a = mail_table_answer(&t, seat, ends[ended]);
            char echo[32];
            snprintf(echo, sizeof echo, "> %s\n", ends[ended]);
            expect_says(a, echo);
            expect_says(a, " (event ");
            expect_not_says(a, "held no command");
            expect_not_says(a, "Refused");
            ended++;
            json_decref(a);
        } else {
            const char *move = json_string_value(
                json_array_get(moves, (size_t)rand() % json_array_size(moves)));
            json_decref(mail_table_answer(&t, seat, move));
        }
        json_decref(moves);
    }
    /* Where it is no move, "end" only stops the reading. */
    int seat = acting_seat(&t);
    int waiting = 1 - seat;
    json_t *a = mail_table_answer(&t, waiting, "view\nend\nmatches");
    expect_says(a, "> view\n");
    expect_not_says(a, "> end");
    expect_not_says(a, "> matches");
    json_decref(a);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* Exchange's out-of-office replies get silence: a mail after them is
 * answered, they are not. */
Test(mail_people, exchange_auto_replies_get_silence, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    mail_table_read(&t);
    char reply_to[160];
    snprintf(reply_to, sizeof reply_to, "%s",
             mail_reply_to(t.people[0].latest));
    static const struct {
        const char *subject, *headers;
    } automatic[] = {
        {"Automatic reply: your turn", NULL},
        {"Out of Office: your turn", NULL},
        {"Re: your turn", "X-Auto-Response-Suppress: All\r\n"},
        {"Re: your turn", "X-Autoreply: yes\r\n"},
    };
    char ids[4][128];
    for (int i = 0; i < 4; i++) {
        ids[i][0] = '\0';
        char *raw = mail_scene_compose(
            "alice@example.org", reply_to, automatic[i].subject, NULL,
            automatic[i].headers, "I am away until Monday.", ids[i]);
        cr_assert_eq(mail_hand_in(&scene, raw), 0);
        free(raw);
    }
    /* Then Alice herself: answered, on the same (unspent) address. */
    char id[128] = "";
    char *raw = mail_scene_compose("alice@example.org", reply_to, "Re: your turn",
                             NULL, NULL, "view", id);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    size_t from = 0;
    json_t *a = answer_to(&t, "alice@example.org", id, &from);
    expect_says(a, "Your view is below.");
    json_decref(a);
    json_t *lines = receiver_lines(&scene.smtp);
    size_t i;
    json_t *mail;
    json_array_foreach(lines, i, mail)
    {
        const char *answered =
            json_string_value(json_object_get(mail, "in_reply_to"));
        for (int k = 0; k < 4; k++)
            cr_expect(answered == NULL || strstr(answered, ids[k]) == NULL,
                      "the auto-reply \"%s\" was answered",
                      automatic[k].subject);
    }
    json_decref(lines);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* #35.12: the mail key made by pbem keygen --mail is the one pbemd
 * takes, and a refusal prints pbemd's sentence. */
Test(mail_people, the_mail_key_from_keygen_and_refusals_in_words,
     .timeout = 120)
{
    char key[256], out[300];
    snprintf(key, sizeof key, "%s/mail-%d.key",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    snprintf(out, sizeof out, "%s.out", key);
    unlink(key);
    char command[1024];
    snprintf(command, sizeof command,
             "\"%s\" keygen --mail \"%s\" > \"%s\" 2>/dev/null",
             getenv("PBEM_CLI"), key, out);
    cr_assert_eq(system(command), 0, "pbem keygen --mail failed");
    FILE *f = fopen(out, "r");
    cr_assert_not_null(f);
    char line[256], variable[300] = "";
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "PBEM_MAIL_INBOUND_KEY=", 22) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(variable, sizeof variable, "%s", line);
        }
    }
    fclose(f);
    cr_assert_neq(variable[0], '\0', "no PBEM_MAIL_INBOUND_KEY line printed");
    /* A second time it refuses to replace the key. */
    cr_expect_neq(system(command), 0, "keygen --mail replaced a key");
    const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", variable,
                               NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    snprintf(scene.key_file, sizeof scene.key_file, "%s", key);
    /* Signed with that key: handled. */
    char *raw = mail_scene_compose("zoe@example.org", "pbem@example.org", "help",
                             NULL, NULL, "help", NULL);
    cr_expect_eq(mail_hand_in(&scene, raw), 0, "the keygen'd key is refused");
    free(raw);
    /* Not a mail: refused for good, saying why. */
    char junk[300];
    snprintf(junk, sizeof junk, "%s.junk", key);
    f = fopen(junk, "w");
    fputs("\x01\x02 not a mail \x7f\r\n", f);
    fclose(f);
    snprintf(command, sizeof command,
             "\"%s\" mail-in --url http://127.0.0.1:%d --key \"%s\" < \"%s\" "
             "2> \"%s\"",
             getenv("PBEM_CLI"), scene.server.port, key, junk, out);
    int status = system(command);
    cr_expect_eq(WEXITSTATUS(status), 65);
    f = fopen(out, "r");
    char said[512] = "";
    size_t n = fread(said, 1, sizeof said - 1, f);
    said[n] = '\0';
    fclose(f);
    cr_expect(strstr(said, "refused for good (422): unreadable: the bytes do "
                           "not begin with mail headers") != NULL,
              "mail-in said: %s", said);
    unlink(junk);
    unlink(out);
    unlink(key);
    scene.key_file[0] = '\0';
    mail_scene_stop(&scene);
}
