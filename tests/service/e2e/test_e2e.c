/* The real pbemd over real sockets against the real PostgreSQL: a complete
 * match played with signed requests, the rejections a player meets on the
 * way, and the hash chain checked from the public log. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "store/store.h"

#ifndef E2E_GAME
#define E2E_GAME "antiquity_quest"
#endif
#define MAX_MOVES 5000

/* Recomputes every hash of the public log and checks the seed commitment
 * against the seed revealed at the end. */
static void check_public_log(const e2e_table *t, bool finished)
{
    json_t *events = e2e_all_events(t);
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
        /* The told sentence is not recorded (openapi.yaml, Event). */
        json_object_del(body, "text");
        char *bytes = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);
        uint8_t hash[32];
        char hex[65];
        chain_hash(prev, bytes, hash);
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
    json_decref(events);
}

Test(e2e, a_whole_match_played_over_http_with_signed_moves, .timeout = 600)
{
    e2e_table t;
    e2e_sit_down(&t, E2E_GAME, 3, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    cr_expect_str_eq(json_string_value(json_object_get(match, "status")),
                     "active");
    json_decref(match);
    int moves = 0;
    while (e2e_play_one(&t))
        cr_assert_lt(++moves, MAX_MOVES, "no end after %d moves", moves);
    match = e2e_get(&t, "", NULL);
    json_t *result = json_object_get(match, "result");
    cr_expect(json_is_true(json_object_get(result, "over")));
    cr_expect_eq(json_array_size(json_object_get(result, "scores")), 3);
    json_decref(match);
    check_public_log(&t, true);
    cr_expect_eq(e2e_stop(&t.server), 0, "pbemd did not stop cleanly");
}

static json_int_t head_of(const json_t *match)
{
    return json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
}

/* The first move the seat that must act is offered now (new reference),
 * with that seat and the head it was offered at. */
static json_t *first_legal_move(const e2e_table *t, int *seat, json_int_t *seq)
{
    json_t *match = e2e_get(t, "", NULL);
    *seat = e2e_first_pending_seat(match);
    *seq = head_of(match);
    json_decref(match);
    json_t *view = e2e_get(t, "/view", &t->players[*seat]);
    json_t *action = json_incref(json_array_get(
        json_object_get(json_object_get(view, "legal"), "moves"), 0));
    json_decref(view);
    return action;
}

Test(e2e, moves_the_rules_or_the_protocol_forbid_are_refused)
{
    e2e_table t;
    e2e_sit_down(&t, E2E_GAME, 2, NULL);
    int seat;
    json_int_t seq;
    json_t *action = first_legal_move(&t, &seat, &seq);
    int other = 1 - seat;

    /* Wrong seat: 409 with a sentence. */
    e2e_response r = e2e_post_move(&t, other, seq, action);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "not_your_turn");
    e2e_response_free(&r);

    /* Stale seq: 409 naming the head. */
    r = e2e_post_move(&t, seat, seq - 1, action);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(r.json, "error"), "head")), seq);
    e2e_response_free(&r);

    /* Illegal move: 422 with the rule in words. */
    json_t *nonsense = json_pack("{s:s}", "type", "conjure_treasure");
    r = e2e_post_move(&t, seat, seq, nonsense);
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
    json_t *match = e2e_get(&t, "", NULL);
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
    match = e2e_get(&t, "", NULL);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(match, "head"), "seq")), seq + 1,
                 "the retry was applied twice");
    json_decref(match);
    /* The same nonce for a different request is refused. */
    json_t *other_body = json_pack("{s:I,s:O}", "seq", seq + 1, "action", action);
    char *other_text = json_dumps(other_body, JSON_COMPACT);
    r = e2e_call_signed(&t.server, "POST", path, other_text, &t.players[seat],
                        (int64_t)time(NULL), "retry-nonce-1", NULL, false);
    cr_expect_eq(r.status, 401, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "nonce_reused");
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

/* "Prefer: return=representation": the answer to a move holds the mover's
 * view exactly as GET /view shows it next; without it, or in a retry's
 * stored answer, there is none. */
