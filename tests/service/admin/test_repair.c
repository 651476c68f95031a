/* An admin repairs matches without rewriting their history, through the
 * real binary: rewinds (around sealed decisions too), seat replacements,
 * aborts, each an event of the log that export, verification and import
 * understand; admin signatures are single-use; and the pbem command. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "admin_support.h"

static long long head_of(const json_t *match)
{
    return json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
}

static const char *message_of(const e2e_response *r)
{
    const char *message = json_string_value(
        json_object_get(json_object_get(r->json, "error"), "message"));
    return message ? message : "(no message)";
}

static e2e_response rewind_to(const e2e_table *t, const e2e_player *admin,
                              long long to_seq, const char *reason)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/rewind", t->match);
    snprintf(body, sizeof body, "{\"to_seq\":%lld,\"reason\":\"%s\"}", to_seq,
             reason);
    return admin_post(&t->server, path, body, admin);
}

static void expect_same_position(const json_t *a, const json_t *b,
                                 const char *what)
{
    static const char *const keys[] = {"status", "pending", "view", "result",
                                       "seats"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect(json_equal(json_object_get(a, keys[i]),
                             json_object_get(b, keys[i])),
                  "%s: %s differs", what, keys[i]);
}

static void expect_verifies(const e2e_table *t, bool replayed)
{
    json_t *verdict = e2e_get(t, "/verify", NULL);
    char *text = json_dumps(verdict, 0);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s", text);
    cr_expect_eq(json_is_true(json_object_get(verdict, "replayed")), replayed,
                 "%s", text);
    free(text);
    json_decref(verdict);
}

/* A restart of the server, cold cache, same database and key. */
static void restart(e2e_table *t)
{
    e2e_stop(&t->server);
    e2e_start(&t->server);
}

