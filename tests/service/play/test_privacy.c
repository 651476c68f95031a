/* What a match played by mail shows to anyone: every public route and
 * stream of the match names its players and their moves, never their mail
 * addresses; a mailed move names its sender by a pseudonym. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../client/client_stream.h"
#include "../mailin/mail_people.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};

/* The seat the match waits for (the first pending one), -1 when none. */
static int pending_seat(mail_table *t)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *seats =
        json_object_get(json_object_get(r.json, "pending"), "seats");
    int seat = json_array_size(seats) > 0
                   ? (int)json_integer_value(json_array_get(seats, 0))
                   : -1;
    e2e_response_free(&r);
    return seat;
}

/* Plays count moves by mail, each the first the service offered. */
static void play_by_mail(mail_table *t, int count)
{
    for (int sent = 0; t->moves < count; sent++) {
        cr_assert_lt(sent, 4 * count, "only %d of %d moves were accepted",
                     t->moves, count);
        int seat = pending_seat(t);
        cr_assert_geq(seat, 0, "the match waits for nobody");
        mail_table_wait(t, seat);
        json_t *moves = mail_offered_moves(t->people[seat].latest);
        cr_assert_gt(json_array_size(moves), 0, "no move offered:\n%s",
                     mail_text(t->people[seat].latest));
        json_t *answer = mail_table_answer(
            t, seat, json_string_value(json_array_get(moves, 0)));
        if (strstr(mail_text(answer), "Refused:") == NULL)
            t->moves++;
        json_decref(answer);
        json_decref(moves);
    }
}

/* body is what route answered: no player's address in it, in any case. */
static void expect_no_address(const mail_table *t, const char *route,
                              const char *body)
{
    for (int p = 0; p < t->seats; p++)
        cr_expect(strcasestr(body, t->people[p].address) == NULL,
                  "%s publishes %s:\n%.2000s", route, t->people[p].address,
                  body);
    cr_expect(strcasestr(body, "@example.org") == NULL,
              "%s publishes a mail address:\n%.2000s", route, body);
}

static e2e_response get(const mail_table *t, const char *format)
{
    char path[160];
    snprintf(path, sizeof path, format, t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "GET %s: %ld %s", path, r.status, r.body);
    expect_no_address(t, path, r.body);
    return r;
}

/* The whole stream of the match up to its head, in the format accept
 * names (NULL: Server-Sent Events). */
static void read_stream(const mail_table *t, long long head, const char *accept)
{
    char base[64], path[96], errbuf[256], header[96], needle[48];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", t->scene->server.port);
    snprintf(path, sizeof path, "/v1/matches/%s/stream?after=0", t->match);
    snprintf(header, sizeof header, "Accept: %s", accept ? accept : "");
    const char *headers[] = {header, NULL};
    client_stream *s = client_stream_open(
        base, path, NULL, accept ? headers : NULL, 15000, errbuf);
    cr_assert_not_null(s, "GET %s: %s", path, errbuf);
    cr_assert_eq(client_stream_status(s), 200);
    if (accept != NULL)
        snprintf(needle, sizeof needle, "\"seq\":%lld", head);
    else
        snprintf(needle, sizeof needle, "id: %lld\n", head);
    cr_assert(client_stream_wait_for(s, needle, 0, 15000),
              "the stream (%s) did not reach event %lld within 15 s",
              accept ? accept : "SSE", head);
    expect_no_address(t, accept ? "the NDJSON stream" : "the SSE stream",
                      client_stream_body(s, NULL));
    client_stream_close(s);
}

Test(privacy, a_match_played_by_mail_publishes_no_address, .timeout = 240)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    play_by_mail(&t, 4);

    e2e_response match = get(&t, "/v1/matches/%s");
    long long head = json_integer_value(
        json_object_get(json_object_get(match.json, "head"), "seq"));
    e2e_response_free(&match);
    e2e_response events = get(&t, "/v1/matches/%s/events?after=0&limit=500");
    /* Each mailed move names its sender by one pseudonym per person. */
    char senders[2][48] = {"", ""};
    int mailed = 0;
    size_t i;
    json_t *event;
    json_array_foreach(json_object_get(events.json, "events"), i, event)
    {
        const json_t *request =
            json_object_get(json_object_get(event, "data"), "request");
        const char *sender =
            json_string_value(json_object_get(request, "sender"));
        json_t *seat = json_object_get(event, "seat");
        if (request == NULL || !json_is_integer(seat) ||
            json_integer_value(seat) > 1)
            continue;
        cr_assert_not_null(sender, "a mailed event names no sender: %s",
                           json_dumps(event, 0));
        cr_expect_eq(strncmp(sender, "s_", 2), 0, "sender %s", sender);
        cr_expect_null(json_object_get(request, "from"));
        cr_expect_null(json_object_get(request, "message_id"));
        char *mine = senders[json_integer_value(seat)];
        if (mine[0] == '\0')
            snprintf(mine, 48, "%s", sender);
        cr_expect_str_eq(sender, mine, "one person, two pseudonyms");
        mailed++;
    }
    cr_expect_geq(mailed, 4, "mailed moves in the log: %d", mailed);
    cr_expect_str_neq(senders[0], senders[1], "two people, one pseudonym");
    e2e_response_free(&events);

    e2e_response verdict = get(&t, "/v1/matches/%s/verify");
    cr_expect(json_is_true(json_object_get(verdict.json, "ok")), "%s",
              verdict.body);
    cr_expect_null(json_object_get(verdict.json, "withheld"),
                   "new moves withhold nothing: %s", verdict.body);
    e2e_response_free(&verdict);

    read_stream(&t, head, NULL);
    read_stream(&t, head, "application/x-ndjson");
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