Test(e2e, a_move_answer_holds_the_movers_view_when_asked)
{
    e2e_table t;
    e2e_sit_down(&t, E2E_GAME, 2, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_int_t seq = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    json_t *view = e2e_get(&t, "/view", &t.players[seat]);
    json_t *body = json_pack(
        "{s:I,s:O}", "seq", seq, "action",
        json_array_get(json_object_get(json_object_get(view, "legal"), "moves"), 0));
    json_decref(view);
    char *text = json_dumps(body, JSON_COMPACT);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t.match);
    static const char *const prefer[] = {
        "Prefer: respond-async, RETURN=\"representation\"", NULL};

    e2e_response moved = e2e_call_signed(&t.server, "POST", path, text,
                                         &t.players[seat], (int64_t)time(NULL),
                                         "prefer-nonce-1", prefer, false);
    cr_assert_eq(moved.status, 200, "%s", moved.body);
    json_t *shown = json_object_get(moved.json, "seat_view");
    cr_assert_not_null(shown, "no seat_view in %s", moved.body);
    view = e2e_get(&t, "/view", &t.players[seat]);
    cr_expect(json_equal(shown, view),
              "seat_view differs from GET /view:\n%s", moved.body);
    json_decref(view);

    /* The retry gets the stored answer: the same, without the view. */
    e2e_response again = e2e_call_signed(&t.server, "POST", path, text,
                                         &t.players[seat], (int64_t)time(NULL),
                                         "prefer-nonce-1", prefer, false);
    cr_expect_eq(again.status, 200, "%s", again.body);
    json_object_del(moved.json, "seat_view");
    cr_expect(json_equal(moved.json, again.json), "the retry got %s", again.body);

    /* Without the preference: no view. */
    int next = e2e_first_pending_seat(again.json);
    view = e2e_get(&t, "/view", &t.players[next]);
    json_t *next_body = json_pack(
        "{s:I,s:O}", "seq", seq + 1, "action",
        json_array_get(json_object_get(json_object_get(view, "legal"), "moves"), 0));
    json_decref(view);
    e2e_response plain = e2e_post_move(&t, next, seq + 1,
                                       json_object_get(next_body, "action"));
    cr_expect_eq(plain.status, 200, "%s", plain.body);
    cr_expect_null(json_object_get(plain.json, "seat_view"), "%s", plain.body);

    e2e_response_free(&plain);
    json_decref(next_body);
    e2e_response_free(&again);
    e2e_response_free(&moved);
    free(text);
    json_decref(body);
    e2e_stop(&t.server);
}

Test(e2e, malformed_and_oversized_requests_get_the_one_error_shape)
{
    e2e_table t;
    e2e_sit_down(&t, E2E_GAME, 2, NULL);
    e2e_response r = e2e_call(&t.server, "POST", "/v1/players", "{\"name\":", NULL);
    cr_expect_eq(r.status, 400);
    cr_expect_str_eq(e2e_error_code(&r), "bad_json");
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
    e2e_table t;
    e2e_sit_down(&t, E2E_GAME, 2, NULL);
    for (int i = 0; i < 40 && e2e_play_one(&t); i++)
        ;
    json_t *before = e2e_get(&t, "", NULL);
    cr_expect_eq(e2e_stop(&t.server), 0);
    e2e_start(&t.server); /* same key file, empty cache */
    json_t *after = e2e_get(&t, "", NULL);
    cr_expect(json_equal(before, after),
              "the rebuilt public view differs from the one before the restart");
    json_decref(before);
    json_decref(after);
    for (int i = 0; i < 10 && e2e_play_one(&t); i++)
        ;
    check_public_log(&t, false);
    e2e_stop(&t.server);
}

/* Each server keeps the matches it last touched in memory; another server
 * on the same database may move them on meanwhile. */
Test(e2e, two_servers_on_one_database_never_play_from_a_stale_copy)
{
    e2e_table a;
    e2e_sit_down(&a, E2E_GAME, 2, NULL);
    e2e_play_one(&a); /* server A now holds the match at its head */
    e2e_table b = a;
    b.server.http = NULL;
    e2e_start(&b.server); /* same database, same key file */

    int seat;
    json_int_t seq;
    json_t *action = first_legal_move(&a, &seat, &seq);

    /* B plays the pending seat's move; A has not seen it. */
    e2e_response r = e2e_post_move(&b, seat, seq, action);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);

    /* A view through A shows B's move. */
    json_t *view = e2e_get(&a, "/view", &a.players[seat]);
    cr_expect_eq(head_of(view), seq + 1, "server A showed a stale view");
    json_decref(view);

    /* The same move at the old head through A is refused, not applied a
     * second time. */
    r = e2e_post_move(&a, seat, seq, action);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "stale_seq");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(r.json, "error"), "head")),
                 seq + 1);
    e2e_response_free(&r);
    json_decref(action);

    /* Play on, alternating servers: every move lands once, in order. */
    for (int i = 0; i < 6; i++)
        e2e_play_one(i % 2 ? &b : &a);
    json_t *events = e2e_all_events(&a);
    json_t *match = e2e_get(&b, "", NULL);
    cr_expect_eq((json_int_t)json_array_size(events), head_of(match));
    json_decref(match);
    json_decref(events);
    check_public_log(&a, false);
    e2e_stop(&b.server);
    e2e_stop(&a.server);
}

