/* test_limits.c: the rate limits of the real pbemd (http/rate_policy.h)
 * over real sockets: an anonymous flood of verify is held back while
 * players keep moving, registrations stop at their budget, a signature
 * that does not hold is charged to its address, the table of addresses
 * keeps its size under a flood of forwarded addresses, and the verify of
 * a finished match is computed once. Each test's server has small budgets
 * of its own (the other suites run with room for machine-speed play). */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "raw_http.h"

static void budgets(const char *anonymous, const char *player,
                    const char *costs)
{
    setenv("PBEM_RATE_ANONYMOUS", anonymous, 1);
    setenv("PBEM_RATE_PLAYER", player, 1);
    if (costs != NULL)
        setenv("PBEM_RATE_COSTS", costs, 1);
    else
        unsetenv("PBEM_RATE_COSTS");
}

/* The value of the metrics line that starts with name (a full series name
 * with its labels), or -1 when there is none. */
static long long metric(const e2e_server *server, const char *name)
{
    e2e_response r = e2e_call(server, "GET", "/metrics", NULL, NULL);
    cr_assert_eq(r.status, 200, "GET /metrics: %ld %s", r.status, r.body);
    long long value = -1;
    size_t len = strlen(name);
    for (const char *line = r.body; line != NULL && *line != '\0';) {
        if (strncmp(line, name, len) == 0 && line[len] == ' ') {
            value = atoll(line + len + 1);
            break;
        }
        line = strchr(line, '\n');
        if (line != NULL)
            line++;
    }
    e2e_response_free(&r);
    return value;
}

/* One move of whichever seat must act, read from the seats' own signed
 * views only (GET /v1/matches/{id}, public, would be charged to the
 * address the flood comes from). False once nobody has a move. */
static bool signed_move(e2e_table *t)
{
    for (int seat = 0; seat < t->seats; seat++) {
        json_t *view = e2e_get(t, "/view", &t->players[seat]);
        json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
        if (json_array_size(moves) == 0) {
            json_decref(view);
            continue;
        }
        json_int_t seq = json_integer_value(
            json_object_get(json_object_get(view, "head"), "seq"));
        e2e_response r =
            e2e_post_move(t, seat, seq, json_array_get(moves, 0));
        cr_expect_eq(r.status, 200, "a player's move during the flood: %ld %s",
                     r.status, r.body);
        e2e_response_free(&r);
        json_decref(view);
        return true;
    }
    return false;
}

typedef struct flood {
    int port;
    char path[96];
    int requests;
    int ok, limited, other;
    raw_answer first_ok, first_limited;
} flood;

static void *verify_loop(void *arg)
{
    flood *f = arg;
    raw_client *c = raw_client_new(f->port);
    for (int i = 0; i < f->requests; i++) {
        raw_answer a = raw_get(c, f->path, NULL);
        if (a.status == 200 && f->ok++ == 0)
            f->first_ok = a;
        else if (a.status == 429 && f->limited++ == 0)
            f->first_limited = a;
        else if (a.status != 200 && a.status != 429)
            f->other++;
    }
    raw_client_free(c);
    return NULL;
}

