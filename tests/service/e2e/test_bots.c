/* What a bot author meets when trying the API as a new user does: each
 * answer is the one the reference and the README promise. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "ledger/seal.h"
#include "rules.h"

static void expect_error(e2e_response *r, long status, const char *code,
                         const char *words)
{
    cr_expect_eq(r->status, status, "%s", r->body);
    cr_expect_str_eq(e2e_error_code(r), code, "%s", r->body);
    if (words != NULL) {
        const char *message = json_string_value(
            json_object_get(json_object_get(r->json, "error"), "message"));
        cr_expect(message != NULL && strstr(message, words) != NULL,
                  "the message does not say \"%s\": %s", words, r->body);
    }
    e2e_response_free(r);
}

Test(bots, an_unknown_decision_is_404)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    char open[80];
    snprintf(open, sizeof open, "/decisions/%s",
             json_string_value(json_object_get(
                 json_object_get(match, "pending"), "decision")));
    json_decref(match);
    /* The open decision exists before anyone commits to it. */
    json_t *shown = e2e_get(&t, open, NULL);
    cr_expect_eq(json_array_size(json_object_get(shown, "seats")), 0);
    json_decref(shown);
    char path[160];
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/no-such-thing",
             t.match);
    e2e_response r = e2e_call(&t.server, "GET", path, NULL, NULL);
    expect_error(&r, 404, "no_such_decision", "no-such-thing");
    e2e_stop(&t.server);
}

/* The body is judged before the match: a malformed request gets 400 and a
 * sentence about what is wrong with it, whatever state the match is in. */
Test(bots, a_malformed_body_is_400_before_anything_else)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    long long seq = e2e_head_seq(&t);
    char path[160], body[256];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t.match);

    snprintf(body, sizeof body, "{\"seq\":%lld,\"move\":\"draw \xff\"}", seq);
    e2e_response r = e2e_call(&t.server, "POST", path, body, &t.players[0]);
    expect_error(&r, 400, "bad_json", "UTF-8");

    r = e2e_call(&t.server, "POST", path,
                 "{\"seq\":-1,\"move\":\"draw\"}", &t.players[0]);
    expect_error(&r, 400, "bad_move", "seq");

    snprintf(body, sizeof body, "{\"seq\":%lld}", seq);
    r = e2e_call(&t.server, "POST", path, body, &t.players[0]);
    expect_error(&r, 400, "bad_move", "action");

    /* No decision is open in this game: the commitment's shape is still
     * judged first. */
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/d1/commit",
             t.match);
    r = e2e_call(&t.server, "POST", path, "{\"commitment\":\"not hex\"}",
                 &t.players[0]);
    expect_error(&r, 400, "bad_commitment", "64 hex digits");
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/d1/reveal",
             t.match);
    r = e2e_call(&t.server, "POST", path,
                 "{\"move\":\"x\",\"nonce\":\"zz\"}", &t.players[0]);
    expect_error(&r, 400, "bad_nonce", "64 hex digits");
    cr_expect_eq(e2e_head_seq(&t), seq, "a refused request moved the match");
    e2e_stop(&t.server);
}

Test(bots, the_creators_name_is_in_the_create_answer)
{
    e2e_server server = {0};
    e2e_start(&server);
    e2e_player p;
    e2e_register(&server, "Ada", &p);
    e2e_response r = e2e_call(&server, "POST", "/v1/matches",
                              "{\"game\":\"antiquity_quest\",\"seats\":2}", &p);
    cr_assert_eq(r.status, 201, "%s", r.body);
    json_t *seat0 = json_array_get(
        json_object_get(json_object_get(r.json, "match"), "seats"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(seat0, "name")), "Ada",
                     "%s", r.body);
    e2e_response_free(&r);
    e2e_stop(&server);
}