Test(admin_repair, rewind_goes_back_and_play_goes_on, .timeout = 300)
{
    e2e_player admin;
    e2e_table t;
    admin_scene(&admin, &t, "antiquity_quest", 2, NULL, 6);
    char db2[64];
    json_t *at_n = e2e_get(&t, "", NULL);
    long long n = head_of(at_n);

    /* A move sent with a chosen nonce: its retry gets the first answer. */
    int seat = e2e_first_pending_seat(at_n);
    json_t *view = e2e_get(&t, "/view", &t.players[seat]);
    json_t *body = json_pack(
        "{s:I,s:O}", "seq", (json_int_t)n, "action",
        json_array_get(json_object_get(json_object_get(view, "legal"), "moves"),
                       0));
    char *move = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    json_decref(view);
    char path[128];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t.match);
    int64_t created = (int64_t)time(NULL);
    e2e_response first =
        e2e_call_signed(&t.server, "POST", path, move, &t.players[seat],
                        created, "retried-after-rewind", NULL, false);
    cr_assert_eq(first.status, 200, "%s", first.body);
    e2e_response again =
        e2e_call_signed(&t.server, "POST", path, move, &t.players[seat],
                        created, "retried-after-rewind", NULL, false);
    cr_expect_eq(again.status, 200, "%s", again.body);
    cr_expect(json_equal(again.json, first.json), "another answer: %s",
              again.body);
    e2e_response_free(&again);
    for (int i = 0; i < 4; i++)
        cr_assert(e2e_play_one(&t));
    long long head;

    /* Refusals, each in words. */
    e2e_response r = rewind_to(&t, &admin, 2, "too far");
    cr_expect_eq(r.status, 422, "%s", r.body);
    cr_expect(strstr(message_of(&r), "before the match started"), "%s",
              message_of(&r));
    e2e_response_free(&r);
    json_t *now = e2e_get(&t, "", NULL);
    head = head_of(now);
    json_decref(now);
    r = rewind_to(&t, &admin, head, "nothing");
    cr_expect_eq(r.status, 422, "%s", r.body);
    e2e_response_free(&r);
    r = rewind_to(&t, &admin, n, " ");
    cr_expect_eq(r.status, 400, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "bad_reason");
    e2e_response_free(&r);
    char admin_path[128];
    snprintf(admin_path, sizeof admin_path, "/v1/admin/matches/%s/rewind",
             t.match);
    r = admin_post(&t.server, admin_path, "{\"reason\":\"no target\"}", &admin);
    cr_expect_eq(r.status, 400, "%s", r.body);
    e2e_response_free(&r);
    r = admin_post(&t.server, admin_path,
                   "{\"to_seq\":5,\"reason\":\"a player tries\"}",
                   &t.players[0]);
    cr_expect_eq(r.status, 401, "%s", r.body);
    e2e_response_free(&r);

    /* The rewind: the match is as it was right after event n. */
    r = rewind_to(&t, &admin, n, "a misclick, agreed by both players");
    cr_assert_eq(r.status, 200, "%s", r.body);
    long long rewound = json_integer_value(json_object_get(r.json, "seq"));
    cr_expect_eq(rewound, head + 1);
    e2e_response_free(&r);
    json_t *after = e2e_get(&t, "", NULL);
    cr_expect_eq(head_of(after), rewound);
    expect_same_position(after, at_n, "after the rewind");
    json_decref(after);
    json_t *events = e2e_all_events(&t);
    json_t *event = json_array_get(events, (size_t)rewound - 1);
    json_t *data = json_object_get(event, "data");
    cr_expect_str_eq(json_string_value(json_object_get(event, "kind")),
                     "rewound");
    cr_expect_eq(json_integer_value(json_object_get(data, "to_seq")), n);
    cr_expect_str_eq(json_string_value(json_object_get(data, "by")), "admin");
    cr_expect_str_eq(json_string_value(json_object_get(data, "reason")),
                     "a misclick, agreed by both players");
    cr_expect_str_eq(json_string_value(json_object_get(data, "admin_key")),
                     getenv("PBEM_ADMIN_KEY"));
    json_decref(events);

    /* Whoever must act at n is told again. */
    json_t *rows = outbox_rows(t.match, "your_turn");
    bool told = false;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        if (json_integer_value(json_object_get(row, "seq")) == rewound &&
            strcmp(json_string_value(json_object_get(row, "player")),
                   t.players[seat].id) == 0)
            told = true;
    }
    cr_expect(told, "no your_turn row at the rewind: %s", json_dumps(rows, 0));
    json_decref(rows);

    /* The retried move was undone: it is not applied again, and the
     * answer says why. */
    again = e2e_call_signed(&t.server, "POST", path, move, &t.players[seat],
                            created, "retried-after-rewind", NULL, false);
    cr_expect_eq(again.status, 409, "%s", again.body);
    cr_expect_str_eq(e2e_error_code(&again), "rewound");
    cr_expect(strstr(message_of(&again), "a misclick") != NULL, "%s",
              message_of(&again));
    e2e_response_free(&again);
    now = e2e_get(&t, "", NULL);
    cr_expect_eq(head_of(now), rewound, "the retry moved the match");
    json_decref(now);
    e2e_response_free(&first);
    free(move);

    for (int k = 0; k < 3; k++)
        cr_assert(e2e_play_one(&t), "move %d after the rewind", k);
    play_text_move(&t);
    expect_verifies(&t, false);

    /* The same state from the snapshot taken at the rewind, and from a
     * replay of the whole log. */
    json_t *before = e2e_get(&t, "", NULL);
    restart(&t);
    json_t *cold = e2e_get(&t, "", NULL);
    cr_expect(json_equal(cold, before), "differs after a restart");
    json_decref(cold);
    sql("DELETE FROM snapshots");
    restart(&t);
    cold = e2e_get(&t, "", NULL);
    cr_expect(json_equal(cold, before), "differs when replayed from the log");
    json_decref(cold);

    /* Exported and restored, the rewound match is the same match. */
    char *text = export_of(&t.server, t.match, &admin);
    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = admin_import(&target, text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    e2e_table restored = t;
    restored.server = target;
    json_t *there = e2e_get(&restored, "", NULL);
    cr_expect(json_equal(there, before), "the restored match differs");
    json_decref(there);
    cr_assert(e2e_play_one(&restored));
    e2e_stop(&target);
    free(text);
    json_decref(before);

    /* To the end: the replay of a finished match skips what was undone. */
    for (int k = 0; k < 5000 && e2e_play_one(&t); k++)
        ;
    expect_verifies(&t, true);
    r = rewind_to(&t, &admin, rewound, "too late");
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect(strstr(message_of(&r), "seed") != NULL, "%s", message_of(&r));
    e2e_response_free(&r);
    json_decref(at_n);
    e2e_stop(&t.server);
}

