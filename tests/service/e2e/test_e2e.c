/* The real pbemd over real sockets against the real PostgreSQL: a complete
 * match played with signed requests, the rejections a player meets on the
 * way, and the hash chain checked from the public log. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../support/e2e.h"
#include "store.h"

#ifndef E2E_GAME
#define E2E_GAME "antiquity_quest"
#endif
#define MAX_MOVES 5000

typedef struct table {
    e2e_server server;
    e2e_player players[4];
    int seats;
    char match[32];
} table;

static void sit_down(table *t, int seats, const char *options)
{
    memset(t, 0, sizeof *t);
    t->seats = seats;
    e2e_start(&t->server);
    static const char *names[] = {"Robert", "Eliza", "Nigel", "Tess"};
    for (int i = 0; i < seats; i++)
        e2e_register(&t->server, names[i], &t->players[i]);
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":%d,\"options\":%s}",
             E2E_GAME, seats, options ? options : "{}");
    e2e_response r = e2e_call(&t->server, "POST", "/v1/matches", body,
                              &t->players[0]);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    json_t *match = json_object_get(r.json, "match");
    snprintf(t->match, sizeof t->match, "%s",
             json_string_value(json_object_get(match, "id")));
    cr_expect_str_eq(json_string_value(json_object_get(match, "status")), "open");
    e2e_response_free(&r);
    for (int i = 1; i < seats; i++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/matches/%s/join", t->match);
        r = e2e_call(&t->server, "POST", path, "{}", &t->players[i]);
        cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
        cr_expect_eq(json_integer_value(json_object_get(r.json, "seat")), i);
        e2e_response_free(&r);
    }
}

static const char *error_code(const e2e_response *r)
{
    const char *code = json_string_value(
        json_object_get(json_object_get(r->json, "error"), "code"));
    return code ? code : "(no error code)";
}

static json_t *get_json(const table *t, const char *suffix,
                        const e2e_player *signer)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/matches/%s%s", t->match, suffix);
    e2e_response r = e2e_call(&t->server, "GET", path, NULL, signer);
    cr_assert_eq(r.status, 200, "GET %s: %ld %s", path, r.status, r.body);
    json_t *value = json_incref(r.json);
    e2e_response_free(&r);
    return value;
}

static int first_pending_seat(const json_t *match)
{
    json_t *seats = json_object_get(json_object_get(match, "pending"), "seats");
    return json_array_size(seats) ? (int)json_integer_value(json_array_get(seats, 0))
                                  : -1;
}

static e2e_response post_move(const table *t, int seat, json_int_t seq,
                              const json_t *action)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t->match);
    json_t *body = json_pack("{s:I,s:O}", "seq", seq, "action", action);
    char *text = json_dumps(body, JSON_COMPACT);
    e2e_response r = e2e_call(&t->server, "POST", path, text, &t->players[seat]);
    free(text);
    json_decref(body);
    return r;
}

/* Plays one random legal move of the pending seat; returns false at the
 * end of the match. */
static bool play_one(table *t)
{
    json_t *match = get_json(t, "", NULL);
    const char *status = json_string_value(json_object_get(match, "status"));
    if (strcmp(status, "finished") == 0) {
        json_decref(match);
        return false;
    }
    int seat = first_pending_seat(match);
    cr_assert_geq(seat, 0, "an active match waits for nobody");
    json_decref(match);
    json_t *view = get_json(t, "/view", &t->players[seat]);
    json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
    cr_assert_gt(json_array_size(moves), 0, "seat %d has no legal move", seat);
    json_int_t seq = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    json_t *action = json_array_get(moves, randombytes_uniform(
                                               (uint32_t)json_array_size(moves)));
    e2e_response r = post_move(t, seat, seq, action);
    cr_assert_eq(r.status, 200, "move %s: %ld %s",
                 json_dumps(action, JSON_COMPACT), r.status, r.body);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "seq")), seq + 1);
    e2e_response_free(&r);
    json_decref(view);
    return true;
}

/* Recomputes every hash of the public log and checks the seed commitment
 * against the seed revealed at the end. */