/* The sentence names what this request must cover, and no more. */
Test(bots, an_unsigned_request_is_told_what_to_sign)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    char path[160];
    snprintf(path, sizeof path, "/v1/matches/%s/view", t.match);
    e2e_response r = e2e_call(&t.server, "GET", path, NULL, NULL);
    cr_expect_eq(r.status, 401, "%s", r.body);
    cr_expect_null(strstr(r.body, "content-digest"), "%s", r.body);
    cr_expect_not_null(strstr(r.body, "@path"), "%s", r.body);
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t.match);
    r = e2e_call(&t.server, "POST", path, "{\"seq\":1,\"move\":\"draw\"}", NULL);
    cr_expect_eq(r.status, 401, "%s", r.body);
    cr_expect_not_null(strstr(r.body, "content-digest"), "%s", r.body);
    e2e_response_free(&r);
    e2e_stop(&t.server);
}

static json_t *first_legal(const e2e_table *t, int seat, long long *seq)
{
    json_t *view = e2e_get(t, "/view", &t->players[seat]);
    *seq = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    json_t *action = json_incref(json_array_get(
        json_object_get(json_object_get(view, "legal"), "moves"), 0));
    cr_assert_not_null(action, "seat %d has no legal move", seat);
    json_decref(view);
    return action;
}

/* POST /moves {"seq", "action"} by seat, with extra headers. */
static e2e_response move_with(const e2e_table *t, int seat, long long seq,
                              const json_t *action,
                              const char *const *headers)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t->match);
    json_t *body = json_pack("{s:I,s:O}", "seq", (json_int_t)seq, "action",
                             action);
    char *text = json_dumps(body, JSON_COMPACT);
    e2e_response r = e2e_call_signed(&t->server, "POST", path, text,
                                     &t->players[seat], (int64_t)time(NULL),
                                     NULL, headers, false);
    free(text);
    json_decref(body);
    return r;
}

Test(bots, a_sealed_move_answers_the_view_when_asked)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    static const char *const prefer[] = {"Prefer: return=representation",
                                         NULL};
    long long seq;
    json_t *action = first_legal(&t, 0, &seq);
    e2e_response r = move_with(&t, 0, seq, action, prefer);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_not_null(json_object_get(r.json, "decision"), "%s", r.body);
    json_t *shown = json_object_get(r.json, "seat_view");
    cr_assert_not_null(shown, "no seat_view in %s", r.body);
    json_t *view = e2e_get(&t, "/view", &t.players[0]);
    cr_expect(json_equal(shown, view), "seat_view differs from GET /view:\n%s",
              r.body);
    json_decref(view);
    e2e_response_free(&r);
    json_decref(action);
    e2e_stop(&t.server);
}

/* Every seat of a three-seat decision read the match at the same head;
 * each seat's sealed move still counts, whoever posts first. */
Test(bots, sealed_moves_do_not_race_on_the_head)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    json_t *choices[3];
    long long seq[3];
    for (int s = 0; s < 3; s++)
        choices[s] = first_legal(&t, s, &seq[s]);
    cr_assert_eq(seq[0], seq[2]);
    for (int s = 2; s >= 0; s--) {
        e2e_response r = move_with(&t, s, seq[s], choices[s], NULL);
        cr_expect_eq(r.status, 200, "seat %d: %s", s, r.body);
        if (s == 0)
            cr_expect(json_is_true(json_object_get(r.json, "decided")), "%s",
                      r.body);
        e2e_response_free(&r);
        json_decref(choices[s]);
    }
    /* Once the decision is made a move at the old head is stale again. */
    long long now;
    json_t *next = first_legal(&t, 0, &now);
    e2e_response r = move_with(&t, 0, seq[0], next, NULL);
    expect_error(&r, 409, "stale_seq", NULL);
    json_decref(next);
    e2e_stop(&t.server);
}