static const char *open_decision(const json_t *match)
{
    const char *decision = json_string_value(
        json_object_get(json_object_get(match, "pending"), "decision"));
    return decision ? decision : "";
}

static size_t committed_in(const e2e_table *t, const char *decision)
{
    char suffix[128];
    snprintf(suffix, sizeof suffix, "/decisions/%s", decision);
    json_t *shown = e2e_get(t, suffix, NULL);
    size_t count = json_array_size(json_object_get(shown, "seats"));
    json_decref(shown);
    return count;
}

Test(admin_repair, rewinds_around_sealed_decisions, .timeout = 600)
{
    e2e_player admin;
    e2e_table t;
    admin_scene(&admin, &t, "adel_verplichtet", 3, NULL, 0);
    char db2[64];
    json_t *match = e2e_get(&t, "", NULL);
    char decision[64];
    snprintf(decision, sizeof decision, "%s", open_decision(match));
    cr_assert_neq(decision[0], '\0', "no sealed decision at the start");
    long long quiet = head_of(match);
    json_decref(match);

    /* Two seats commit (server-sealed): the decision is in progress. */
    cr_assert(e2e_play_one(&t));
    cr_assert(e2e_play_one(&t));
    cr_expect_eq(committed_in(&t, decision), 2);
    e2e_response r = rewind_to(&t, &admin, quiet + 1, "inside");
    cr_expect_eq(r.status, 422, "%s", r.body);
    cr_expect(strstr(message_of(&r), "sealed decision") != NULL, "%s",
              message_of(&r));
    e2e_response_free(&r);
    /* Its commitments are bound to its id: no copy under another. */
    char *text = export_of(&t.server, t.match, &admin);
    r = admin_import(&t.server, text, "?new_id=true", &admin);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "in_decision");
    e2e_response_free(&r);

    /* Restored under its own id, the decision goes on: the sealed choices
     * travel encrypted, only the seat still to choose is asked, and the
     * last commitment reveals the other two. */
    char db_mid[64];
    e2e_private_database(db_mid, sizeof db_mid);
    e2e_server mid = {0};
    memcpy(mid.key_file, t.server.key_file, sizeof mid.key_file);
    e2e_start(&mid);
    r = admin_import(&mid, text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    free(text);
    e2e_table resumed = t;
    resumed.server = mid;
    cr_expect_eq(committed_in(&resumed, decision), 2);
    json_t *rows = outbox_rows(t.match, "your_turn");
    cr_expect_eq(json_array_size(rows), 1, "%s", json_dumps(rows, 0));
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(rows, 0),
                                                       "player")),
                     t.players[2].id);
    json_decref(rows);
    cr_assert(e2e_play_one(&resumed));
    match = e2e_get(&resumed, "", NULL);
    cr_expect_str_neq(open_decision(match), decision, "not decided");
    json_decref(match);
    expect_verifies(&resumed, false);
    e2e_stop(&mid);

    /* Back to before the commitment: the sealed choice is gone, unrevealed,
     * and the seat may choose again. */
    r = rewind_to(&t, &admin, quiet, "the choice was sent by mistake");
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    cr_expect_eq(committed_in(&t, decision), 0);
    match = e2e_get(&t, "", NULL);
    cr_expect_str_eq(open_decision(match), decision);
    cr_expect_eq(json_array_size(json_object_get(
                     json_object_get(match, "pending"), "committed")),
                 0);
    json_decref(match);
    for (int i = 0; i < 10; i++) {
        match = e2e_get(&t, "", NULL);
        bool open = strcmp(open_decision(match), decision) == 0;
        json_decref(match);
        if (!open)
            break;
        cr_assert(e2e_play_one(&t));
    }
    match = e2e_get(&t, "", NULL);
    cr_assert_str_neq(open_decision(match), decision, "never decided");
    json_decref(match);

    /* Across the decided decision: it opens again, to be decided afresh. */
    r = rewind_to(&t, &admin, quiet, "replay the first round");
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    cr_expect_eq(committed_in(&t, decision), 0);
    match = e2e_get(&t, "", NULL);
    cr_expect_str_eq(open_decision(match), decision);
    json_decref(match);
    expect_verifies(&t, false);

    for (int k = 0; k < 20000 && e2e_play_one(&t); k++)
        ;
    expect_verifies(&t, true);
    json_t *verdict = e2e_get(&t, "/verify", NULL);
    cr_expect_gt(json_integer_value(json_object_get(verdict, "commitments")),
                 2);
    cr_expect_gt(json_integer_value(json_object_get(verdict, "events")), 256,
                 "the export should span several pages");
    json_decref(verdict);

    /* The whole log restores elsewhere, and copies beside itself. */
    text = export_of(&t.server, t.match, &admin);
    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = admin_import(&target, text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    r = admin_import(&target, text, "?new_id=true", &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_table copy = t;
    copy.server = target;
    snprintf(
        copy.match, sizeof copy.match, "%s",
        json_string_value(json_object_get(
            json_array_get(json_object_get(r.json, "imported"), 0), "match")));
    e2e_response_free(&r);
    expect_verifies(&copy, true);
    e2e_table restored = t;
    restored.server = target;
    expect_verifies(&restored, true);
    free(text);
    e2e_stop(&target);
    e2e_stop(&t.server);
}

/* Plays until seat must act. */
static void play_until_seat(e2e_table *t, int seat)
{
    for (int i = 0; i < 200; i++) {
        json_t *match = e2e_get(t, "", NULL);
        int next = e2e_first_pending_seat(match);
        json_decref(match);
        if (next == seat)
            return;
        cr_assert(e2e_play_one(t));
    }
    cr_assert_fail("seat %d never had to act", seat);
}

Test(admin_repair, an_admin_seats_another_player, .timeout = 300)
{
    e2e_player admin;
    e2e_table t;
    admin_scene(&admin, &t, "antiquity_quest", 2, NULL, 0);
    char db2[64];
    e2e_player carol;
    e2e_register(&t.server, "Carol", &carol);
    e2e_player eliza = t.players[1];
    cr_assert(e2e_play_one(&t));
    play_until_seat(&t, 1);

    char path[160];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/seats/1/replace",
             t.match);
    char body[256];
    snprintf(body, sizeof body, "{\"player\":\"%s\"}", carol.id);
    e2e_response r = admin_post(&t.server, path, body, &admin);
    cr_expect_eq(r.status, 400, "no reason: %s", r.body);
    e2e_response_free(&r);
    r = admin_post(&t.server, path,
                   "{\"player\":\"carol\",\"reason\":\"Eliza left\"}", &admin);
    cr_expect_eq(r.status, 400, "%s", r.body);
    e2e_response_free(&r);
    r = admin_post(&t.server, path, "{\"player\":\"p_1\",\"reason\":\"x\"}",
                   &admin);
    cr_expect_eq(r.status, 404, "%s", r.body);
    e2e_response_free(&r);
    snprintf(body, sizeof body, "{\"player\":\"%s\",\"reason\":\"x\"}",
             t.players[0].id);
    r = admin_post(&t.server, path, body, &admin);
    cr_expect_eq(r.status, 409, "already seated: %s", r.body);
    e2e_response_free(&r);
    char seven[160];
    snprintf(seven, sizeof seven, "/v1/admin/matches/%s/seats/7/replace",
             t.match);
    snprintf(body, sizeof body, "{\"player\":\"%s\",\"reason\":\"x\"}",
             carol.id);
    r = admin_post(&t.server, seven, body, &admin);
    cr_expect_eq(r.status, 404, "%s", r.body);
    e2e_response_free(&r);

    snprintf(body, sizeof body,
             "{\"player\":\"%s\",\"reason\":\"Eliza left the club\"}",
             carol.id);
    r = admin_post(&t.server, path, body, &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    long long replaced = json_integer_value(json_object_get(r.json, "seq"));
    json_t *seat1 = json_array_get(
        json_object_get(json_object_get(r.json, "match"), "seats"), 1);
    cr_expect_str_eq(json_string_value(json_object_get(seat1, "player")),
                     carol.id);
    e2e_response_free(&r);

    /* Carol acts for seat 1 now, and is told it is her turn; Eliza may
     * not act any more. */
    json_t *rows = outbox_rows(t.match, "your_turn");
    json_t *last = json_array_get(rows, json_array_size(rows) - 1);
    cr_expect_eq(json_integer_value(json_object_get(last, "seq")), replaced);
    cr_expect_str_eq(json_string_value(json_object_get(last, "player")),
                     carol.id);
    json_decref(rows);
    char view_path[128];
    snprintf(view_path, sizeof view_path, "/v1/matches/%s/view", t.match);
    r = e2e_call(&t.server, "GET", view_path, NULL, &eliza);
    cr_expect_eq(r.status, 403, "%s", r.body);
    e2e_response_free(&r);
    json_t *match = e2e_get(&t, "", NULL);
    json_t *anything = json_pack("{s:s}", "type", "whatever");
    r = e2e_post_move(&t, 1, head_of(match), anything);
    json_decref(anything);
    cr_expect_eq(r.status, 403, "Eliza moved: %s", r.body);
    e2e_response_free(&r);
    json_decref(match);
    t.players[1] = carol;
    json_t *mine = e2e_get(&t, "/view", &carol);
    cr_expect_eq(json_integer_value(json_object_get(mine, "seat")), 1);
    json_decref(mine);
    for (int i = 0; i < 6; i++)
        cr_assert(e2e_play_one(&t));
    expect_verifies(&t, false);

    /* The export lists the seats as joined and the replacement; moves
     * before it check against Eliza's key, after it against Carol's. */
    char *text = export_of(&t.server, t.match, &admin);
    int count;
    char **lines = split_lines(text, &count);
    json_t *header = json_loads(lines[0], 0, NULL);
    cr_expect_str_eq(
        json_string_value(json_object_get(
            json_array_get(json_object_get(header, "seats"), 1), "player")),
        eliza.id);
    cr_expect_str_eq(
        json_string_value(json_object_get(
            json_array_get(json_object_get(header, "replacements"), 0),
            "player")),
        carol.id);
    json_decref(header);
    char dir[] = "/tmp/pbem-replace-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char file[128], command[512];
    snprintf(file, sizeof file, "%s/match.jsonl", dir);
    FILE *out = fopen(file, "w");
    fputs(text, out);
    fclose(out);
    snprintf(command, sizeof command, "'%s' verify --export '%s' >/dev/null",
             getenv("PBEM_CLI"), file);
    cr_expect_eq(run(command), 0, "%s", command);

    /* The replacement's key cannot be swapped for Eliza's afterwards. */
    int at = line_of_kind(lines, count, "seat_replaced");
    cr_assert_gt(at, 0);
    json_t *event = json_loads(lines[at], 0, NULL);
    char eliza_key[64];
    sodium_bin2base64(eliza_key, sizeof eliza_key, eliza.key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    json_object_set_new(json_object_get(event, "data"), "public_key",
                        json_string(eliza_key));
    free(lines[at]);
    lines[at] = json_dumps(event, JSON_COMPACT);
    json_decref(event);
    rechain(lines, count, at);
    char *bad = join_lines(lines, count);
    free_lines(lines, count);

    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = admin_import(&target, bad, NULL, &admin);
    cr_expect_eq(r.status, 422, "%s", r.body);
    e2e_response_free(&r);
    free(bad);
    r = admin_import(&target, text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    e2e_table restored = t;
    restored.server = target;
    for (int i = 0; i < 4; i++)
        cr_assert(e2e_play_one(&restored));
    r = e2e_call(&target, "GET", view_path, NULL, &eliza);
    cr_expect_eq(r.status, 403, "%s", r.body);
    e2e_response_free(&r);
    expect_verifies(&restored, false);
    free(text);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    run(command);
    e2e_stop(&target);
    e2e_stop(&t.server);
}

Test(admin_repair, abort_ends_the_match_and_tells_everyone, .timeout = 120)
{
    e2e_player admin;
    e2e_table t;
    admin_scene(&admin, &t, "antiquity_quest", 2, NULL, 3);
    char db2[64];
    char path[128];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/abort", t.match);
    e2e_response r = admin_post(&t.server, path, "{}", &admin);
    cr_expect_eq(r.status, 400, "%s", r.body);
    e2e_response_free(&r);
    r = admin_post(&t.server, path,
                   "{\"reason\":\"both players asked to stop\"}", &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(r.json, "match"), "status")),
                     "aborted");
    e2e_response_free(&r);

    /* Nothing more is accepted, in so many words. */
    json_t *match = e2e_get(&t, "", NULL);
    cr_expect_str_eq(json_string_value(json_object_get(match, "status")),
                     "aborted");
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(match, "pending"), "wait")),
                     "nobody");
    json_t *draw = json_pack("{s:s}", "type", "draw");
    r = e2e_post_move(&t, 0, head_of(match), draw);
    json_decref(draw);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "aborted");
    cr_expect(strstr(message_of(&r), "aborted") != NULL, "%s", message_of(&r));
    e2e_response_free(&r);
    json_decref(match);
    char commit[160];
    snprintf(commit, sizeof commit, "/v1/matches/%s/decisions/d1/commit",
             t.match);
    r = e2e_call(&t.server, "POST", commit,
                 "{\"commitment\":\"00000000000000000000000000000000"
                 "00000000000000000000000000000000\"}",
                 &t.players[0]);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "aborted");
    e2e_response_free(&r);
    json_t *view = e2e_get(&t, "/view", &t.players[0]);
    json_decref(view);

    /* Both players are told. */
    json_t *rows = outbox_rows(t.match, "match_aborted");
    cr_expect_eq(json_array_size(rows), 2, "%s", json_dumps(rows, 0));
    json_decref(rows);

    r = admin_post(&t.server, path, "{\"reason\":\"again\"}", &admin);
    cr_expect_eq(r.status, 409, "%s", r.body);
    e2e_response_free(&r);
    r = rewind_to(&t, &admin, 5, "after an abort");
    cr_expect_eq(r.status, 409, "%s", r.body);
    e2e_response_free(&r);
    /* The seed is revealed: anyone can replay the aborted match. */
    expect_verifies(&t, true);

    char *text = export_of(&t.server, t.match, &admin);
    /* A match that never started can be aborted too. */
    r = e2e_call(&t.server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":2}", &t.players[0]);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_table waiting = t;
    snprintf(waiting.match, sizeof waiting.match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/admin/matches/%s/abort", waiting.match);
    r = admin_post(&t.server, path, "{\"reason\":\"nobody came\"}", &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    char join[128];
    snprintf(join, sizeof join, "/v1/matches/%s/join", waiting.match);
    r = e2e_call(&t.server, "POST", join, "{}", &t.players[1]);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "aborted");
    e2e_response_free(&r);
    expect_verifies(&waiting, false);
    r = e2e_call(&t.server, "GET", "/v1/admin/export?status=aborted", NULL,
                 &admin);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);

    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = admin_import(&target, text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    e2e_table restored = t;
    restored.server = target;
    match = e2e_get(&restored, "", NULL);
    cr_expect_str_eq(json_string_value(json_object_get(match, "status")),
                     "aborted");
    json_decref(match);
    expect_verifies(&restored, true);
    free(text);
    e2e_stop(&target);
    e2e_stop(&t.server);
}

