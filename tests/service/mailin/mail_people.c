/* mail_people.c: see mail_people.h. */
#include "mail_people.h"

#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int person_of(const mail_table *t, const json_t *mail)
{
    const json_t *to = json_array_get(json_object_get(mail, "envelope_to"), 0);
    for (int p = 0; p < MAIL_PEOPLE_MAX && t->people[p].address[0]; p++) {
        if (strcasecmp(json_string_value(to), t->people[p].address) == 0)
            return p;
    }
    return -1;
}

/* How long a person waits for the service's next mail: generous on a
 * busy machine, where the answer to one mail takes some 100 ms. */
#define MAIL_WAIT_SECONDS 20

void mail_table_read(mail_table *t)
{
    const json_t *mail;
    for (; (mail = receiver_await(&t->scene->smtp, t->cursor, 0)) != NULL;
         t->cursor++) {
        int p = person_of(t, mail);
        if (p < 0 || mail_reply_to(mail) == NULL)
            continue;
        json_decref(t->people[p].latest);
        t->people[p].latest = json_incref((json_t *)mail);
        t->people[p].answered = false;
    }
}

void mail_table_wait(mail_table *t, int p)
{
    double until = receiver_now() + MAIL_WAIT_SECONDS;
    do {
        mail_table_read(t);
        if (t->people[p].latest != NULL && !t->people[p].answered)
            return;
    } while (receiver_await(&t->scene->smtp, t->cursor, until) != NULL);
    const json_t *latest = t->people[p].latest;
    cr_assert_fail("waited %d s for a mail to %s with a reply address that "
                   "they have not answered yet; none came (%zu mails in all; "
                   "their latest: \"%s\")",
                   MAIL_WAIT_SECONDS, t->people[p].address, t->cursor,
                   latest != NULL ? json_string_value(
                                        json_object_get(latest, "subject"))
                                  : "none");
}

/* The id inside <…>. */
static void bare_id(const char *id, char *out, size_t size)
{
    if (id == NULL) {
        out[0] = '\0';
        return;
    }
    if (id[0] == '<')
        id++;
    snprintf(out, size, "%s", id);
    char *end = strchr(out, '>');
    if (end != NULL)
        *end = '\0';
}

/* How mail programs quote the mail answered, one after the other: the
 * attribution line each writes, and the quote's mark. */
static const struct {
    const char *attribution;
    const char *mark;
} shapes[] = {
    {"On Wed, 25 Nov 2026 at 10:00, pbem <pbem@example.org> wrote:", "> "},
    /* s-nail's default */
    {"pbem <pbem@example.org> wrote:", "\t"},
    {"Op wo 25 nov. 2026 om 10:00 schreef pbem <pbem@example.org>:", "> "},
    {"Le mer. 25 nov. 2026 à 10:00, pbem <pbem@example.org> a écrit :", "> "},
    {"Am Mi., 25. Nov. 2026 um 10:00 Uhr schrieb pbem <pbem@example.org>:",
     "    "},
    {"El mié, 25 nov 2026 a las 10:00, pbem (<pbem@example.org>) escribió:",
     "> "},
    /* Outlook: no attribution, a header block above the unmarked quote */
    {"________________________________\nFrom: pbem <pbem@example.org>\n"
     "Sent: Wednesday, November 25, 2026 10:00\nTo: you\n"
     "Subject: your turn\n",
     ""},
};

/* The body of an answer: the command, then the mail answered quoted the
 * way mail programs do (each answer the next program's way), for the
 * service to leave out. */
static char *reply_body(const char *text, const json_t *original)
{
    static unsigned turn;
    size_t shape = turn++ % (sizeof shapes / sizeof *shapes);
    char *body = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&body, &size);
    fprintf(out, "%s\n\n%s\n", text, shapes[shape].attribution);
    const char *quoted = mail_text(original);
    for (const char *line = quoted; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        fprintf(out, "%s%.*s\n", shapes[shape].mark, (int)n, line);
        line += n + (end != NULL);
    }
    fclose(out);
    return body;
}