/* While a seat's own commitment is awaited, pending says whose. */
Test(bots, pending_names_the_seats_that_must_reveal)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    char decision[64], path[200], body[160];
    snprintf(decision, sizeof decision, "%s",
             json_string_value(json_object_get(
                 json_object_get(match, "pending"), "decision")));
    json_decref(match);
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/%s/commit",
             t.match, decision);
    snprintf(body, sizeof body, "{\"commitment\":\"%064d\"}", 1);
    e2e_response r = e2e_call(&t.server, "POST", path, body, &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(json_array_size(json_object_get(
                     json_object_get(r.json, "pending"), "reveal")),
                 0, "a reveal is asked for before every seat committed: %s",
                 r.body);
    e2e_response_free(&r);
    for (int s = 0; s < 3; s += 2) {
        long long seq;
        json_t *choice = first_legal(&t, s, &seq);
        r = move_with(&t, s, seq, choice, NULL);
        cr_assert_eq(r.status, 200, "%s", r.body);
        json_decref(choice);
        if (s == 2) {
            json_t *reveal = json_object_get(
                json_object_get(r.json, "pending"), "reveal");
            cr_expect_eq(json_array_size(reveal), 1, "%s", r.body);
            cr_expect_eq(json_integer_value(json_array_get(reveal, 0)), 1,
                         "%s", r.body);
        }
        e2e_response_free(&r);
    }
    match = e2e_get(&t, "", NULL);
    json_t *reveal =
        json_object_get(json_object_get(match, "pending"), "reveal");
    cr_expect_eq(json_array_size(reveal), 1);
    cr_expect_eq(json_integer_value(json_array_get(reveal, 0)), 1);
    json_decref(match);
    e2e_stop(&t.server);
}

/* A refused change spends its nonce as an applied one does. */
Test(bots, a_refused_requests_nonce_is_spent)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_decref(match);
    long long seq;
    json_t *action = first_legal(&t, seat, &seq);
    char path[160];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t.match);
    json_t *stale = json_pack("{s:I,s:O}", "seq", (json_int_t)seq + 5,
                              "action", action);
    char *stale_text = json_dumps(stale, JSON_COMPACT);
    e2e_response first = e2e_call_signed(&t.server, "POST", path, stale_text,
                                         &t.players[seat], (int64_t)time(NULL),
                                         "refused-nonce-1", NULL, false);
    cr_expect_eq(first.status, 409, "%s", first.body);
    /* The same request again: the same refusal. */
    e2e_response again = e2e_call_signed(&t.server, "POST", path, stale_text,
                                         &t.players[seat], (int64_t)time(NULL),
                                         "refused-nonce-1", NULL, false);
    cr_expect_eq(again.status, 409, "%s", again.body);
    cr_expect(json_equal(first.json, again.json), "%s", again.body);
    /* Another request with that nonce: refused, not applied. */
    json_t *good = json_pack("{s:I,s:O}", "seq", (json_int_t)seq, "action",
                             action);
    char *good_text = json_dumps(good, JSON_COMPACT);
    e2e_response other = e2e_call_signed(&t.server, "POST", path, good_text,
                                         &t.players[seat], (int64_t)time(NULL),
                                         "refused-nonce-1", NULL, false);
    expect_error(&other, 401, "nonce_reused", NULL);
    cr_expect_eq(e2e_head_seq(&t), seq,
                 "a request with a spent nonce was applied");
    e2e_response_free(&first);
    e2e_response_free(&again);
    free(stale_text);
    free(good_text);
    json_decref(stale);
    json_decref(good);
    json_decref(action);
    e2e_stop(&t.server);
}

/* Adel Verplichtet: seat 1 commits to going to the moon, which the rules
 * refuse. Its reveal opens the commitment; the seat's default choice
 * stands in, the decision is made, and the log still verifies. */