static void check_public_log(const table *t, bool finished)
{
    json_t *answer = get_json(t, "/events?after=0&limit=500", NULL);
    json_t *events = json_object_get(answer, "events");
    uint8_t prev[32] = {0};
    const char *commitment = NULL, *seed = NULL;
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) {
        cr_assert_eq(json_integer_value(json_object_get(event, "seq")),
                     (json_int_t)i + 1, "gap in the log at %zu", i + 1);
        json_t *body = json_deep_copy(event);
        json_object_del(body, "hash");
        json_object_del(body, "prev_hash");
        char *bytes = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);
        uint8_t hash[32];
        char hex[65];
        store_chain_hash(prev, bytes, hash);
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        cr_assert_str_eq(hex, json_string_value(json_object_get(event, "hash")),
                         "event %zu does not hash to its stored hash", i + 1);
        memcpy(prev, hash, sizeof prev);
        free(bytes);
        json_decref(body);
        json_t *data = json_object_get(event, "data");
        if (json_object_get(data, "seed_commitment"))
            commitment = json_string_value(json_object_get(data, "seed_commitment"));
        if (json_object_get(data, "seed"))
            seed = json_string_value(json_object_get(data, "seed"));
    }
    cr_assert_not_null(commitment, "the first event commits to no seed");
    if (finished) {
        cr_assert_not_null(seed, "the end of the match does not reveal the seed");
        uint8_t seed_bytes[32], digest[32];
        char digest_hex[65];
        size_t len;
        sodium_hex2bin(seed_bytes, 32, seed, 64, NULL, &len, NULL);
        static const char domain[] = "pbem/seed-commitment/v1";
        crypto_generichash_state st;
        crypto_generichash_init(&st, NULL, 0, 32);
        crypto_generichash_update(&st, (const uint8_t *)domain, sizeof domain - 1);
        crypto_generichash_update(&st, seed_bytes, 32);
        crypto_generichash_final(&st, digest, 32);
        sodium_bin2hex(digest_hex, sizeof digest_hex, digest, 32);
        cr_expect_str_eq(digest_hex, commitment,
                         "the revealed seed does not match its commitment");
    } else {
        cr_expect_null(seed, "the seed is public before the end");
    }
    json_decref(answer);
}

Test(e2e, a_whole_match_played_over_http_with_signed_moves, .timeout = 600)
{
    table t;
    sit_down(&t, 3, NULL);
    json_t *match = get_json(&t, "", NULL);
    cr_expect_str_eq(json_string_value(json_object_get(match, "status")),
                     "active");
    json_decref(match);
    int moves = 0;
    while (play_one(&t))
        cr_assert_lt(++moves, MAX_MOVES, "no end after %d moves", moves);
    match = get_json(&t, "", NULL);
    json_t *result = json_object_get(match, "result");
    cr_expect(json_is_true(json_object_get(result, "over")));
    cr_expect_eq(json_array_size(json_object_get(result, "scores")), 3);
    json_decref(match);
    check_public_log(&t, true);
    cr_expect_eq(e2e_stop(&t.server), 0, "pbemd did not stop cleanly");
}

Test(e2e, moves_the_rules_or_the_protocol_forbid_are_refused)
{
    table t;
    sit_down(&t, 2, NULL);
    json_t *match = get_json(&t, "", NULL);
    int seat = first_pending_seat(match);
    int other = 1 - seat;
    json_int_t seq = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    json_t *view = get_json(&t, "/view", &t.players[seat]);
    json_t *action = json_incref(json_array_get(
        json_object_get(json_object_get(view, "legal"), "moves"), 0));
    json_decref(view);

    /* Wrong seat: 409 with a sentence. */
    e2e_response r = post_move(&t, other, seq, action);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(error_code(&r), "not_your_turn");
    e2e_response_free(&r);

    /* Stale seq: 409 naming the head. */
    r = post_move(&t, seat, seq - 1, action);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(r.json, "error"), "head")), seq);
    e2e_response_free(&r);

    /* Illegal move: 422 with the rule in words. */
    json_t *nonsense = json_pack("{s:s}", "type", "conjure_treasure");
    r = post_move(&t, seat, seq, nonsense);
    cr_expect_eq(r.status, 422, "%s", r.body);
    cr_expect_gt(strlen(json_string_value(json_object_get(json_object_get(r.json, "error"), "message"))), 10);
    e2e_response_free(&r);
    json_decref(nonsense);

    /* Bad signature: body changed after signing. */
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t.match);
    json_t *body = json_pack("{s:I,s:O}", "seq", seq, "action", action);
    char *text = json_dumps(body, JSON_COMPACT);
    r = e2e_call_signed(&t.server, "POST", path, text, &t.players[seat],
                        (int64_t)time(NULL), NULL, NULL, true);
    cr_expect_eq(r.status, 401, "%s", r.body);
    e2e_response_free(&r);
    /* Unsigned. */
    r = e2e_call(&t.server, "POST", path, text, NULL);
    cr_expect_eq(r.status, 401, "%s", r.body);
    e2e_response_free(&r);
    /* Signed ten minutes ago. */
    r = e2e_call_signed(&t.server, "POST", path, text, &t.players[seat],
                        (int64_t)time(NULL) - 600, NULL, NULL, false);
    cr_expect_eq(r.status, 401, "%s", r.body);
    e2e_response_free(&r);

    /* Nothing above moved the match. */
    match = get_json(&t, "", NULL);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(match, "head"), "seq")), seq);
    json_decref(match);

    /* A retried request (same nonce) gets the first answer, applied once. */
    e2e_response first = e2e_call_signed(&t.server, "POST", path, text,
                                          &t.players[seat], (int64_t)time(NULL),
                                          "retry-nonce-1", NULL, false);
    cr_assert_eq(first.status, 200, "%s", first.body);
    e2e_response again = e2e_call_signed(&t.server, "POST", path, text,
                                          &t.players[seat], (int64_t)time(NULL),
                                          "retry-nonce-1", NULL, false);
    cr_expect_eq(again.status, 200, "%s", again.body);
    cr_expect(json_equal(first.json, again.json), "the retry got another answer");
    match = get_json(&t, "", NULL);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(match, "head"), "seq")), seq + 1,
                 "the retry was applied twice");
    json_decref(match);
    /* The same nonce for a different request is refused. */
    json_t *other_body = json_pack("{s:I,s:O}", "seq", seq + 1, "action", action);
    char *other_text = json_dumps(other_body, JSON_COMPACT);
    r = e2e_call_signed(&t.server, "POST", path, other_text, &t.players[seat],
                        (int64_t)time(NULL), "retry-nonce-1", NULL, false);
    cr_expect_eq(r.status, 401, "%s", r.body);
    cr_expect_str_eq(error_code(&r), "nonce_reused");
    e2e_response_free(&r);
    free(other_text);
    json_decref(other_body);
    e2e_response_free(&first);
    e2e_response_free(&again);
    free(text);
    json_decref(body);
    json_decref(action);
    check_public_log(&t, false);
    e2e_stop(&t.server);
}

