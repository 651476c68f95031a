/* Talk at the table through the API, against the real pbemd: three
 * players write to everyone and privately to one seat, and each reads
 * what a person at that seat would expect: the public messages and their
 * own private ones, never another pair's, through the messages, the view,
 * the log and their event stream; spectators read only the public ones,
 * and only once the match is over. Bad messages are refused with a
 * sentence and leave nothing behind. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "client_stream.h"
#include "talk.h"

#define STREAM_WAIT_MS 15000

static e2e_response say(const e2e_table *t, int seat, const char *body)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t->match);
    return e2e_call(&t->server, "POST", path, body, &t->players[seat]);
}

/* GET messages as seat (-1: unsigned); the answer, which must be status. */
static e2e_response read_messages(const e2e_table *t, int seat,
                                  const char *query)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/messages%s", t->match,
             query ? query : "");
    return e2e_call(&t->server, "GET", path, NULL,
                    seat >= 0 ? &t->players[seat] : NULL);
}

/* The texts seat reads, joined by "|" (malloc'd). */
static char *texts_read(const e2e_table *t, int seat)
{
    e2e_response r = read_messages(t, seat, NULL);
    cr_assert_eq(r.status, 200, "seat %d reading: %ld %s", seat, r.status,
                 r.body);
    size_t size = 1;
    char *all = calloc(1, 1);
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(r.json, "messages"), i, m)
    {
        const char *text = json_string_value(json_object_get(m, "text"));
        size += strlen(text) + 1;
        all = realloc(all, size);
        if (i > 0)
            strcat(all, "|");
        strcat(all, text);
    }
    e2e_response_free(&r);
    return all;
}

static void expect_texts(const e2e_table *t, int seat, const char *expected)
{
    char *got = texts_read(t, seat);
    cr_expect_str_eq(got, expected, "seat %d reads \"%s\"", seat, got);
    free(got);
}

static client_stream *player_stream(const e2e_table *t, int seat)
{
    char base[64], errbuf[256];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", t->server.port);
    client_stream *s =
        client_stream_open(base, "/v1/players/me/stream", &t->players[seat].key,
                           NULL, STREAM_WAIT_MS, errbuf);
    cr_assert_not_null(s, "stream of seat %d: %s", seat, errbuf);
    cr_assert_eq(client_stream_status(s), 200);
    return s;
}

/* The item of an SSE body whose data line holds needle, parsed (NULL when
 * none does). Every item read goes to the check against openapi.yaml. */
static json_t *sse_item_with(const char *body, const char *needle)
{
    json_t *found = NULL;
    for (const char *line = strstr(body, "data: "); line != NULL;
         line = strstr(line, "\ndata: ")) {
        if (*line == '\n')
            line++;
        size_t len = strcspn(line, "\n");
        json_t *item = json_loadb(line + 6, len - 6, 0, NULL);
        line += len;
        if (item == NULL)
            continue;
        e2e_record_stream_item(item);
        if (found == NULL && memmem(line - len, len, needle, strlen(needle)))
            found = json_incref(item);
        json_decref(item);
    }
    return found;
}