Test(bots, a_commitment_to_an_illegal_choice_does_not_stall_the_match)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    char decision[64], path[200];
    snprintf(decision, sizeof decision, "%s",
             json_string_value(json_object_get(
                 json_object_get(match, "pending"), "decision")));
    json_decref(match);
    json_t *moon = json_pack("{s:s,s:s}", "type", "go", "location", "moon");
    char *canonical = rules_sorted_json(moon);
    uint8_t nonce[SEAL_NONCE_BYTES], commitment[SEAL_HASH_BYTES];
    char nonce_hex[65], commitment_hex[65], body[512];
    randombytes_buf(nonce, sizeof nonce);
    seal_choice_commitment(t.match, decision, 1, canonical, nonce, commitment);
    sodium_bin2hex(nonce_hex, sizeof nonce_hex, nonce, sizeof nonce);
    sodium_bin2hex(commitment_hex, sizeof commitment_hex, commitment,
                   sizeof commitment);
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/%s/commit",
             t.match, decision);
    snprintf(body, sizeof body, "{\"commitment\":\"%s\"}", commitment_hex);
    e2e_response r = e2e_call(&t.server, "POST", path, body, &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    for (int s = 0; s < 3; s += 2) {
        long long seq;
        json_t *choice = first_legal(&t, s, &seq);
        r = move_with(&t, s, seq, choice, NULL);
        cr_assert_eq(r.status, 200, "%s", r.body);
        e2e_response_free(&r);
        json_decref(choice);
    }
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/%s/reveal",
             t.match, decision);
    snprintf(body, sizeof body, "{\"action\":%s,\"nonce\":\"%s\"}",
             canonical, nonce_hex);
    r = e2e_call(&t.server, "POST", path, body, &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(json_is_true(json_object_get(r.json, "decided")), "%s", r.body);
    json_t *voided = json_object_get(r.json, "voided");
    cr_expect_not_null(json_object_get(voided, "choice"), "%s", r.body);
    cr_expect_not_null(strstr(json_string_value(json_object_get(voided,
                                                                "reason"))
                                  ? json_string_value(
                                        json_object_get(voided, "reason"))
                                  : "",
                              "castle"),
                       "%s", r.body);
    e2e_response_free(&r);

    /* The log says so, and anyone can check it. */
    json_t *events = e2e_all_events(&t);
    size_t i;
    json_t *event;
    int voids = 0;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (strcmp(kind, "voided") == 0) {
            voids++;
            cr_expect_eq(json_integer_value(json_object_get(event, "seat")), 1);
            cr_expect(json_equal(json_object_get(json_object_get(event, "data"),
                                                 "action"),
                                 moon));
        }
    }
    cr_expect_eq(voids, 1);
    json_decref(events);
    json_t *verdict = e2e_get(&t, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s",
              json_dumps(verdict, JSON_COMPACT));
    cr_expect_eq(json_integer_value(json_object_get(verdict, "commitments")),
                 3);
    json_decref(verdict);
    snprintf(path, sizeof path, "/decisions/%s", decision);
    json_t *shown = e2e_get(&t, path, NULL);
    json_t *seat1 = json_array_get(json_object_get(shown, "seats"), 1);
    cr_expect(json_is_true(json_object_get(seat1, "voided")), "%s",
              json_dumps(shown, JSON_COMPACT));
    json_decref(shown);
    /* Play goes on. */
    cr_expect(e2e_play_one(&t));
    free(canonical);
    json_decref(moon);
    e2e_stop(&t.server);
}

/* The chain checked with an independent RFC 8785 implementation and
 * BLAKE2b (tests/node/jcs-check.mjs): nothing of pbem's code. */
Test(bots, the_hash_chain_is_jcs_as_any_implementation_computes_it,
     .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    for (int i = 0; i < 12 && e2e_play_one(&t); i++)
        ;
    json_t *events = e2e_all_events(&t);
    cr_assert_gt(json_array_size(events), 10);
    const char *tmp = getenv("TMPDIR");
    char file[512], command[700], line[512] = "";
    snprintf(file, sizeof file, "%s/pbem-chain-%d.json", tmp ? tmp : "/tmp",
             (int)getpid());
    cr_assert_eq(json_dump_file(events, file, JSON_COMPACT), 0);
    snprintf(command, sizeof command,
             "node tests/node/jcs-check.mjs chain '%s' 2>&1", file);
    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe);
    if (fgets(line, sizeof line, pipe) == NULL)
        line[0] = '\0';
    int status = pclose(pipe);
    cr_expect_eq(status, 0, "%s: %s", command, line);
    cr_expect_eq(strncmp(line, "ok ", 3), 0, "%s", line);
    unlink(file);
    json_decref(events);
    e2e_stop(&t.server);
}