Test(limits, an_anonymous_verify_flood_is_held_back_while_players_move,
     .timeout = 300)
{
    budgets("200/3600", "3000/60", "heavy=20");
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    flood floods[4];
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        floods[i] = (flood){.port = t.server.port, .requests = 25};
        snprintf(floods[i].path, sizeof floods[i].path,
                 "/v1/matches/%s/verify", t.match);
        pthread_create(&threads[i], NULL, verify_loop, &floods[i]);
    }
    int moves = 0;
    for (; moves < 20 && signed_move(&t); moves++)
        ;
    int ok = 0, limited = 0, other = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        ok += floods[i].ok;
        limited += floods[i].limited;
        other += floods[i].other;
    }
    cr_expect_eq(moves, 20, "the players made %d moves of 20", moves);
    cr_expect_eq(other, 0, "a verify answered neither 200 nor 429");
    /* 200 points less two registrations (40) pay for 8 verifies at 20
     * (the budget refills in an hour: not within the test). */
    cr_expect_eq(ok, 8, "%d verifies of 100 were served", ok);
    cr_expect_eq(limited, 92, "%d verifies of 100 were refused", limited);

    raw_answer *refused = NULL, *served = NULL;
    for (int i = 0; i < 4 && (refused == NULL || served == NULL); i++) {
        if (refused == NULL && floods[i].limited > 0)
            refused = &floods[i].first_limited;
        if (served == NULL && floods[i].ok > 0)
            served = &floods[i].first_ok;
    }
    cr_assert_not_null(refused);
    cr_assert_not_null(served);
    long long wait = atoll(refused->retry_after);
    cr_expect(wait > 300 && wait <= 360,
              "Retry-After \"%s\": 20 points at 200 an hour come back in "
              "6 minutes",
              refused->retry_after);
    cr_expect_str_eq(refused->policy, "\"anonymous\";q=200;w=3600");
    cr_expect(strncmp(refused->ratelimit, "\"anonymous\";r=0;t=", 18) == 0,
              "RateLimit \"%s\": nothing left", refused->ratelimit);
    cr_expect_not_null(strstr(refused->body, "\"rate_limited\""), "%s",
                       refused->body);
    cr_expect_str_eq(served->policy, "\"anonymous\";q=200;w=3600",
                     "a served request tells its budget too");
    cr_expect_not_null(strstr(served->body, "\"ok\":true"), "%s",
                       served->body);

    /* Through the recorded client too (its answers are checked against
     * openapi.yaml). */
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/verify", t.match);
    e2e_response r = e2e_call(&t.server, "GET", path, NULL, NULL);
    cr_expect_eq(r.status, 429);
    cr_expect_str_eq(e2e_error_code(&r), "rate_limited");
    e2e_response_free(&r);
    e2e_response view = e2e_call(&t.server, "GET", path, NULL, &t.players[0]);
    e2e_response_free(&view);
    cr_expect_geq(metric(&t.server, "pbem_rate_limited_total{route=\"GET "
                                    "/v1/matches/{id}/verify\"}"),
                  limited + 1);
    cr_expect_eq(metric(&t.server, "pbem_rate_limit_cost{route=\"GET "
                                   "/v1/matches/{id}/verify\"}"),
                 20);
    cr_expect_eq(metric(&t.server, "pbem_rate_limit_quota{policy=\"anonymous\"}"),
                 200);
    cr_expect_eq(metric(&t.server, "pbem_rate_limited_by_policy_total{policy="
                                   "\"player\"}"),
                 0, "no player was held back");
    curl_global_cleanup();
    e2e_stop(&t.server);
}

/* A registration body for key, sent signed by it. */
static e2e_response register_as(const e2e_server *server, e2e_player *p,
                                const char *name)
{
    memset(p, 0, sizeof *p);
    client_new_key(&p->key);
    char key_b64[64];
    sodium_bin2base64(key_b64, sizeof key_b64, p->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    char body[256];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"public_key\":\"%s\"}",
             name, key_b64);
    return e2e_call(server, "POST", "/v1/players", body, p);
}

Test(limits, registrations_from_one_address_stop_at_the_budget)
{
    budgets("100/3600", "3000/60", "heavy=30");
    e2e_server server = {0};
    e2e_start(&server);
    e2e_player p;
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "reg%d", i);
        e2e_response r = register_as(&server, &p, name);
        cr_expect_eq(r.status, 201, "registration %d: %ld %s", i, r.status,
                     r.body);
        e2e_response_free(&r);
    }
    e2e_response r = register_as(&server, &p, "reg3");
    cr_expect_eq(r.status, 429, "a fourth registration at 30 of 100 points: "
                                "%ld %s",
                 r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "rate_limited");
    cr_expect_not_null(strstr(r.body, "wait"), "the sentence says to wait: %s",
                       r.body);
    e2e_response_free(&r);
    /* The refused key was not registered. */
    e2e_response again = e2e_call(&server, "GET", "/v1/players/me/vacation",
                                  NULL, &p);
    cr_expect_eq(again.status, 401, "%ld %s", again.status, again.body);
    e2e_response_free(&again);
    cr_expect_eq(metric(&server, "pbem_rate_limited_total{route=\"POST "
                                 "/v1/players\"}"),
                 1);
    e2e_stop(&server);
}

Test(limits, a_signature_that_does_not_hold_is_charged_to_its_address)
{
    budgets("60/3600", "3000/60", "heavy=10");
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t.match);
    /* Two registrations took 20 points; each forged move costs 2. */
    int refused = 0, limited = 0;
    for (int i = 0; i < 30; i++) {
        e2e_response r = e2e_call_signed(
            &t.server, "POST", path, "{\"seq\":1,\"action\":{}}",
            &t.players[0], (int64_t)time(NULL), NULL, NULL, true);
        if (r.status == 401)
            refused++;
        else if (r.status == 429)
            limited++;
        else
            cr_expect(false, "a forged move: %ld %s", r.status, r.body);
        e2e_response_free(&r);
    }
    cr_expect_eq(refused, 20, "%d forged moves were refused 401", refused);
    cr_expect_eq(limited, 10, "%d forged moves were refused 429", limited);
    /* The address is spent for anonymous reads too… */
    snprintf(path, sizeof path, "/v1/matches/%s", t.match);
    e2e_response r = e2e_call(&t.server, "GET", path, NULL, NULL);
    cr_expect_eq(r.status, 429, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    /* …but not the key the forgeries claimed: its player still plays. */
    json_t *view = e2e_get(&t, "/view", &t.players[0]);
    json_decref(view);
    cr_expect(signed_move(&t));
    cr_expect_eq(metric(&t.server, "pbem_rate_limited_by_policy_total{policy="
                                   "\"player\"}"),
                 0);
    e2e_stop(&t.server);
}