Test(table, each_seat_reads_the_public_talk_and_its_own_private_talk,
     .timeout = 240)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    /* Carol's stream is open before anyone speaks. */
    client_stream *carol = player_stream(&t, 2);
    client_stream *bob = player_stream(&t, 1);

    talk_say(&t, 0, -1, "Good luck, everyone!");
    talk_say(&t, 0, 1, "Bob, shall we gang up on Carol?");
    talk_say(&t, 1, 0, "Deal, Alice.");
    talk_say(&t, 2, -1, "I see you two whispering");

    expect_texts(&t, 0,
                 "Good luck, everyone!|Bob, shall we gang up on "
                 "Carol?|Deal, Alice.|I see you two whispering");
    expect_texts(&t, 1,
                 "Good luck, everyone!|Bob, shall we gang up on "
                 "Carol?|Deal, Alice.|I see you two whispering");
    expect_texts(&t, 2, "Good luck, everyone!|I see you two whispering");

    /* A message names its writer and whom it is for. */
    e2e_response r = read_messages(&t, 1, "?after=1");
    cr_assert_eq(r.status, 200);
    const json_t *first =
        json_array_get(json_object_get(r.json, "messages"), 0);
    cr_expect_eq(json_integer_value(json_object_get(first, "id")), 2);
    cr_expect_str_eq(json_string_value(json_object_get(first, "from_name")),
                     t.players[0].name);
    cr_expect_eq(json_integer_value(json_object_get(first, "to")), 1);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "last")), 4);
    e2e_response_free(&r);

    /* Carol's stream carries the public talk, the last message included,
     * and nothing of the private one. */
    cr_assert(client_stream_wait_for(carol, "I see you two whispering", 0,
                                     STREAM_WAIT_MS),
              "Carol's stream never carried her own public message");
    const char *seen = client_stream_body(carol, NULL);
    cr_expect_not_null(strstr(seen, "Good luck, everyone!"));
    /* In the shape openapi.yaml gives (MessageStreamItem): the message
     * is the item's data.message, as bots read it. */
    json_t *item = sse_item_with(seen, "Good luck, everyone!");
    cr_assert_not_null(item, "Carol's stream: %s", seen);
    const json_t *data = json_object_get(item, "data");
    cr_expect_str_eq(json_string_value(json_object_get(item, "type")),
                     "match.message");
    cr_expect_not_null(json_string_value(json_object_get(item, "timestamp")));
    cr_expect_str_eq(json_string_value(json_object_get(data, "type")),
                     "match.message");
    cr_expect_not_null(json_string_value(json_object_get(data, "match")));
    cr_expect(json_is_integer(json_object_get(data, "seq")));
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(data, "message"), "text")),
                     "Good luck, everyone!",
                     "the item is not in the documented shape: %s", seen);
    json_decref(item);
    cr_expect_null(strstr(seen, "gang up"), "Carol's stream: %s", seen);
    cr_expect_null(strstr(seen, "Deal, Alice"));
    cr_assert(client_stream_wait_for(bob, "Deal, Alice.", 0, STREAM_WAIT_MS),
              "Bob's stream never carried his own private message");
    cr_expect_not_null(strstr(client_stream_body(bob, NULL), "gang up"));

    /* Nor Carol's view, nor the public log. */
    json_t *view = e2e_get(&t, "/view", &t.players[2]);
    char *text = json_dumps(view, 0);
    cr_expect_null(strstr(text, "gang up"));
    free(text);
    json_decref(view);
    json_t *events = e2e_all_events(&t);
    text = json_dumps(events, 0);
    cr_expect_null(strstr(text, "gang up"));
    cr_expect_null(strstr(text, "Good luck"), "messages are not events");
    free(text);
    json_decref(events);

    /* A spectator reads nothing while the match is played. */
    r = read_messages(&t, -1, NULL);
    cr_expect_eq(r.status, 403, "%s", r.body);
    e2e_response_free(&r);

    client_stream_close(carol);
    client_stream_close(bob);
    e2e_stop(&t.server);
}

Test(table, a_retried_message_is_written_once, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t.match);
    const char *body = "{\"text\":\"Only once, please\"}";
    for (int i = 0; i < 2; i++) {
        e2e_response r =
            e2e_call_signed(&t.server, "POST", path, body, &t.players[0], 0,
                            "retried-message-nonce-01", NULL, false);
        cr_expect_eq(r.status, 201, "try %d: %ld %s", i, r.status, r.body);
        e2e_response_free(&r);
    }
    expect_texts(&t, 1, "Only once, please");
    e2e_stop(&t.server);
}

/* Each refusal, and the sentence's telling part. */
static void refused(const e2e_table *t, int seat, const char *body, long status,
                    const char *code, const char *says)
{
    e2e_response r = say(t, seat, body);
    cr_expect_eq(r.status, status, "%s: %ld %s", body, r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), code, "%s", body);
    const char *message = json_string_value(
        json_object_get(json_object_get(r.json, "error"), "message"));
    cr_expect(message != NULL && strstr(message, says) != NULL,
              "%s: the refusal says \"%s\"", body, message);
    e2e_response_free(&r);
}

