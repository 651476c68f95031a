/* Whole matches played by email only, from the first mail to the service
 * to the final scores: nobody in them has a key or calls the API. Every
 * game is played so; the answers quote the mail answered in the shapes
 * mail programs write, one after the other (mail_people.c), and the
 * invitations are answered as people write. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../support/dovecot.h"
#include "mail_people.h"

/* The suite is named entire_match, not whole_match, for its place in the
 * alphabet: Criterion starts a binary's tests in the order of their names,
 * and these are its longest (one is four minutes on a busy machine).
 * Started last, they ran after the others, one or two at a time, and the
 * mail suite took a minute longer than the sum of its tests over its
 * four jobs. */

/* Every player is told the match is over, with the scores. */
static void expect_over_mails(mail_table *t)
{
    for (int p = 0; p < t->seats; p++) {
        size_t from = 0;
        json_t *mail;
        bool told = false;
        while (!told && (mail = mail_next_to(t->scene, t->people[p].address,
                                             &from, 20)) != NULL) {
            const char *subject =
                json_string_value(json_object_get(mail, "subject"));
            /* The subject is the match's thread's; the news opens the text. */
            told = subject && strstr(subject, t->match) &&
                   strstr(mail_text(mail), "is over");
            json_decref(mail);
        }
        cr_expect(told, "%s was not told that %s is over", t->people[p].address,
                  t->match);
    }
}

/* Each move made by mail is an event that says so: the message's hash,
 * its reply address and sender, the line; an export of the match verifies
 * and restores like any other. */