/* The clocks of a seat in a public view that still wait for it. */
static int seats_waiting(const json_t *match)
{
    int waiting = 0;
    size_t i;
    const json_t *clock;
    json_array_foreach(json_object_get(match, "clocks"), i, clock) {
        if (json_object_get(clock, "waiting") != NULL)
            waiting++;
    }
    return waiting;
}

Test(admin_repair, abort_stops_the_matchs_clocks, .timeout = 120)
{
    e2e_player admin;
    e2e_table t;
    admin_scene(&admin, &t, "antiquity_quest", 2, NULL, 0);
    e2e_response r = e2e_call(
        &t.server, "POST", "/v1/matches",
        "{\"game\":\"antiquity_quest\",\"seats\":2,\"deadline\":"
        "{\"turn_hours\":24,\"reminder_hours\":12}}",
        &t.players[0]);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_table timed = t;
    snprintf(timed.match, sizeof timed.match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[128];
    snprintf(path, sizeof path, "/v1/matches/%s/join", timed.match);
    r = e2e_call(&t.server, "POST", path, "{}", &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    json_t *match = e2e_get(&timed, "", NULL);
    cr_assert_eq(seats_waiting(match), 1, "the first turn has a clock");
    json_decref(match);

    snprintf(path, sizeof path, "/v1/admin/matches/%s/abort", timed.match);
    r = admin_post(&t.server, path, "{\"reason\":\"the club closed\"}",
                   &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    /* Nobody is waited for any more, so no reminder or deadline comes. */
    match = e2e_get(&timed, "", NULL);
    cr_expect_eq(seats_waiting(match), 0, "%s",
                 json_dumps(json_object_get(match, "clocks"), 0));
    json_decref(match);
    e2e_stop(&t.server);
}

Test(admin_repair, admin_signatures_are_single_use, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db[64];
    e2e_private_database(db, sizeof db);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 4; i++)
        cr_assert(e2e_play_one(&t));
    json_t *match = e2e_get(&t, "", NULL);
    long long head = head_of(match);
    json_decref(match);
    char path[128], body[128];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/rewind", t.match);
    snprintf(body, sizeof body, "{\"to_seq\":%lld,\"reason\":\"once\"}",
             head - 1);
    int64_t created = (int64_t)time(NULL);
    e2e_response first = e2e_call_signed(&t.server, "POST", path, body, &admin,
                                         created, "admin-once", NULL, false);
    cr_assert_eq(first.status, 200, "%s", first.body);
    /* Replayed: the first answer, not a second rewind. */
    e2e_response again = e2e_call_signed(&t.server, "POST", path, body, &admin,
                                         created, "admin-once", NULL, false);
    cr_expect_eq(again.status, 200, "%s", again.body);
    cr_expect(json_equal(again.json, first.json), "another answer: %s",
              again.body);
    e2e_response_free(&again);
    match = e2e_get(&t, "", NULL);
    cr_expect_eq(head_of(match), head + 1, "the rewind was applied twice");
    json_decref(match);
    /* The same nonce for another request. */
    snprintf(body, sizeof body, "{\"to_seq\":%lld,\"reason\":\"twice\"}",
             head - 1);
    again = e2e_call_signed(&t.server, "POST", path, body, &admin, created,
                            "admin-once", NULL, false);
    cr_expect_eq(again.status, 401, "%s", again.body);
    cr_expect_str_eq(e2e_error_code(&again), "nonce_reused");
    e2e_response_free(&again);
    e2e_response_free(&first);

    /* A read cannot be replayed either. */
    snprintf(path, sizeof path, "/v1/admin/matches/%s/export", t.match);
    first = e2e_call_signed(&t.server, "GET", path, NULL, &admin, created,
                            "admin-export", NULL, false);
    cr_expect_eq(first.status, 200);
    again = e2e_call_signed(&t.server, "GET", path, NULL, &admin, created,
                            "admin-export", NULL, false);
    cr_expect_eq(again.status, 401, "%s", again.body);
    cr_expect_str_eq(e2e_error_code(&again), "nonce_reused");
    e2e_response_free(&again);

    /* An import replayed gets its first answer: one copy, not two. */
    e2e_response copied = e2e_call_signed(
        &t.server, "POST", "/v1/admin/matches/import?new_id=true", first.body,
        &admin, created, "admin-import", NULL, false);
    cr_assert_eq(copied.status, 201, "%s", copied.body);
    again = e2e_call_signed(&t.server, "POST",
                            "/v1/admin/matches/import?new_id=true", first.body,
                            &admin, created, "admin-import", NULL, false);
    cr_expect_eq(again.status, 201, "%s", again.body);
    cr_expect(json_equal(again.json, copied.json), "another answer: %s",
              again.body);
    e2e_response_free(&again);
    e2e_response all =
        e2e_call(&t.server, "GET", "/v1/admin/export", NULL, &admin);
    size_t headers = 0;
    for (const char *at = strstr(all.body, "\"format\""); at;
         at = strstr(at + 1, "\"format\""))
        headers++;
    cr_expect_eq(headers, 2, "the original and one copy");
    e2e_response_free(&all);
    e2e_response_free(&copied);
    e2e_response_free(&first);
    e2e_stop(&t.server);
}

/* A pbem command line: $PBEM_CLI, then the words of fmt with the admin's
 * key file and the server's URL after the subcommand's first words. */
static void pbem(char *out, size_t size, const char *key, int port,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void pbem(char *out, size_t size, const char *key, int port,
                 const char *fmt, ...)
{
    char rest[800];
    va_list args;
    va_start(args, fmt);
    vsnprintf(rest, sizeof rest, fmt, args);
    va_end(args);
    /* "admin rewind …" and "export …": options go after the subcommand. */
    size_t words = strncmp(rest, "admin ", 6) == 0 ? strcspn(rest + 6, " ") + 6
                                                   : strcspn(rest, " ");
    snprintf(out, size, "'%s' %.*s --key '%s' --url http://127.0.0.1:%d%s",
             getenv("PBEM_CLI"), (int)words, rest, key, port, rest + words);
}

Test(admin_repair, the_pbem_admin_commands, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    const char *cli = getenv("PBEM_CLI");
    cr_assert_not_null(cli, "PBEM_CLI is not set");
    e2e_player admin;
    admin_key(&admin);
    char db[64];
    e2e_private_database(db, sizeof db);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 4; i++)
        cr_assert(e2e_play_one(&t));
    e2e_player carol;
    e2e_register(&t.server, "Carol", &carol);
    char dir[] = "/tmp/pbem-admin-cli-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *key = admin_key_file(&admin, dir);
    char file[128], command[1024];
    snprintf(file, sizeof file, "%s/active.jsonl", dir);
    pbem(command, sizeof command, key, t.server.port,
         "admin rewind %s 7 --reason 'from the command line' >/dev/null",
         t.match);
    cr_expect_eq(run(command), 0, "%s", command);
    pbem(command, sizeof command, key, t.server.port,
         "admin rewind %s 1 --reason 'too far' 2>/dev/null", t.match);
    cr_expect_eq(run(command), 1, "%s", command);
    pbem(command, sizeof command, key, t.server.port,
         "admin replace %s 1 %s --reason 'seat 1 left' >/dev/null", t.match,
         carol.id);
    cr_expect_eq(run(command), 0, "%s", command);
    pbem(command, sizeof command, key, t.server.port,
         "export --status active --since 2000-01-01T00:00:00+00:00 > '%s'",
         file);
    cr_expect_eq(run(command), 0, "%s", command);
    snprintf(command, sizeof command, "grep -q '\"format\"' '%s'", file);
    cr_expect_eq(run(command), 0, "the export is empty");
    pbem(command, sizeof command, key, t.server.port,
         "import --new-id '%s' >/dev/null", file);
    cr_expect_eq(run(command), 0, "%s", command);
    pbem(command, sizeof command, key, t.server.port,
         "admin abort %s --reason 'done' >/dev/null 2>&1", t.match);
    cr_expect_eq(run(command), 0, "%s", command);
    cr_expect_eq(run(command), 1, "aborted twice: %s", command);
    snprintf(command, sizeof command, "'%s' admin 2>/dev/null", cli);
    cr_expect_eq(run(command), 2);
    snprintf(command, sizeof command,
             "'%s' admin abort --key '%s' %s 2>/dev/null", cli, key, t.match);
    cr_expect_eq(run(command), 2, "no reason");
    json_t *match = e2e_get(&t, "", NULL);
    cr_expect_str_eq(json_string_value(json_object_get(match, "status")),
                     "aborted");
    json_t *seat1 = json_array_get(json_object_get(match, "seats"), 1);
    cr_expect_str_eq(json_string_value(json_object_get(seat1, "player")),
                     carol.id);
    json_decref(match);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    run(command);
    e2e_stop(&t.server);
}