Test(table, bad_messages_are_refused_with_a_reason_and_nothing_is_kept,
     .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    refused(&t, 0, "{\"text\":\"\"}", 422, "bad_message", "empty");
    refused(&t, 0, "{\"text\":\"  \\n\\t \"}", 422, "bad_message", "empty");
    refused(&t, 0, "{}", 400, "bad_message", "\"text\"");
    refused(&t, 0, "{\"text\":42}", 400, "bad_message", "\"text\"");
    refused(&t, 0, "{\"text\":\"ding\\u0007dong\"}", 422, "bad_message",
            "control characters");
    refused(&t, 0, "{\"text\":\"ding\\u009bdong\"}", 422, "bad_message",
            "control characters");
    refused(&t, 0, "{\"text\":\"pay \\u202e001$\"}", 422, "bad_message",
            "bidi");
    refused(&t, 0, "{\"text\":\"a\\u2066b\\u2069\"}", 422, "bad_message",
            "bidi");
    refused(&t, 0, "{\"text\":\"hi\",\"to\":7}", 422, "no_such_seat",
            "seats are 0 to 2");
    refused(&t, 0, "{\"text\":\"hi\",\"to\":-1}", 422, "no_such_seat",
            "seats are 0 to 2");
    refused(&t, 0, "{\"text\":\"hi\",\"to\":0}", 422, "no_such_seat",
            "your own seat");
    refused(&t, 0, "{\"text\":\"hi\",\"to\":\"1\"}", 400, "bad_message",
            "seat number");

    /* 1,000 characters is the most: counted in characters, not bytes. */
    char body[4200];
    strcpy(body, "{\"text\":\"");
    for (int i = 0; i < 1001; i++)
        strcat(body, "\xc3\xa9");
    strcat(body, "\"}");
    refused(&t, 0, body, 422, "bad_message", "1000 characters");

    /* A spectator may not write. */
    e2e_player dave;
    e2e_register(&t.server, "Dave", &dave);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t.match);
    e2e_response r =
        e2e_call(&t.server, "POST", path, "{\"text\":\"hi all\"}", &dave);
    cr_expect_eq(r.status, 403, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "not_seated");
    e2e_response_free(&r);
    r = e2e_call(&t.server, "GET", path, NULL, &dave);
    cr_expect_eq(r.status, 403, "a spectator reads in play: %s", r.body);
    e2e_response_free(&r);

    /* Nothing of it was kept. */
    expect_texts(&t, 0, "");
    expect_texts(&t, 1, "");

    /* And the longest message is taken, trimmed at both ends. */
    strcpy(body, "{\"text\":\"  ");
    for (int i = 0; i < 1000; i++)
        strcat(body, "\xc3\xa9");
    strcat(body, "\\n\"}");
    r = say(&t, 0, body);
    cr_expect_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    char *got = texts_read(&t, 1);
    cr_expect_eq(strlen(got), 2000, "1000 é, trimmed");
    free(got);
    e2e_stop(&t.server);
}

Test(table, a_seat_writes_at_most_the_hours_allowance, .timeout = 120)
{
    setenv("PBEM_MESSAGES_PER_HOUR", "3", 1);
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    unsetenv("PBEM_MESSAGES_PER_HOUR");
    talk_say(&t, 0, -1, "one");
    talk_say(&t, 0, 1, "two");
    talk_say(&t, 0, -1, "three");
    e2e_response r = say(&t, 0, "{\"text\":\"four\"}");
    cr_expect_eq(r.status, 429, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "too_many_messages");
    cr_expect_not_null(r.body && strstr(r.body, "minutes"), "%s", r.body);
    e2e_response_free(&r);
    /* Each seat has its own allowance. */
    talk_say(&t, 1, -1, "Bob's first");
    expect_texts(&t, 0, "one|two|three|Bob's first");
    e2e_stop(&t.server);
}

