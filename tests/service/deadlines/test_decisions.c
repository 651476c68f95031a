/* Deadlines in sealed simultaneous decisions (Adel Verplichtet): each seat
 * that has not committed gets its own clock, and a seat that committed
 * with its own commitment but never reveals cannot stall the match: its
 * commitment is void and its default choice stands in. The log still
 * verifies. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "rules.h"
#include "scene.h"
#include "ledger/seal.h"

static const char *open_decision(const json_t *view)
{
    return json_string_value(
        json_object_get(json_object_get(view, "pending"), "decision"));
}

static json_t *first_legal(const e2e_server *s, const char *match,
                           const e2e_player *p, long long *seq)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, p);
    cr_assert_eq(r.status, 200, "%s", r.body);
    *seq = json_integer_value(
        json_object_get(json_object_get(r.json, "head"), "seq"));
    json_t *move = json_incref(json_array_get(
        json_object_get(json_object_get(r.json, "legal"), "moves"), 0));
    cr_assert_not_null(move);
    e2e_response_free(&r);
    return move;
}

static const char *waiting_for(const json_t *view, int seat)
{
    json_t *waiting = json_object_get(scene_clock_of(view, seat), "waiting");
    return waiting ? json_string_value(json_object_get(waiting, "for"))
                   : "(none)";
}

Test(decisions, a_missing_commitment_and_a_missing_reveal_are_both_timed_out,
     .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    scene_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p[3];
    e2e_register(&s, "Robert", &p[0]);
    e2e_register(&s, "Eliza", &p[1]);
    e2e_register(&s, "Nigel", &p[2]);
    char match[32];
    scene_match(&s, p, 3, "adel_verplichtet",
                "{\"turn_hours\":24,\"action\":\"default_move\"}", match);
    json_t *view = scene_public(&s, match);
    char decision[64];
    snprintf(decision, sizeof decision, "%s", open_decision(view));
    for (int seat = 0; seat < 3; seat++)
        cr_assert_str_eq(waiting_for(view, seat), "commit");
    json_decref(view);

    /* Seat 0 commits through the service; seat 1 with its own commitment. */
    long long seq;
    json_t *choice0 = first_legal(&s, match, &p[0], &seq);
    json_t *body =
        json_pack("{s:I,s:O}", "seq", (json_int_t)seq, "action", choice0);
    char *text = json_dumps(body, JSON_COMPACT);
    char path[160];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
    e2e_response r = e2e_call(&s, "POST", path, text, &p[0]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    free(text);
    json_decref(body);
    json_t *choice1 = first_legal(&s, match, &p[1], &seq);
    char *canonical1 = rules_sorted_json(choice1);
    uint8_t nonce1[SEAL_NONCE_BYTES], commitment1[SEAL_HASH_BYTES];
    char commitment_hex[65];
    randombytes_buf(nonce1, sizeof nonce1);
    seal_choice_commitment(match, decision, 1, canonical1, nonce1, commitment1);
    sodium_bin2hex(commitment_hex, sizeof commitment_hex, commitment1,
                   sizeof commitment1);
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/%s/commit", match,
             decision);
    char commit[128];
    snprintf(commit, sizeof commit, "{\"commitment\":\"%s\"}", commitment_hex);
    r = e2e_call(&s, "POST", path, commit, &p[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    view = scene_public(&s, match);
    cr_assert_str_eq(waiting_for(view, 0), "(none)");
    cr_assert_str_eq(waiting_for(view, 1), "(none)",
                     "a committed seat waits for the others");
    cr_assert_str_eq(waiting_for(view, 2), "commit");
    json_decref(view);

    /* Seat 2 never commits: its default choice is committed for it,
     * sealed like any other; now only seat 1's reveal is awaited. */
    scene_clock(T0 + 25 * HOUR);
    json_t *timeouts = scene_wait_events(&s, match, "timeout", 1, 20);
    cr_assert_eq(json_array_size(timeouts), 1);
    json_t *t = json_array_get(timeouts, 0);
    cr_assert_eq(json_integer_value(json_object_get(t, "seat")), 2);
    json_t *data = json_object_get(t, "data");
    cr_assert_str_eq(json_string_value(json_object_get(data, "waiting_for")),
                     "commit");
    cr_assert_str_eq(json_string_value(json_object_get(data, "decision")),
                     decision);
    cr_assert_null(json_object_get(data, "choice"),
                   "a commitment stays sealed");
    json_decref(timeouts);
    json_t *committed = scene_events(&s, match, "committed");
    cr_assert_eq(json_array_size(committed), 3);
    json_decref(committed);
    view = scene_public(&s, match);
    cr_assert_str_eq(open_decision(view), decision);
    cr_assert_str_eq(waiting_for(view, 1), "reveal");
    cr_assert_eq(
        scene_time(json_object_get(
            json_object_get(scene_clock_of(view, 1), "waiting"), "due_at")),
        T0 + 49 * HOUR);
    cr_assert_str_eq(waiting_for(view, 2), "(none)");
    json_decref(view);

    /* Seat 1 keeps its nonce to itself: at its deadline the commitment is
     * void, the default choice is published in its place, and the
     * decision is applied. */
    scene_clock(T0 + 50 * HOUR);
    json_t *decided = scene_wait_events(&s, match, "decided", 1, 20);
    cr_assert_eq(json_array_size(decided), 1);
    timeouts = scene_events(&s, match, "timeout");
    cr_assert_eq(json_array_size(timeouts), 2);
    t = json_array_get(timeouts, 1);
    cr_assert_eq(json_integer_value(json_object_get(t, "seat")), 1);
    data = json_object_get(t, "data");
    cr_assert_str_eq(json_string_value(json_object_get(data, "waiting_for")),
                     "reveal");
    json_t *stand_in = json_object_get(data, "choice");
    cr_assert_not_null(stand_in);
    size_t i;
    json_t *choice;
    bool found = false;
    json_array_foreach(
        json_object_get(json_object_get(json_array_get(decided, 0), "data"),
                        "choices"),
        i, choice)
    {
        if (json_integer_value(json_object_get(choice, "seat")) == 1) {
            cr_assert(json_equal(json_object_get(choice, "action"), stand_in));
            found = true;
        }
    }
    cr_assert(found, "seat 1's stand-in choice is applied");
    json_decref(timeouts);
    json_decref(decided);

    /* The decision as anyone sees it, and the whole log, verify. */
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/%s", match, decision);
    r = e2e_call(&s, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *seat1 = json_array_get(json_object_get(r.json, "seats"), 1);
    cr_assert(json_is_true(json_object_get(seat1, "voided")), "%s", r.body);
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/verify", match);
    r = e2e_call(&s, "GET", path, NULL, NULL);
    cr_assert(json_is_true(json_object_get(r.json, "ok")), "%s", r.body);
    cr_assert_eq(json_integer_value(json_object_get(r.json, "commitments")), 2,
                 "the two sealed by the service are checked");
    e2e_response_free(&r);
    /* The next decision opens with a clock for every seat. */
    view = scene_public(&s, match);
    cr_assert_str_neq(open_decision(view) ? open_decision(view) : "", decision);
    json_decref(view);
    free(canonical1);
    json_decref(choice0);
    json_decref(choice1);
    stop_server(&s);
}