Test(e2e, a_match_under_another_engine_version_is_not_replayed)
{
    e2e_table t;
    e2e_sit_down(&t, E2E_GAME, 2, NULL);
    e2e_play_one(&t);
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
    cr_expect_str_eq(e2e_error_code(&r), "engine_version");
    e2e_response_free(&r);
    e2e_stop(&t.server);
}

/* Signs one request with the independent npm http-message-signatures
 * package (tests/node/sign-request.mjs) and returns its headers as
 * "Name: value" lines in headers[0..2], NULL-terminated. */
static void node_sign(const char *seed_hex, const char *keyid,
                      const char *method, const char *url, const char *body,
                      char headers[4][9000])
{
    json_t *input = json_pack("{s:s,s:s,s:s,s:s}", "seed_hex", seed_hex,
                              "keyid", keyid, "method", method, "url", url);
    if (body != NULL)
        json_object_set_new(input, "body", json_string(body));
    char *text = json_dumps(input, JSON_COMPACT);
    char path[] = "/tmp/pbem-node-input-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char command[256];
    snprintf(command, sizeof command,
             "node tests/node/sign-request.mjs < %s 2>&1", path);
    FILE *run = popen(command, "r");
    char output[20000];
    size_t n = fread(output, 1, sizeof output - 1, run);
    output[n] = '\0';
    cr_assert_eq(pclose(run), 0, "the npm signer failed (run npm ci in "
                                 "tests/node): %s", output);
    unlink(path);
    json_t *answer = json_loads(output, 0, NULL);
    json_t *signed_headers = json_object_get(answer, "headers");
    cr_assert_not_null(signed_headers, "unexpected signer output: %s", output);
    int k = 0;
    const char *name;
    json_t *value;
    json_object_foreach(signed_headers, name, value)
        snprintf(headers[k++], 9000, "%s: %s", name, json_string_value(value));
    headers[k][0] = '\0';
    json_decref(answer);
    free(text);
    json_decref(input);
}

Test(e2e, requests_signed_by_an_independent_client_are_accepted)
{
    e2e_server server = {0};
    e2e_start(&server);
    /* A player whose key the npm client holds: the npm client signs its
     * registration too, with the key id the key will get. */
    uint8_t seed[32], public_key[32], secret_key[64];
    char seed_hex[65], key_b64[64], keyid[64];
    randombytes_buf(seed, sizeof seed);
    crypto_sign_seed_keypair(public_key, secret_key, seed);
    sodium_bin2hex(seed_hex, sizeof seed_hex, seed, sizeof seed);
    sodium_bin2base64(key_b64, sizeof key_b64, public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    client_key_id(public_key, keyid);
    char body[200], url[256], headers[4][9000];
    snprintf(body, sizeof body, "{\"name\":\"Grace\",\"public_key\":\"%s\"}",
             key_b64);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/v1/players", server.port);
    node_sign(seed_hex, keyid, "POST", url, body, headers);
    const char *register_headers[] = {headers[0], headers[1], headers[2],
                                      NULL};
    e2e_response r = e2e_call_signed(&server, "POST", "/v1/players", body,
                                     NULL, 0, NULL, register_headers, false);
    cr_assert_eq(r.status, 201, "%s", r.body);
    cr_assert_str_eq(json_string_value(json_object_get(r.json, "key_id")),
                     keyid);
    e2e_response_free(&r);

    /* A signed POST with a body, then a signed GET of the new match. */
    const char *create = "{\"game\":\"" E2E_GAME "\",\"seats\":2}";
    snprintf(url, sizeof url, "http://127.0.0.1:%d/v1/matches", server.port);
    node_sign(seed_hex, keyid, "POST", url, create, headers);
    const char *extra[] = {headers[0], headers[1], headers[2], NULL};
    r = e2e_call_signed(&server, "POST", "/v1/matches", create, NULL, 0, NULL,
                        extra, false);
    cr_assert_eq(r.status, 201, "%s", r.body);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", server.port, path);
    node_sign(seed_hex, keyid, "GET", url, NULL, headers);
    const char *get_headers[] = {headers[0], headers[1], NULL};
    r = e2e_call_signed(&server, "GET", path, NULL, NULL, 0, NULL, get_headers,
                        false);
    cr_expect_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "seat")), 0);
    e2e_response_free(&r);
    e2e_stop(&server);
}