static void expect_moves_recorded_as_mail(mail_table *t)
{
    char path[128];
    int by_mail = 0;
    long long after = 0;
    for (bool more = true; more;) {
        snprintf(path, sizeof path,
                 "/v1/matches/%s/events?after=%lld&limit=500", t->match, after);
        e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
        cr_assert_eq(r.status, 200, "%s", r.body);
        more = json_array_size(json_object_get(r.json, "events")) == 500;
        after += 500;
        size_t i;
        json_t *event;
        json_array_foreach(json_object_get(r.json, "events"), i, event)
        {
            const json_t *request =
                json_object_get(json_object_get(event, "data"), "request");
            if (strcmp(json_string_value(json_object_get(event, "kind")),
                       "move") ||
                request == NULL)
                continue;
            cr_expect_str_eq(json_string_value(json_object_get(request, "via")),
                             "email");
            const char *sha =
                json_string_value(json_object_get(request, "message_sha256"));
            cr_expect(sha && strlen(sha) == 64, "no message hash");
            cr_expect_eq(
                strlen(json_string_value(json_object_get(request, "token"))
                           ?: ""),
                16, "no reply address id");
            cr_expect_not_null(json_object_get(request, "command"));
            by_mail++;
        }
        e2e_response_free(&r);
    }
    cr_expect_gt(by_mail, 10, "moves recorded as made by mail: %d", by_mail);
    char file[256], args[400];
    snprintf(file, sizeof file, "%s/export-%s.jsonl",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", t->match);
    snprintf(args, sizeof args, "export %s", t->match);
    cr_assert_eq(mail_scene_pbem(t->scene, args, file), 0, "pbem export");
    snprintf(args, sizeof args, "verify --export \"%s\"", file);
    cr_expect_eq(mail_scene_pbem(t->scene, args, NULL), 0,
                 "pbem verify --export refuses a match played by mail");
    snprintf(args, sizeof args, "import --new-id \"%s\"", file);
    cr_expect_eq(mail_scene_pbem(t->scene, args, NULL), 0,
                 "pbem import refuses a match of email-only players");
    unlink(file);
}

Test(entire_match, antiquity_quest_by_pbem_mail_in, .timeout = 600)
{
    srand(18);
    mail_scene scene;
    /* A whole match is hundreds of answers to each player within minutes. */
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    mail_table_play_to_the_end(&t, 3000);
    cr_log_info("antiquity_quest by mail: %d moves, %d refused", t.moves,
                t.refused);
    cr_expect_gt(t.moves, 10);
    expect_over_mails(&t);
    expect_moves_recorded_as_mail(&t);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(entire_match, antiquity_quest_through_imap, .timeout = 600)
{
    srand(19);
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene scene;
    mail_scene_start(&scene, true, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    mail_table_play_to_the_end(&t, 3000);
    cr_log_info("antiquity_quest by mail through IMAP: %d moves, %d refused",
                t.moves, t.refused);
    cr_expect_gt(t.moves, 10);
    expect_over_mails(&t);
    cr_expect(dovecot_wait_count(scene.imap, "pbem", "INBOX", "UNSEEN", 0, 20),
              "mail was left unseen in INBOX");
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(entire_match, adel_verplichtet_through_imap, .timeout = 900)
{
    srand(22);
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene scene;
    mail_scene_start(&scene, true, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "adel_verplichtet", 3, "");
    mail_table_play_to_the_end(&t, 5000);
    cr_log_info("adel_verplichtet by mail through IMAP: %d moves, %d refused",
                t.moves, t.refused);
    cr_expect_gt(t.moves, 10);
    expect_over_mails(&t);
    /* Every message was put away once handled: none is left unseen. */
    cr_expect(dovecot_wait_count(scene.imap, "pbem", "INBOX", "UNSEEN", 0, 20),
              "mail was left unseen in INBOX");
    cr_expect_eq(dovecot_count(scene.imap, "pbem", "Processed", "ALL"),
                 scene.sent, "every message handed in ends in Processed");
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

/* The games not played above, each to its end by pbem mail-in. */
/* prefer: as mail_table's (NULL: every move at random). */
static void whole_match_by_mail(const char *game, int seats, int max_mails,
                                unsigned seed, const char *prefer)
{
    static const char *const joins[] = {NULL, "Join!", "Count me in, join",
                                        "yes"};
    srand(seed);
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down_saying(&t, &scene, game, seats, "", joins);
    t.prefer = prefer;
    mail_table_play_to_the_end(&t, max_mails);
    cr_log_info("%s by mail: %d moves, %d refused", game, t.moves, t.refused);
    cr_expect_gt(t.moves, 10);
    expect_over_mails(&t);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(entire_match, quarriors_by_pbem_mail_in, .timeout = 900)
{
    whole_match_by_mail("quarriors", 2, 4000, 43, NULL);
}

Test(entire_match, artifact_stack_by_pbem_mail_in, .timeout = 900)
{
    whole_match_by_mail("artifact_stack", 2, 3000, 44, NULL);
}

Test(entire_match, another_mans_treasure_by_pbem_mail_in, .timeout = 1200)
{
    whole_match_by_mail("another_mans_treasure", 3, 6000, 45, "draw");
}

/* The match's head and the one seat it waits for (-1: none or several). */
static long long head_and_seat(mail_table *t, int *seat)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    long long head = (long long)json_integer_value(
        json_object_get(json_object_get(r.json, "head"), "seq"));
    const json_t *seats =
        json_object_get(json_object_get(r.json, "pending"), "seats");
    *seat = json_array_size(seats) == 1
                ? (int)json_integer_value(json_array_get(seats, 0))
                : -1;
    e2e_response_free(&r);
    return head;
}

/* The first card of "Your hand (N cards): red2 blue3 ..." in the mail. */
static void first_in_hand(const json_t *mail, char *card, size_t size)
{
    const char *hand = strstr(mail_text(mail), "Your hand (");
    cr_assert_not_null(hand, "the mail shows no hand:\n%s", mail_text(mail));
    hand = strstr(hand, "): ");
    cr_assert_not_null(hand);
    hand += 3;
    snprintf(card, size, "%.*s", (int)strcspn(hand, " \r\n"), hand);
}

/* The answer threaded under Message-ID id, among the mails from line
 * from on (20 s at most); NULL when none came. Borrowed. */
static const json_t *answer_under(mail_scene *scene, const char *id,
                                  size_t from)
{
    double until = receiver_now() + 20;
    const json_t *mail;
    char wanted[140];
    snprintf(wanted, sizeof wanted, "<%s>", id);
    for (size_t i = from; (mail = receiver_await(&scene->smtp, i, until));
         i++) {
        const char *to =
            json_string_value(json_object_get(mail, "in_reply_to"));
        if (to != NULL && (strcmp(to, wanted) == 0 || strcmp(to, id) == 0))
            return mail;
    }
    return NULL;
}

/* #42: two moves a player mails back to back, which the IMAP worker reads
 * in one batch and hands to its threads at once, apply in the order they
 * were written: Antiquity Quest's draw, then a discard, which before the
 * draw is refused. */
Test(entire_match, two_moves_mailed_back_to_back_apply_in_order_through_imap,
     .timeout = 180)
{
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene scene;
    mail_scene_start(&scene, true, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    int p = -1;
    long long head = head_and_seat(&t, &p);
    cr_assert_geq(p, 0, "the match waits for one seat");
    mail_table_wait(&t, p);
    mail_person *person = &t.people[p];
    char card[32], discard[64], first[160], second[160];
    first_in_hand(person->latest, card, sizeof card);
    snprintf(discard, sizeof discard, "discard %s", card);
    snprintf(first, sizeof first, "%s", mail_reply_to(person->latest));
    /* A discard before the draw is refused and changes nothing, so its
     * reply address works again; the refusal brings a second one. */
    json_t *refusal = mail_table_answer(&t, p, discard);
    int seat;
    cr_assert_eq(head_and_seat(&t, &seat), head, "the early discard applied");
    cr_assert_not_null(mail_reply_to(refusal));
    snprintf(second, sizeof second, "%s", mail_reply_to(refusal));
    cr_assert_str_neq(first, second);
    json_decref(refusal);
    /* Now the draw and the discard, mailed back to back, delivered at
     * one moment: the worker reads them in one round. */
    char draw_id[128] = "", discard_id[128] = "";
    char *draw = mail_scene_compose(person->address, first, "Re: your turn",
                                    NULL, NULL, "draw", draw_id);
    char *then = mail_scene_compose(person->address, second, "Re: your turn",
                                    NULL, NULL, discard, discard_id);
    size_t from = mail_count(&scene);
    const char *const both[] = {draw, then};
    dovecot_append_together(scene.imap, "pbem", "INBOX", both, 2);
    free(draw);
    free(then);
    double until = receiver_now() + 20;
    while (head_and_seat(&t, &seat) < head + 2 && receiver_now() < until)
        pause_ms(50);
    cr_expect_eq(head_and_seat(&t, &seat), head + 2,
                 "both the draw and the discard applied");
    cr_expect_eq(seat, 1 - p, "the discard ended the turn");
    const json_t *answer = answer_under(&scene, discard_id, from);
    cr_assert_not_null(answer, "the discard was never answered");
    char echo[80];
    snprintf(echo, sizeof echo, "> %s\n", discard);
    cr_expect(mail_says(answer, echo), "%s", mail_text(answer));
    cr_expect(mail_says(answer, " (event "), "%s", mail_text(answer));
    cr_expect(!mail_says(answer, "Refused"), "%s", mail_text(answer));
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