json_t *mail_table_answer(mail_table *t, int p, const char *text)
{
    mail_table_wait(t, p);
    mail_person *person = &t->people[p];
    const json_t *latest = person->latest;
    char in_reply_to[256], id[128] = "";
    bare_id(json_string_value(json_object_get(latest, "message_id")),
            in_reply_to, sizeof in_reply_to);
    char subject[300];
    const char *was = json_string_value(json_object_get(latest, "subject"));
    snprintf(subject, sizeof subject, "Re: %s", was ? was : "");
    char *body = reply_body(text, latest);
    char *raw = mail_scene_compose(person->address, mail_reply_to(latest), subject,
                             in_reply_to, NULL, body, id);
    free(body);
    person->answered = true;
    /* The answer comes after the mail is handed in: the mails before it
     * need not be looked at again. */
    size_t from = t->cursor;
    cr_assert_eq(mail_hand_in(t->scene, raw), 0,
                 "pbem mail-in refused %s's mail", person->address);
    free(raw);
    if (t->hurried) {
        if (t->sent == NULL)
            t->sent = json_array();
        json_array_append_new(t->sent, json_pack("{s:i,s:s,s:s}", "person", p,
                                                 "id", id, "text", text));
        mail_table_read(t);
        return NULL;
    }
    /* The service's answer is threaded under the mail sent. */
    double until = receiver_now() + MAIL_WAIT_SECONDS;
    const json_t *mail;
    for (size_t i = from;
         (mail = receiver_await(&t->scene->smtp, i, until)) != NULL; i++) {
        char answered[256];
        bare_id(json_string_value(json_object_get(mail, "in_reply_to")),
                answered, sizeof answered);
        if (strcmp(answered, id) == 0) {
            json_t *answer = json_incref((json_t *)mail);
            mail_table_read(t);
            return answer;
        }
    }
    cr_assert_fail("waited %d s for the answer to %s's mail \"%s\" (an "
                   "In-Reply-To of <%s>); none came among the %zu mails "
                   "after it",
                   MAIL_WAIT_SECONDS, person->address, text, id,
                   receiver_count(&t->scene->smtp) - from);
    return NULL;
}

/* The first match id an answer names. */
static void match_named(const char *text, char out[32])
{
    regex_t re;
    regmatch_t m[2];
    cr_assert_eq(regcomp(&re, "Match (m_[0-9]+)", REG_EXTENDED), 0);
    cr_assert_eq(regexec(&re, text, 2, m, 0), 0, "no match id in:\n%s", text);
    snprintf(out, 32, "%.*s", (int)(m[1].rm_eo - m[1].rm_so),
             text + m[1].rm_so);
    regfree(&re);
}

static const char *const names[] = {"Alice", "Bob", "Carol", "Dave", "Erin"};

void mail_table_sit_down(mail_table *t, mail_scene *scene, const char *game,
                         int seats, const char *options)
{
    mail_table_sit_down_saying(t, scene, game, seats, options, NULL);
}

void mail_table_sit_down_saying(mail_table *t, mail_scene *scene,
                                const char *game, int seats,
                                const char *options,
                                const char *const *joins)
{
    memset(t, 0, sizeof *t);
    t->scene = scene;
    t->seats = seats;
    t->cursor = mail_count(scene);
    for (int p = 0; p < seats; p++) {
        snprintf(t->people[p].name, sizeof t->people[p].name, "%s", names[p]);
        snprintf(t->people[p].address, sizeof t->people[p].address,
                 "%s@example.org", names[p]);
        for (char *c = t->people[p].address; *c != '@'; c++)
            *c = (char)(*c | 0x20);
    }
    /* Alice writes to the bare address; she confirms her address first. */
    char command[256], id[128] = "";
    snprintf(command, sizeof command, "new %s seats=%d %s", game, seats,
             options ? options : "");
    char *raw = mail_scene_compose("Alice <alice@example.org>", "pbem@example.org",
                             "a new match", NULL, NULL, command, id);
    cr_assert_eq(mail_hand_in(scene, raw), 0);
    free(raw);
    mail_table_wait(t, 0);
    cr_assert(mail_says(t->people[0].latest, "To go ahead, answer "
                                                      "this mail"),
              "not a confirmation request:\n%s",
              mail_text(t->people[0].latest));
    json_t *answer = mail_table_answer(t, 0, "yes");
    const char *text = mail_text(answer);
    cr_assert(strstr(text, "is open and you have seat 0") != NULL, "%s", text);
    match_named(text, t->match);
    json_decref(answer);
    for (int p = 1; p < seats; p++) {
        snprintf(command, sizeof command, "invite %s %s",
                 t->people[p].address, t->people[p].name);
        answer = mail_table_answer(t, 0, command);
        cr_assert(mail_says(answer, "Invited"), "%s",
                  mail_text(answer));
        json_decref(answer);
        mail_table_wait(t, p);
        cr_assert(mail_says(t->people[p].latest, "join"),
                  "the invitation does not say how to join:\n%s",
                  mail_text(t->people[p].latest));
        answer = mail_table_answer(t, p,
                                   joins && joins[p] ? joins[p] : "join");
        cr_assert(mail_says(answer, "You have seat"), "%s",
                  mail_text(answer));
        json_decref(answer);
    }
}

/* The seats the match waits for, from its public description (one of them
 * picked into *seat, -1 when none; the description in *match, when not
 * NULL, for the caller to free); false once it is over. */
