/* A bot whose delegated key covers some matches only cannot open its
 * player's stream: it reads the talk of a granted match with GET
 * /v1/matches/{id}/messages, or on that match's stream signed, and reads
 * there what its player may read, no more. It still writes nothing: a
 * message is the player's own word. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../support/e2e.h"
#include "client_stream.h"
#include "talk.h"

/* Seat 0's player grants key the scope (JSON text) in t's match alone. */
static void grant(const e2e_table *t, const client_key *key, const char *scope)
{
    char public_key[64], expires[32], body[512];
    sodium_bin2base64(public_key, sizeof public_key, key->public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    time_t later = time(NULL) + 86400;
    struct tm tm;
    gmtime_r(&later, &tm);
    strftime(expires, sizeof expires, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(body, sizeof body,
             "{\"public_key\":\"%s\",\"name\":\"Talk bot\",\"scope\":%s,"
             "\"matches\":[\"%s\"],\"expires\":\"%s\"}",
             public_key, scope, t->match, expires);
    e2e_response r = e2e_call(&t->server, "POST", "/v1/players/me/delegates",
                              body, &t->players[0]);
    cr_assert_eq(r.status, 201, "grant: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

static e2e_response as_bot(const e2e_table *t, const client_key *key,
                           const char *method, const char *body)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t->match);
    client_send_options options = {.on_behalf_of = t->players[0].id};
    return e2e_call_with(&t->server, method, path, body, key, &options);
}

Test(bot_reads, a_bot_granted_one_match_reads_what_its_player_may,
     .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 3, NULL);
    talk_say(&t, 1, -1, "Hello, table");
    talk_say(&t, 1, 0, "Only for seat zero");
    talk_say(&t, 1, 2, "Only for seat two");
    client_key viewer, mover;
    client_new_key(&viewer);
    client_new_key(&mover);
    grant(&t, &viewer, "[\"view\"]");
    grant(&t, &mover, "[\"move\"]");

    e2e_response r = as_bot(&t, &viewer, "GET", NULL);
    cr_assert_eq(r.status, 200, "the bot reading: %ld %s", r.status, r.body);
    cr_expect(strstr(r.body, "Hello, table") != NULL, "%s", r.body);
    cr_expect(strstr(r.body, "Only for seat zero") != NULL, "%s", r.body);
    cr_expect(strstr(r.body, "Only for seat two") == NULL,
              "the bot reads another pair's private talk: %s", r.body);
    e2e_response_free(&r);

    /* The match's stream, signed by the bot for its player, carries the
     * same talk. */
    talk_say(&t, 1, -1, "Last word");
    char base[64], stream_path[80], errbuf[256];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", t.server.port);
    snprintf(stream_path, sizeof stream_path, "/v1/matches/%s/stream", t.match);
    client_stream *s = client_stream_open_for(
        base, stream_path, &viewer, t.players[0].id, NULL, 15000, errbuf);
    cr_assert_not_null(s, "%s", errbuf);
    cr_assert_eq(client_stream_status(s), 200, "%s",
                 client_stream_body(s, NULL));
    cr_assert(client_stream_wait_for(s, "Last word", 0, 15000),
              "the bot's match stream never carried the talk: %s",
              client_stream_body(s, NULL));
    const char *seen = client_stream_body(s, NULL);
    cr_expect(strstr(seen, "Only for seat zero") != NULL, "%s", seen);
    cr_expect(strstr(seen, "Only for seat two") == NULL,
              "the bot's stream carries another pair's talk: %s", seen);
    client_stream_close(s);

    /* And so does the match's export the bot takes for its player. */
    char export_path[80];
    snprintf(export_path, sizeof export_path, "/v1/matches/%s/export", t.match);
    client_send_options options = {.on_behalf_of = t.players[0].id};
    r = e2e_call_with(&t.server, "GET", export_path, NULL, &viewer, &options);
    cr_assert_eq(r.status, 200, "the bot's export: %ld %s", r.status, r.body);
    cr_expect(strstr(r.body, "Only for seat zero") != NULL, "%s", r.body);
    cr_expect(strstr(r.body, "Only for seat two") == NULL,
              "the bot's export holds another pair's talk: %s", r.body);
    e2e_response_free(&r);

    /* Reading needs the view scope, and writing stays the player's. */
    r = as_bot(&t, &mover, "GET", NULL);
    cr_expect_eq(r.status, 403, "a move-only grant reads: %ld %s", r.status,
                 r.body);
    cr_expect_str_eq(e2e_error_code(&r), "delegate_scope");
    e2e_response_free(&r);
    r = as_bot(&t, &viewer, "POST", "{\"text\":\"Written by a bot\"}");
    cr_expect_eq(r.status, 403, "a bot wrote: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t.match);
    r = e2e_call(&t.server, "GET", path, NULL, &t.players[1]);
    cr_expect(strstr(r.body, "Written by a bot") == NULL, "%s", r.body);
    e2e_response_free(&r);
    e2e_stop(&t.server);
}