Test(table, a_player_mutes_another_and_reads_nothing_of_theirs, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    char path[80];
    snprintf(path, sizeof path, "/v1/matches/%s/mutes/0", t.match);
    e2e_response r = e2e_call(&t.server, "PUT", path, NULL, &t.players[2]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(json_is_true(json_object_get(r.json, "muted")));
    e2e_response_free(&r);
    client_stream *carol = player_stream(&t, 2);

    talk_say(&t, 0, -1, "Carol, you are slow");
    talk_say(&t, 1, -1, "Be nice, Alice");
    expect_texts(&t, 2, "Be nice, Alice");
    expect_texts(&t, 1, "Carol, you are slow|Be nice, Alice");
    cr_assert(
        client_stream_wait_for(carol, "Be nice, Alice", 0, STREAM_WAIT_MS));
    cr_expect_null(strstr(client_stream_body(carol, NULL), "you are slow"));
    client_stream_close(carol);

    /* One's own seat cannot be muted, nor an empty one. */
    snprintf(path, sizeof path, "/v1/matches/%s/mutes/2", t.match);
    r = e2e_call(&t.server, "PUT", path, NULL, &t.players[2]);
    cr_expect_eq(r.status, 422, "%s", r.body);
    e2e_response_free(&r);

    snprintf(path, sizeof path, "/v1/matches/%s/mutes/0", t.match);
    r = e2e_call(&t.server, "DELETE", path, NULL, &t.players[2]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    expect_texts(&t, 2, "Carol, you are slow|Be nice, Alice");
    e2e_stop(&t.server);
}

Test(table, once_over_the_public_talk_is_for_everyone_and_the_table_closes,
     .timeout = 300)
{
    e2e_table t;
    e2e_sit_down(&t, "artifact_stack", 2, NULL);
    talk_say(&t, 0, -1, "Good game so far");
    talk_say(&t, 1, 0, "Robert, a secret");
    e2e_response at = read_messages(&t, 0, NULL);
    cr_assert_eq(at.status, 200);
    long long written_at = (long long)json_integer_value(json_object_get(
        json_array_get(json_object_get(at.json, "messages"), 0), "seq"));
    e2e_response_free(&at);
    int moves = 0;
    while (e2e_play_one(&t))
        cr_assert_lt(++moves, 3000, "no end after %d moves", moves);

    /* Anyone reads the public talk now, unsigned; never the private. */
    e2e_response r = read_messages(&t, -1, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(json_array_size(json_object_get(r.json, "messages")), 1);
    cr_expect_null(strstr(r.body, "a secret"));
    e2e_response_free(&r);
    expect_texts(&t, 0, "Good game so far|Robert, a secret");

    /* So does its export for anyone: the whole public log and the public
     * talk, no seat's view. */
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/export", t.match);
    r = e2e_call(&t.server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *said = json_object_get(r.json, "messages");
    cr_expect_eq(json_array_size(said), 1, "%s", r.body);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(said, 0), "text")),
        "Good game so far");
    cr_expect_null(strstr(r.body, "a secret"), "%s", r.body);
    cr_expect(json_is_null(json_object_get(r.json, "seat")));
    cr_expect_null(json_object_get(r.json, "view"));
    json_t *events = e2e_all_events(&t);
    cr_expect(json_equal(json_object_get(r.json, "events"), events));
    json_decref(events);
    /* Kept as a file, it verifies on its own: chain, seed, replay. */
    char file[256], command[600];
    snprintf(file, sizeof file, "%s/export-%s.json",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", t.match);
    FILE *out = fopen(file, "w");
    cr_assert_not_null(out);
    fputs(r.body, out);
    fclose(out);
    snprintf(command, sizeof command, "'%s' verify --file '%s' >/dev/null",
             getenv("PBEM_CLI"), file);
    cr_expect_eq(system(command), 0, "pbem verify --file on the export");
    remove(file);
    e2e_response_free(&r);

    /* The replay shows the public talk at the step it was written. */
    char query[64];
    snprintf(query, sizeof query, "/replay?seq=%lld", written_at);
    json_t *step = e2e_get(&t, query, NULL);
    const json_t *talk = json_object_get(step, "messages");
    cr_expect_eq(json_array_size(talk), 1);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(talk, 0), "text")),
        "Good game so far");
    json_decref(step);
    snprintf(query, sizeof query, "/replay?seq=%lld", written_at + 1);
    step = e2e_get(&t, query, NULL);
    cr_expect_eq(json_array_size(json_object_get(step, "messages")), 0);
    json_decref(step);

    r = say(&t, 0, "{\"text\":\"gg\"}");
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "match_over");
    e2e_response_free(&r);
    expect_texts(&t, 1, "Good game so far|Robert, a secret");
    e2e_stop(&t.server);
}

Test(table, an_aborted_match_closes_its_table_too, .timeout = 120)
{
    e2e_player admin;
    e2e_admin_key(&admin);
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    talk_say(&t, 0, -1, "Shall we stop?");
    talk_say(&t, 1, 2, "Carol, stop now");
    char path[96];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/abort", t.match);
    e2e_response r = e2e_call(&t.server, "POST", path,
                              "{\"reason\":\"the players stopped\"}", &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    r = read_messages(&t, -1, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(json_array_size(json_object_get(r.json, "messages")), 1);
    cr_expect_null(strstr(r.body, "stop now"));
    e2e_response_free(&r);
    r = say(&t, 2, "{\"text\":\"bye\"}");
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "match_over");
    e2e_response_free(&r);
    e2e_stop(&t.server);
}