static bool waiting(mail_table *t, int *seat, json_t **match)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const char *status = json_string_value(json_object_get(r.json, "status"));
    bool going = strcmp(status, "active") == 0;
    const json_t *seats =
        json_object_get(json_object_get(r.json, "pending"), "seats");
    *seat = -1;
    if (going && json_array_size(seats) > 0) {
        size_t pick = (size_t)rand() % json_array_size(seats);
        *seat = (int)json_integer_value(json_array_get(seats, pick));
    }
    if (match != NULL)
        *match = json_incref(r.json);
    e2e_response_free(&r);
    return going;
}

/* The event a match described by GET /v1/matches/{id} stands at. */
static long long head_of(const json_t *match)
{
    return json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
}

/* Mails in a row that may leave the match where it was (a view, a move
 * refused as stale) before the players are stuck: someone the match waits
 * for is offered nothing they can do, and answers again and again. */
#define STUCK_MAILS 40

/* Fails the test when the match has stood still through STUCK_MAILS mails,
 * saying what the last person was offered and what they answered. */
static void expect_moving_on(const mail_table *t, const json_t *match,
                             long long *head, int *still, int seat,
                             const char *sent)
{
    long long now = head_of(match);
    if (now != *head) {
        *head = now;
        *still = 0;
        return;
    }
    if (++*still < STUCK_MAILS)
        return;
    const json_t *latest = t->people[seat].latest;
    char *pending = json_dumps(json_object_get(match, "pending"), JSON_COMPACT);
    /* A hurried table lists what it sent: the last few, oldest first. */
    char before[512] = "";
    size_t count = json_array_size(t->sent), used = 0;
    for (size_t i = count > 8 ? count - 8 : 0; i < count; i++) {
        const json_t *one = json_array_get(t->sent, i);
        int n = snprintf(
            before + used, sizeof before - used, "%sseat %lld \"%s\"",
            used ? ", " : "; the last mails sent: ",
            (long long)json_integer_value(json_object_get(one, "person")),
            json_string_value(json_object_get(one, "text")));
        if (n < 0 || (size_t)n >= sizeof before - used)
            break;
        used += (size_t)n;
    }
    cr_assert_fail("the match stood at event %lld through %d mails: the "
                   "last went to seat %d, who answered \"%s\"%s; the match "
                   "waits for %s; their latest mail, \"%s\", read:\n%s",
                   now, *still, seat, sent, before, pending ? pending : "?",
                   json_string_value(json_object_get(latest, "subject")),
                   mail_text(latest));
    free(pending);
}

/* How long the service may take to reveal sealed choices once all are
 * in, on a busy machine. */
#define REVEAL_WAIT_SECONDS 60

void mail_table_play_to_the_end(mail_table *t, int max_moves)
{
    int seat;
    int sent = 0, still = 0;
    long long head = -1;
    double reveal_since = -1;
    json_t *match = NULL;
    while (waiting(t, &seat, &match)) {
        if (seat < 0) {
            /* Sealed choices being revealed: the service does it. These
             * looks are no mails, so they have a bound in time. */
            double now = receiver_now();
            if (reveal_since < 0)
                reveal_since = now;
            cr_assert_lt(now - reveal_since, REVEAL_WAIT_SECONDS,
                         "the sealed choices, all in, were not revealed "
                         "within %d s",
                         REVEAL_WAIT_SECONDS);
            pause_ms(50);
            json_decref(match);
            match = NULL;
            continue;
        }
        reveal_since = -1;
        /* Seat s is person s: they joined in that order. */
        mail_table_wait(t, seat);
        /* A long match still moves on: where it stands tells a match
         * without end from one that is merely long. */
        cr_assert_lt(sent++, max_moves,
                     "no end after %d mails: the match is at event %lld, "
                     "and seat %d's latest mail reads:\n%s",
                     max_moves, head_of(match), seat,
                     mail_text(t->people[seat].latest));
        json_t *moves = mail_offered_moves(t->people[seat].latest);
        json_t *answer;
        const char *move = NULL;
        if (json_array_size(moves) == 0) {
            move = "view";
            answer = mail_table_answer(t, seat, move);
        } else {
            for (size_t i = 0; t->prefer != NULL && i < json_array_size(moves);
                 i++)
                if (strcmp(json_string_value(json_array_get(moves, i)),
                           t->prefer) == 0)
                    move = t->prefer;
            if (move == NULL)
                move = json_string_value(json_array_get(
                    moves, (size_t)rand() % json_array_size(moves)));
            answer = mail_table_answer(t, seat, move);
            const char *text = answer ? mail_text(answer) : "";
            if (strstr(text, "Refused:") != NULL)
                t->refused++;
            else
                t->moves++;
        }
        expect_moving_on(t, match, &head, &still, seat, move);
        json_decref(match);
        match = NULL;
        json_decref(moves);
        json_decref(answer);
    }
    json_decref(match);
}

void mail_table_free(mail_table *t)
{
    for (int p = 0; p < MAIL_PEOPLE_MAX; p++)
        json_decref(t->people[p].latest);
    json_decref(t->sent);
}