Test(e2e, malformed_and_oversized_requests_get_the_one_error_shape)
{
    table t;
    sit_down(&t, 2, NULL);
    e2e_response r = e2e_call(&t.server, "POST", "/v1/players", "{\"name\":", NULL);
    cr_expect_eq(r.status, 400);
    cr_expect_str_eq(error_code(&r), "bad_json");
    e2e_response_free(&r);
    char *huge = malloc(70000);
    memset(huge, ' ', 69999);
    huge[0] = '{';
    huge[69998] = '}';
    huge[69999] = '\0';
    r = e2e_call(&t.server, "POST", "/v1/players", huge, NULL);
    cr_expect_eq(r.status, 413);
    cr_expect_not_null(json_object_get(r.json, "error"));
    e2e_response_free(&r);
    free(huge);
    r = e2e_call(&t.server, "GET", "/v1/nowhere", NULL, NULL);
    cr_expect_eq(r.status, 404);
    cr_expect_not_null(json_object_get(json_object_get(r.json, "error"), "message"));
    e2e_response_free(&r);
    r = e2e_call(&t.server, "GET", "/v1/matches/m_1", NULL, NULL);
    cr_expect_eq(r.status, 404);
    e2e_response_free(&r);
    r = e2e_call(&t.server, "POST", "/v1/matches", "{\"game\":\"chess\",\"seats\":2}", &t.players[0]);
    cr_expect_eq(r.status, 400);
    e2e_response_free(&r);
    r = e2e_call(&t.server, "POST", "/v1/matches", "{\"game\":\"" E2E_GAME "\",\"seats\":99}", &t.players[0]);
    cr_expect_eq(r.status, 400);
    e2e_response_free(&r);
    r = e2e_call(&t.server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200);
    e2e_response_free(&r);
    r = e2e_call(&t.server, "GET", "/metrics", NULL, NULL);
    cr_expect_eq(r.status, 200);
    cr_expect_not_null(strstr(r.body, "pbem_http_requests_total{route=\"POST /v1/matches\",status=\"201\"} 1"), "%s", r.body);
    cr_expect_not_null(strstr(r.body, "pbem_events_appended_total"));
    e2e_response_free(&r);
    e2e_stop(&t.server);
}

Test(e2e, a_restarted_server_rebuilds_the_match_and_play_goes_on, .timeout = 300)
{
    table t;
    sit_down(&t, 2, NULL);
    for (int i = 0; i < 40 && play_one(&t); i++)
        ;
    json_t *before = get_json(&t, "", NULL);
    cr_expect_eq(e2e_stop(&t.server), 0);
    e2e_start(&t.server); /* same key file, empty cache */
    json_t *after = get_json(&t, "", NULL);
    cr_expect(json_equal(before, after),
              "the rebuilt public view differs from the one before the restart");
    json_decref(before);
    json_decref(after);
    for (int i = 0; i < 10 && play_one(&t); i++)
        ;
    check_public_log(&t, false);
    e2e_stop(&t.server);
}

Test(e2e, a_match_under_another_engine_version_is_not_replayed)
{
    table t;
    sit_down(&t, 2, NULL);
    play_one(&t);
    char sql[200];
    snprintf(sql, sizeof sql,
             "psql -X -q \"$DATABASE_URL\" -c \"UPDATE matches SET engine_version ="
             " engine_version + 100 WHERE match_id = %lld\"",
             store_parse_match_ref(t.match));
    cr_assert_eq(system(sql), 0);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", t.match);
    e2e_response r = e2e_call(&t.server, "GET", path, NULL, &t.players[0]);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(error_code(&r), "engine_version");
    e2e_response_free(&r);
    e2e_stop(&t.server);
}
