/* The match's own stream and the talk: opened unsigned it is the public
 * log and nothing else, whoever watches; signed by a seat's player it
 * also carries what that seat may read at the table, in its place among
 * the events, and resumes where it stood in both. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../support/e2e.h"
#include "client_stream.h"
#include "talk.h"

#define STREAM_WAIT_MS 15000

/* The match stream of t, signed by seat's player (seat -1: unsigned),
 * with query (NULL: none) and extra headers (NULL: none). */
static client_stream *match_stream(const e2e_table *t, int seat,
                                   const char *query,
                                   const char *const *headers)
{
    char base[64], path[96], errbuf[256];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", t->server.port);
    snprintf(path, sizeof path, "/v1/matches/%s/stream%s", t->match,
             query ? query : "");
    client_stream *s =
        client_stream_open(base, path, seat >= 0 ? &t->players[seat].key : NULL,
                           headers, STREAM_WAIT_MS, errbuf);
    cr_assert_not_null(s, "match stream of seat %d: %s", seat, errbuf);
    cr_assert_eq(client_stream_status(s), 200, "seat %d: %ld %s", seat,
                 client_stream_status(s), client_stream_body(s, NULL));
    return s;
}

Test(match_stream, a_seat_follows_its_talk_there_and_nobody_else_does,
     .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    client_stream *bob = match_stream(&t, 1, NULL, NULL);
    client_stream *carol = match_stream(&t, 2, NULL, NULL);
    client_stream *anyone = match_stream(&t, -1, NULL, NULL);
    long long head = e2e_head_seq(&t);
    /* Carol reads nothing of Alice's: she muted her. */
    char mute[80];
    snprintf(mute, sizeof mute, "/v1/matches/%s/mutes/0", t.match);
    e2e_response r = e2e_call(&t.server, "PUT", mute, NULL, &t.players[2]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);

    talk_say(&t, 0, -1, "Hello, table");
    talk_say(&t, 0, 1, "Bob, a secret plan");
    talk_say(&t, 1, -1, "Bob is here too");

    /* Bob reads both, in order, each with its place in the log and in
     * the talk as its id. */
    char id[48];
    snprintf(id, sizeof id, "id: %lld:2\n", head);
    cr_assert(client_stream_wait_for(bob, id, 0, STREAM_WAIT_MS),
              "Bob's match stream never carried message 2: %s",
              client_stream_body(bob, NULL));
    const char *seen = client_stream_body(bob, NULL);
    const char *hello = strstr(seen, "Hello, table");
    const char *secret = strstr(seen, "Bob, a secret plan");
    cr_expect(hello != NULL && secret != NULL && hello < secret, "%s", seen);
    cr_expect_not_null(strstr(seen, "\"type\":\"match.message\""));

    /* A move after the talk: once the others' streams show it, they have
     * shown all that came before it. */
    cr_assert(e2e_play_one(&t));
    char next[32];
    snprintf(next, sizeof next, "\"seq\":%lld,", head + 1);
    cr_assert(client_stream_wait_for(carol, next, 0, STREAM_WAIT_MS),
              "Carol's match stream never carried event %lld", head + 1);
    cr_assert(client_stream_wait_for(anyone, next, 0, STREAM_WAIT_MS),
              "the unsigned match stream never carried event %lld", head + 1);
    seen = client_stream_body(carol, NULL);
    cr_expect_not_null(strstr(seen, "Bob is here too"), "%s", seen);
    cr_expect_null(strstr(seen, "Hello, table"),
                   "Carol's match stream carries the player she muted: %s",
                   seen);
    cr_expect_null(strstr(seen, "secret plan"),
                   "Carol's match stream carries Bob's private message: %s",
                   seen);
    seen = client_stream_body(anyone, NULL);
    cr_expect_null(strstr(seen, "Hello, table"),
                   "an unsigned match stream carries talk in play: %s", seen);
    cr_expect_null(strstr(seen, "secret plan"), "%s", seen);
    cr_expect_null(strstr(seen, "match.message"), "%s", seen);

    /* Resumed after the first message (here as NDJSON, with ?after=),
     * Bob's stream carries the second, not the first again, then the
     * move. */
    char query[48];
    snprintf(query, sizeof query, "?after=%lld:1", head);
    const char *ndjson[] = {"Accept: application/x-ndjson", NULL};
    client_stream *again = match_stream(&t, 1, query, ndjson);
    cr_assert(client_stream_wait_for(again, next, 0, STREAM_WAIT_MS),
              "Bob's resumed stream never carried event %lld: %s", head + 1,
              client_stream_body(again, NULL));
    seen = client_stream_body(again, NULL);
    secret = strstr(seen, "Bob, a secret plan");
    cr_expect(secret != NULL && secret < strstr(seen, next), "%s", seen);
    cr_expect_null(strstr(seen, "Hello, table"), "resumed, again: %s", seen);
    cr_expect(strncmp(seen, "{\"data\":{", 9) == 0 &&
                  strstr(seen, "\ndata: ") == NULL,
              "not NDJSON: %s", seen);

    client_stream_close(again);
    client_stream_close(bob);
    client_stream_close(carol);
    client_stream_close(anyone);
    e2e_stop(&t.server);
}

/* An admin seats another player at Bob's seat: Bob's stream, still open,
 * reads no more of that seat's talk; the one now seated does. */
Test(match_stream, a_player_unseated_by_an_admin_reads_no_more_talk,
     .timeout = 120)
{
    e2e_player admin, dave;
    e2e_admin_key(&admin);
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    client_stream *bob = match_stream(&t, 1, NULL, NULL);
    talk_say(&t, 0, 1, "Bob, before the change");
    e2e_register(&t.server, "Dave", &dave);
    char path[96], body[160];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/seats/1/replace",
             t.match);
    snprintf(body, sizeof body, "{\"player\":\"%s\",\"reason\":\"Bob left\"}",
             dave.id);
    e2e_response r = e2e_call(&t.server, "POST", path, body, &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    t.players[1] = dave;
    talk_say(&t, 0, 1, "Dave, welcome to seat one");
    talk_say(&t, 0, -1, "Welcome, Dave");

    client_stream *now = match_stream(&t, 1, NULL, NULL);
    cr_assert(client_stream_wait_for(now, "Welcome, Dave", 0, STREAM_WAIT_MS),
              "%s", client_stream_body(now, NULL));
    cr_expect_not_null(
        strstr(client_stream_body(now, NULL), "welcome to seat one"));
    /* A move after the talk: once Bob's stream shows it, it has shown
     * all it would of what came before. */
    long long head = e2e_head_seq(&t);
    cr_assert(e2e_play_one(&t));
    char next[32];
    snprintf(next, sizeof next, "\"seq\":%lld,", head + 1);
    cr_assert(client_stream_wait_for(bob, next, 0, STREAM_WAIT_MS),
              "Bob's stream never carried event %lld", head + 1);
    const char *seen = client_stream_body(bob, NULL);
    cr_expect_not_null(strstr(seen, "before the change"), "%s", seen);
    cr_expect_null(strstr(seen, "welcome to seat one"),
                   "Bob, unseated, reads the seat's private talk: %s", seen);
    cr_expect_null(strstr(seen, "Welcome, Dave"), "%s", seen);
    client_stream_close(now);
    client_stream_close(bob);
    e2e_stop(&t.server);
}