Test(limits, many_forwarded_addresses_keep_the_table_its_size, .timeout = 300)
{
    budgets("5/3600", "3000/60", NULL);
    setenv("PBEM_TRUSTED_PROXIES", "127.0.0.1", 1);
    setenv("PBEM_RATE_TABLE", "64", 1);
    e2e_server server = {0};
    e2e_start(&server);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    raw_client *c = raw_client_new(server.port);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(raw_get(c, "/v1/games", "203.0.113.7").status, 200);
    raw_answer held = raw_get(c, "/v1/games", "203.0.113.7");
    cr_assert_eq(held.status, 429);
    cr_expect_str_eq(held.policy, "\"anonymous\";q=5;w=3600");
    /* 2,000 other clients behind the proxy, one request each. */
    for (int i = 0; i < 2000; i++) {
        char address[32];
        snprintf(address, sizeof address, "198.18.%d.%d", i / 250, i % 250 + 1);
        raw_answer a = raw_get(c, "/v1/games", address);
        cr_assert_eq(a.status, 200, "client %s: %ld", address, a.status);
    }
    cr_expect_eq(raw_get(c, "/v1/games", "203.0.113.7").status, 429,
                 "the flood of new addresses freed the one held back");
    cr_expect_eq(raw_get(c, "/v1/games", "203.0.113.8").status, 200,
                 "its neighbour is another client");
    raw_client_free(c);
    curl_global_cleanup();
    long long slots =
        metric(&server, "pbem_rate_limit_slots{policy=\"anonymous\"}");
    long long buckets =
        metric(&server, "pbem_rate_limit_buckets{policy=\"anonymous\"}");
    cr_expect_eq(slots, 64);
    cr_expect_gt(buckets, 0);
    cr_expect_leq(buckets, slots, "%lld clients kept in %lld slots", buckets,
                  slots);
    e2e_stop(&server);
}

Test(limits, the_verify_of_a_finished_match_is_computed_once, .timeout = 600)
{
    budgets("1000000/60", "1000000/60", NULL);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    json_t *during = e2e_get(&t, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(during, "ok")));
    json_decref(during);
    cr_expect(e2e_play_one(&t));
    json_decref(e2e_get(&t, "/verify", NULL));
    cr_expect_eq(metric(&t.server, "pbem_verify_cache_total{outcome=\"miss\"}"),
                 2, "a match in play is verified afresh each time");
    while (e2e_play_one(&t))
        ;
    json_t *first = e2e_get(&t, "/verify", NULL);
    json_t *second = e2e_get(&t, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(first, "replayed")),
              "a finished match is replayed whole");
    cr_expect(json_equal(first, second), "the kept answer differs");
    cr_expect_eq(metric(&t.server, "pbem_verify_cache_total{outcome=\"miss\"}"),
                 3);
    cr_expect_eq(metric(&t.server, "pbem_verify_cache_total{outcome=\"hit\"}"),
                 1);
    json_decref(first);
    json_decref(second);
    e2e_stop(&t.server);
}

Test(limits, a_route_may_have_a_cost_of_its_own)
{
    budgets("100/3600", "3000/60", "read=1,GET /v1/games=50");
    e2e_server server = {0};
    e2e_start(&server);
    for (int i = 0; i < 2; i++) {
        e2e_response r = e2e_call(&server, "GET", "/v1/games", NULL, NULL);
        cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
        e2e_response_free(&r);
    }
    e2e_response r = e2e_call(&server, "GET", "/v1/games", NULL, NULL);
    cr_expect_eq(r.status, 429, "a third at 50 of 100 points: %ld", r.status);
    cr_expect_not_null(strstr(r.body, "costs 50"), "%s", r.body);
    e2e_response_free(&r);
    cr_expect_eq(metric(&server, "pbem_rate_limit_cost{route=\"GET "
                                 "/v1/games\"}"),
                 50);
    cr_expect_eq(metric(&server, "pbem_rate_limit_cost{route=\"GET "
                                 "/v1/matches/{id}\"}"),
                 1, "the other reads keep their class's cost");
    e2e_stop(&server);
}
