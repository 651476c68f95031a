/* Export, verify and import (restore) of matches from their event logs,
 * through the admin API of the real binary: a round trip into a fresh
 * database with the same service key, play continuing after the restore,
 * and tampered exports refused with the event named. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "admin_support.h"
#include "ledger/httpsig.h"
#include "rules.h"
#include "store/store.h"

static void expect_refused(const e2e_server *s, const char *text,
                           const e2e_player *admin, const char *event,
                           const char *what)
{
    e2e_response r = admin_import(s, text, NULL, admin);
    cr_expect_eq(r.status, 422, "%s: %ld %s", what, r.status, r.body);
    const char *message = json_string_value(
        json_object_get(json_object_get(r.json, "error"), "message"));
    cr_expect(message != NULL && strstr(message, event) != NULL,
              "%s: the refusal does not name %s: %s", what, event,
              message ? message : r.body);
    e2e_response_free(&r);
}

/* Re-signs the first signed move with a key that is not the player's
 * (same keyid) and rewrites the hash chain from there on, so only the
 * signature check can tell. Returns the forged event's seq. */
static long long forge_signature(char **lines, int count)
{
    client_key forger;
    client_new_key(&forger);
    for (int i = 1; i < count; i++) {
        json_t *event = json_loads(lines[i], 0, NULL);
        cr_assert_not_null(event);
        json_t *request =
            json_object_get(json_object_get(event, "data"), "request");
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (request == NULL || kind == NULL || strcmp(kind, "move") != 0) {
            json_decref(event);
            continue;
        }
        const char *body = json_string_value(json_object_get(request, "body"));
        httpsig_request req = {
            .method = json_string_value(json_object_get(request, "method")),
            .target = json_string_value(json_object_get(request, "target")),
            .body = (const unsigned char *)body,
            .body_len = strlen(body),
        };
        const char *components[] = {"@method", "@path", "content-digest"};
        httpsig_headers headers;
        httpsig_error herr;
        cr_assert(
            httpsig_sign(&req, components, 3,
                         json_string_value(json_object_get(request, "keyid")),
                         "forged-nonce", 1700000000, NULL, forger.secret_key,
                         &headers, &herr));
        json_object_set_new(request, "signature_input",
                            json_string(headers.signature_input));
        json_object_set_new(request, "signature",
                            json_string(headers.signature));
        json_object_set_new(request, "content_digest",
                            json_string(headers.content_digest));
        httpsig_headers_free(&headers);
        long long forged = json_integer_value(json_object_get(event, "seq"));
        free(lines[i]);
        lines[i] = json_dumps(event, JSON_COMPACT);
        json_decref(event);
        rechain(lines, count, i);
        return forged;
    }
    cr_assert_fail("no signed move in the export");
    return 0;
}

static void tamper_tests(const e2e_server *target, const char *text,
                         const e2e_player *admin)
{
    int count;
    char **lines = split_lines(text, &count);
    cr_assert_gt(count, 6);

    /* One byte of event 2 (its timestamp's last digit before 'Z'). */
    char *copy = strdup(lines[2]);
    char *at = strstr(lines[2], "\"at\":\"");
    cr_assert_not_null(at);
    char *digit = strchr(at + 6, 'Z') - 1;
    *digit = *digit == '0' ? '1' : '0';
    char *bad = join_lines(lines, count);
    expect_refused(target, bad, admin, "event 2:", "one byte altered");
    free(bad);
    free(lines[2]);
    lines[2] = copy;

    /* Event 3 removed. */
    char *removed = lines[3];
    memmove(lines + 3, lines + 4, (size_t)(count - 4) * sizeof *lines);
    bad = join_lines(lines, count - 1);
    expect_refused(target, bad, admin, "event 3:", "one event removed");
    free(bad);
    memmove(lines + 4, lines + 3, (size_t)(count - 4) * sizeof *lines);
    lines[3] = removed;

    /* Events 3 and 4 swapped. */
    char *swap = lines[3];
    lines[3] = lines[4];
    lines[4] = swap;
    bad = join_lines(lines, count);
    expect_refused(target, bad, admin, "event 3:", "two events swapped");
    free(bad);
    lines[4] = lines[3];
    lines[3] = swap;

    /* A forged signature with a consistent chain. */
    char *intact = join_lines(lines, count);
    cr_assert_str_eq(intact, text);
    free(intact);
    long long seq = forge_signature(lines, count);
    char name[32];
    snprintf(name, sizeof name, "event %lld:", seq);
    bad = join_lines(lines, count);
    expect_refused(target, bad, admin, name, "forged signature");
    free(bad);
    free_lines(lines, count);
}

static json_t *public_of(const e2e_table *t)
{
    return e2e_get(t, "", NULL);
}

Test(admin_export, round_trip_tamper_and_play_on, .timeout = 600)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db1[64], db2[64];
    e2e_private_database(db1, sizeof db1);

    /* Two matches on the source server: one played to the end, one
     * stopped midway. */
    e2e_table done;
    e2e_sit_down(&done, "artifact_stack", 2, NULL);
    for (int i = 0; i < 5000 && e2e_play_one(&done); i++)
        ;
    json_t *done_match = public_of(&done);
    cr_assert_str_eq(json_string_value(json_object_get(done_match, "status")),
                     "finished");
    e2e_table midway;
    sit_down_on(&midway, &done.server, "antiquity_quest", 3);
    for (int i = 0; i < 12; i++)
        cr_assert(e2e_play_one(&midway));
    json_t *midway_match = public_of(&midway);
    json_t *done_events = e2e_all_events(&done);
    json_t *midway_events = e2e_all_events(&midway);

    /* Players cannot export. */
    char path[128];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/export", done.match);
    e2e_response r = e2e_call(&done.server, "GET", path, NULL, &done.players[0]);
    cr_assert_eq(r.status, 401, "%s", r.body);
    e2e_response_free(&r);

    char *done_text = export_of(&done.server, done.match, &admin);
    char *midway_text = export_of(&done.server, midway.match, &admin);
    cr_assert_gt(strlen(done_text), 65536,
                 "a whole match should need the larger import limit");
    r = e2e_call(&done.server, "GET", "/v1/admin/export?status=finished",
                 NULL, &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_str_eq(r.body, done_text);
    e2e_response_free(&r);
    r = e2e_call(&done.server, "GET", "/v1/admin/export?status=active", NULL,
                 &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_str_eq(r.body, midway_text);
    e2e_response_free(&r);
    r = e2e_call(&done.server, "GET", "/v1/admin/export?status=lost", NULL,
                 &admin);
    cr_expect_eq(r.status, 400);
    e2e_response_free(&r);

    /* A fresh database, the same service key. */
    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, done.server.key_file, sizeof target.key_file);
    e2e_start(&target);

    tamper_tests(&target, done_text, &admin);

    r = admin_import(&target, done_text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    r = admin_import(&target, midway_text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    r = admin_import(&target, midway_text, NULL, &admin);
    cr_expect_eq(r.status, 409, "imported twice: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    r = admin_import(&target, midway_text, NULL, &midway.players[0]);
    cr_expect_eq(r.status, 401, "a player imports: %ld %s", r.status, r.body);
    e2e_response_free(&r);

    /* The restored matches: same public log, same state, same export. */
    e2e_table done2 = done, midway2 = midway;
    done2.server = target;
    midway2.server = target;
    json_t *events = e2e_all_events(&done2);
    cr_expect(json_equal(events, done_events), "finished match: events differ");
    json_decref(events);
    events = e2e_all_events(&midway2);
    cr_expect(json_equal(events, midway_events), "midway match: events differ");
    json_decref(events);
    json_t *match = public_of(&done2);
    cr_expect(json_equal(match, done_match), "finished match differs");
    json_decref(match);
    match = public_of(&midway2);
    cr_expect(json_equal(match, midway_match), "midway match differs");
    json_decref(match);
    char *again = export_of(&target, done.match, &admin);
    cr_expect_str_eq(again, done_text, "the re-export is not byte-identical");
    free(again);
    json_t *verdict = e2e_get(&done2, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")));
    json_decref(verdict);

    /* Play continues on the restored match, with the players' own keys. */
    long long head = (long long)json_array_size(midway_events);
    for (int i = 0; i < 3; i++)
        cr_assert(e2e_play_one(&midway2), "move %d after the restore", i);
    events = e2e_all_events(&midway2);
    cr_expect_gt((long long)json_array_size(events), head);
    json_decref(events);
    verdict = e2e_get(&midway2, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s",
              json_dumps(verdict, 0));
    json_decref(verdict);

    json_decref(done_match);
    json_decref(midway_match);
    json_decref(done_events);
    json_decref(midway_events);
    free(done_text);
    free(midway_text);
    e2e_stop(&target);
    e2e_stop(&done.server);
}

Test(admin_export, pbem_export_verify_import, .timeout = 300)
{
    cr_assert(sodium_init() >= 0);
    const char *cli = getenv("PBEM_CLI");
    cr_assert_not_null(cli, "PBEM_CLI is not set");
    e2e_player admin;
    admin_key(&admin);
    char dir[] = "/tmp/pbem-admin-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char key_file[96], export_file[96], bad_file[96], command[1024];
    snprintf(key_file, sizeof key_file, "%s/admin.key", dir);
    snprintf(export_file, sizeof export_file, "%s/match.jsonl", dir);
    snprintf(bad_file, sizeof bad_file, "%s/bad.jsonl", dir);
    char seed[64];
    sodium_bin2base64(seed, sizeof seed, admin.key.secret_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    FILE *out = fopen(key_file, "w");
    cr_assert_not_null(out);
    fprintf(out, "%s\n", seed);
    fclose(out);

    char db1[64], db2[64];
    e2e_private_database(db1, sizeof db1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 6; i++)
        cr_assert(e2e_play_one(&t));
    snprintf(command, sizeof command,
             "'%s' export --key '%s' --url http://127.0.0.1:%d %s > '%s'", cli,
             key_file, t.server.port, t.match, export_file);
    cr_assert_eq(run(command), 0, "%s", command);
    snprintf(command, sizeof command, "'%s' verify --export '%s' >/dev/null",
             cli, export_file);
    cr_assert_eq(run(command), 0, "%s", command);
    /* One byte of the last event changed: verify names it and fails. */
    snprintf(command, sizeof command,
             "sed '$ s/\"kind\":\"/\"kind\":\"x/' '%s' > '%s'", export_file,
             bad_file);
    cr_assert_eq(run(command), 0);
    snprintf(command, sizeof command,
             "'%s' verify --export '%s' >/dev/null 2>&1", cli, bad_file);
    cr_assert_eq(run(command), 1, "a tampered export verifies");

    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    snprintf(command, sizeof command,
             "'%s' import --key '%s' --url http://127.0.0.1:%d '%s' >/dev/null",
             cli, key_file, target.port, export_file);
    cr_assert_eq(run(command), 0, "%s", command);
    cr_assert_eq(run(command), 1, "imported twice");
    e2e_table restored = t;
    restored.server = target;
    cr_assert(e2e_play_one(&restored));
    e2e_stop(&target);
    e2e_stop(&t.server);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    run(command);
}

static const char *error_message(const e2e_response *r)
{
    const char *message = json_string_value(
        json_object_get(json_object_get(r->json, "error"), "message"));
    return message ? message : "(no message)";
}

/* An export under a new id: verified, stored beside its original (which
 * stays as it was), verifiable and playable on its own. */
Test(admin_export, import_under_a_new_id_beside_the_original, .timeout = 300)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db1[64], db2[64];
    e2e_private_database(db1, sizeof db1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 8; i++)
        cr_assert(e2e_play_one(&t));
    char *text = export_of(&t.server, t.match, &admin);
    json_t *original = e2e_all_events(&t);
    size_t n = json_array_size(original);

    e2e_response r = admin_import(&t.server, text, "?new_id=maybe", &admin);
    cr_expect_eq(r.status, 400, "%s", r.body);
    e2e_response_free(&r);
    r = admin_import(&t.server, text, "?new_id=true", &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    json_t *entry = json_array_get(json_object_get(r.json, "imported"), 0);
    e2e_table copy = t;
    snprintf(copy.match, sizeof copy.match, "%s",
             json_string_value(json_object_get(entry, "match")));
    cr_expect_str_neq(copy.match, t.match);
    cr_expect_str_eq(json_string_value(json_object_get(entry, "from")),
                     t.match);
    cr_expect_eq(json_integer_value(json_object_get(entry, "events")),
                 (json_int_t)n + 1);
    e2e_response_free(&r);

    /* The copy's log: the original's events unchanged, then `imported`. */
    json_t *events = e2e_all_events(&copy);
    cr_assert_eq(json_array_size(events), n + 1);
    for (size_t i = 0; i < n; i++)
        cr_expect(
            json_equal(json_array_get(events, i), json_array_get(original, i)),
            "event %zu of the copy differs", i + 1);
    json_t *marker = json_array_get(events, n);
    cr_expect_str_eq(json_string_value(json_object_get(marker, "kind")),
                     "imported");
    cr_expect_str_eq(json_string_value(json_object_get(marker, "match")),
                     copy.match);
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(marker, "data"), "from")),
                     t.match);
    json_decref(events);
    json_t *verdict = e2e_get(&copy, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s",
              json_dumps(verdict, 0));
    json_decref(verdict);

    /* Play goes on in the copy, signed for the copy's id; the original
     * does not move. */
    json_t *original_match = e2e_get(&t, "", NULL);
    for (int i = 0; i < 4; i++)
        cr_assert(e2e_play_one(&copy), "move %d on the copy", i);
    json_t *still = e2e_get(&t, "", NULL);
    cr_expect(json_equal(still, original_match), "the original moved");
    json_decref(still);
    json_decref(original_match);
    events = e2e_all_events(&t);
    cr_expect(json_equal(events, original), "the original's log changed");
    json_decref(events);
    verdict = e2e_get(&copy, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s",
              json_dumps(verdict, 0));
    json_decref(verdict);

    /* The copy's own export verifies and restores elsewhere, once. */
    char *copy_text = export_of(&t.server, copy.match, &admin);
    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = admin_import(&target, copy_text, NULL, &admin);
    cr_expect_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    r = admin_import(&target, copy_text, NULL, &admin);
    cr_expect_eq(r.status, 409, "imported twice: %s", r.body);
    e2e_response_free(&r);
    e2e_table restored = copy;
    restored.server = target;
    cr_assert(e2e_play_one(&restored));
    verdict = e2e_get(&restored, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s",
              json_dumps(verdict, 0));
    json_decref(verdict);

    json_decref(original);
    free(text);
    free(copy_text);
    e2e_stop(&target);
    e2e_stop(&t.server);
}

/* After a restore, whoever must act is told, as after any move. */
Test(admin_export, a_restored_match_tells_whoever_must_act, .timeout = 120)
{
    e2e_player admin;
    e2e_table t;
    admin_scene(&admin, &t, "antiquity_quest", 2, NULL, 5);
    char db2[64];
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    long long head = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    char *text = export_of(&t.server, t.match, &admin);

    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    json_t *rows = outbox_rows(t.match, "your_turn");
    cr_expect_eq(json_array_size(rows), 0);
    json_decref(rows);
    e2e_response r = admin_import(&target, text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    rows = outbox_rows(t.match, "your_turn");
    cr_assert_eq(json_array_size(rows), 1, "%s", json_dumps(rows, 0));
    json_t *row = json_array_get(rows, 0);
    cr_expect_eq(json_integer_value(json_object_get(row, "seq")), head);
    cr_expect_str_eq(json_string_value(json_object_get(row, "player")),
                     t.players[seat].id);
    cr_expect_str_eq(json_string_value(json_object_get(row, "channel")),
                     "email");
    json_decref(rows);
    free(text);
    e2e_stop(&target);
    e2e_stop(&t.server);
}

static size_t headers_in(const char *text)
{
    size_t count = 0;
    for (const char *at = strstr(text, "{\"format\""); at != NULL;
         at = strstr(at + 1, "{\"format\""))
        count++;
    return count;
}

/* Bulk exports select by status and by the time of the last event, in
 * pages (more matches than one page holds). */
Test(admin_export, bulk_export_by_status_and_date, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db[64];
    e2e_private_database(db, sizeof db);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    cr_assert(e2e_play_one(&t));
    for (int i = 0; i < 70; i++) {
        e2e_response r = e2e_call(&t.server, "POST", "/v1/matches",
                                  "{\"game\":\"antiquity_quest\",\"seats\":2}",
                                  &t.players[i % 2]);
        cr_assert_eq(r.status, 201, "%s", r.body);
        e2e_response_free(&r);
    }
    static const struct {
        const char *query;
        size_t matches;
    } cases[] = {
        {"", 71},
        {"?status=open", 70},
        {"?status=active", 1},
        {"?status=aborted", 0},
        {"?since=2000-01-01T00:00:00Z", 71},
        {"?status=active&since=2000-01-01T00:00:00%2B02:00", 1},
        {"?until=2000-01-01T00:00:00Z", 0},
        {"?since=2999-12-31T23:59:59.5Z", 0},
        {"?since=2000-01-01T00:00:00Z&until=2999-01-01T00:00:00-05:00", 71},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[160];
        snprintf(path, sizeof path, "/v1/admin/export%s", cases[i].query);
        e2e_response r = e2e_call(&t.server, "GET", path, NULL, &admin);
        cr_assert_eq(r.status, 200, "%s: %s", path, r.body);
        cr_expect_eq(headers_in(r.body ? r.body : ""), cases[i].matches,
                     "%s: %zu matches", path, headers_in(r.body ? r.body : ""));
        e2e_response_free(&r);
    }
    static const char *const bad[] = {
        "?since=yesterday",
        "?since=2026-13-01T00:00:00Z",
        "?until=2026-02-30T00:00:00Z",
        "?since=2026-01-01%2000:00:00Z",
        "?status=lost",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[160];
        snprintf(path, sizeof path, "/v1/admin/export%s", bad[i]);
        e2e_response r = e2e_call(&t.server, "GET", path, NULL, &admin);
        cr_expect_eq(r.status, 400, "%s: %ld %s", path, r.status, r.body);
        cr_expect(strstr(error_message(&r), "RFC 3339") != NULL ||
                      strstr(error_message(&r), "status") != NULL,
                  "%s: %s", path, error_message(&r));
        e2e_response_free(&r);
    }
    e2e_stop(&t.server);
}

/* A signed request is bound to its move: the same valid signature cannot
 * carry another action, nor be moved to another point of the match. */
Test(admin_export, a_valid_signature_cannot_carry_another_move, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db1[64], db2[64];
    e2e_private_database(db1, sizeof db1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 6; i++)
        cr_assert(e2e_play_one(&t));
    /* A move sent as text, as by email. */
    long long texted = play_text_move(&t);
    cr_assert(e2e_play_one(&t));
    char *text = export_of(&t.server, t.match, &admin);
    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);

    int count;
    char **lines = split_lines(text, &count);
    int first = line_of_kind(lines, count, "move");
    cr_assert_gt(first, 0);
    /* The recorded action changed, the request left as signed. */
    json_t *event = json_loads(lines[first], 0, NULL);
    json_object_set_new(json_object_get(event, "data"), "action",
                        json_pack("{s:s}", "type", "smuggled"));
    free(lines[first]);
    lines[first] = json_dumps(event, JSON_COMPACT);
    json_decref(event);
    rechain(lines, count, first);
    char *bad = join_lines(lines, count);
    e2e_response r = admin_import(&target, bad, NULL, &admin);
    cr_expect_eq(r.status, 422, "%s", r.body);
    char expected[48];
    snprintf(expected, sizeof expected, "event %d:", first);
    cr_expect(strstr(error_message(&r), expected) != NULL &&
                  strstr(error_message(&r), "another move") != NULL,
              "%s", error_message(&r));
    e2e_response_free(&r);
    free(bad);
    free_lines(lines, count);

    /* Two moves' requests swapped: each signature is valid, for the
     * wrong point of the match. */
    lines = split_lines(text, &count);
    int second = -1;
    for (int i = first + 1; i < count && second < 0; i++) {
        if (strstr(lines[i], "\"kind\":\"move\"") != NULL)
            second = i;
    }
    cr_assert_gt(second, first);
    json_t *a = json_loads(lines[first], 0, NULL);
    json_t *b = json_loads(lines[second], 0, NULL);
    json_t *ra =
        json_incref(json_object_get(json_object_get(a, "data"), "request"));
    json_object_set(json_object_get(a, "data"), "request",
                    json_object_get(json_object_get(b, "data"), "request"));
    json_object_set_new(json_object_get(b, "data"), "request", ra);
    free(lines[first]);
    free(lines[second]);
    lines[first] = json_dumps(a, JSON_COMPACT);
    lines[second] = json_dumps(b, JSON_COMPACT);
    json_decref(a);
    json_decref(b);
    rechain(lines, count, first);
    bad = join_lines(lines, count);
    r = admin_import(&target, bad, NULL, &admin);
    cr_expect_eq(r.status, 422, "%s", r.body);
    cr_expect(strstr(error_message(&r), expected) != NULL, "%s",
              error_message(&r));
    e2e_response_free(&r);
    free(bad);
    free_lines(lines, count);

    /* A text move's recorded action changed: only a replay from the sealed
     * seed can hold the text against it, and the import does. */
    lines = split_lines(text, &count);
    json_t *moved = json_loads(lines[texted], 0, NULL);
    cr_assert_not_null(
        strstr(json_string_value(json_object_get(
                   json_object_get(json_object_get(moved, "data"), "request"),
                   "body")),
               "\"move\""));
    json_object_set_new(json_object_get(moved, "data"), "action",
                        json_pack("{s:s}", "type", "pass"));
    free(lines[texted]);
    lines[texted] = json_dumps(moved, JSON_COMPACT);
    json_decref(moved);
    rechain(lines, count, (int)texted);
    bad = join_lines(lines, count);
    r = admin_import(&target, bad, NULL, &admin);
    cr_expect_eq(r.status, 422, "%s", r.body);
    snprintf(expected, sizeof expected, "event %lld", texted);
    cr_expect(strstr(error_message(&r), expected) != NULL &&
                  strstr(error_message(&r), "asked for") != NULL,
              "%s", error_message(&r));
    e2e_response_free(&r);
    free(bad);
    free_lines(lines, count);

    r = admin_import(&target, text, NULL, &admin);
    cr_expect_eq(r.status, 201, "the untouched export: %s", r.body);
    e2e_response_free(&r);
    free(text);
    e2e_stop(&target);
    e2e_stop(&t.server);
}

/* A player id the target knows with another key than the export's header
 * gives it is refused (409), the whole import with it. */
Test(admin_export, a_player_id_with_another_key_is_refused, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db1[64], db2[64];
    e2e_private_database(db1, sizeof db1);
    e2e_table x;
    e2e_sit_down(&x, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 3; i++)
        cr_assert(e2e_play_one(&x));
    /* A second match of the same players, started, no move yet: its log
     * has no signed request, so only the header says which key is whose. */
    e2e_response r =
        e2e_call(&x.server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":2}", &x.players[0]);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_table y = x;
    snprintf(y.match, sizeof y.match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", y.match);
    r = e2e_call(&x.server, "POST", path, "{}", &x.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    char *x_text = export_of(&x.server, x.match, &admin);
    char *y_text = export_of(&x.server, y.match, &admin);

    int count;
    char **lines = split_lines(y_text, &count);
    json_t *header = json_loads(lines[0], 0, NULL);
    json_t *seat0 = json_array_get(json_object_get(header, "seats"), 0);
    client_key other;
    client_new_key(&other);
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, other.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    json_object_set_new(seat0, "public_key", json_string(b64));
    json_object_set_new(seat0, "key_id", json_string("k_0123456789abcdef"));
    free(lines[0]);
    lines[0] = json_dumps(header, JSON_COMPACT);
    json_decref(header);
    char *y_other_key = join_lines(lines, count);
    free_lines(lines, count);

    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, x.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = admin_import(&target, x_text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    r = admin_import(&target, y_other_key, NULL, &admin);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "player_conflict");
    cr_expect(strstr(error_message(&r), x.players[0].id) != NULL, "%s",
              error_message(&r));
    e2e_response_free(&r);
    r = admin_import(&target, y_text, NULL, &admin);
    cr_expect_eq(r.status, 201, "with the right key: %s", r.body);
    e2e_response_free(&r);
    free(x_text);
    free(y_text);
    free(y_other_key);
    e2e_stop(&target);
    e2e_stop(&x.server);
}

/* A match with deadlines keeps them through an export and an import: the
 * settings come back from the created event and whoever must act has a
 * running clock again. */
Test(admin_export, a_restored_match_keeps_its_deadlines, .timeout = 120)
{
    e2e_player admin;
    admin_key(&admin);
    char db1[64], db2[64];
    e2e_private_database(db1, sizeof db1);
    e2e_server source = {0};
    e2e_start(&source);
    e2e_player a, b;
    e2e_register(&source, "Robert", &a);
    e2e_register(&source, "Eliza", &b);
    e2e_response r = e2e_call(&source, "POST", "/v1/matches",
                              "{\"game\":\"antiquity_quest\",\"seats\":2,"
                              "\"deadline\":{\"turn_hours\":48,"
                              "\"reminder_hours\":6,\"action\":\"skip\"}}",
                              &a);
    cr_assert_eq(r.status, 201, "%s", r.body);
    char match[32], path[96];
    snprintf(match, sizeof match, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    r = e2e_call(&source, "POST", path, "{}", &b);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    char *text = export_of(&source, match, &admin);
    e2e_stop(&source);

    e2e_private_database(db2, sizeof db2);
    e2e_server target = {0};
    memcpy(target.key_file, source.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = admin_import(&target, text, NULL, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    r = e2e_call(&target, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *deadline = json_object_get(r.json, "deadline");
    cr_expect_eq(json_integer_value(json_object_get(deadline, "turn_hours")), 48,
                 "%s", r.body);
    cr_expect_str_eq(json_string_value(json_object_get(deadline, "action")), "skip");
    /* One clock runs: the seat the restored match waits for. */
    size_t running = 0, i;
    json_t *clock;
    json_array_foreach(json_object_get(r.json, "clocks"), i, clock)
        running += json_object_get(clock, "waiting") != NULL;
    cr_expect_eq(running, 1, "clocks: %s", r.body);
    e2e_response_free(&r);
    free(text);
    e2e_stop(&target);
}

/* Imports an edited export into a second installation beside x's: it must
 * be refused as a bad export whose sentence names player and word. */
static void expect_bad_export(const e2e_table *x, const char *edited,
                              const e2e_player *admin, const char *player,
                              const char *word, e2e_server *target)
{
    start_beside(&x->server, target);
    e2e_response r = admin_import(target, edited, NULL, admin);
    cr_expect_eq(r.status, 422, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "bad_export");
    cr_expect(strstr(error_message(&r), player) != NULL &&
                  strstr(error_message(&r), word) != NULL,
              "%s", error_message(&r));
    e2e_response_free(&r);
}

/* An export edited to seat one player twice is refused in words (the
 * seats table would refuse it too, as a bare database error). */
Test(admin_export, one_player_in_two_seats_is_refused, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db1[64];
    e2e_private_database(db1, sizeof db1);
    e2e_table x;
    e2e_sit_down(&x, "antiquity_quest", 2, NULL);
    char *text = export_of(&x.server, x.match, &admin);
    int count;
    char **lines = split_lines(text, &count);
    json_t *header = json_loads(lines[0], 0, NULL);
    json_t *seats = json_object_get(header, "seats");
    json_t *twice = json_deep_copy(json_array_get(seats, 0));
    json_object_set_new(twice, "seat", json_integer(1));
    json_array_set_new(seats, 1, twice);
    replace_line(lines, 0, header);
    json_decref(header);
    /* The joined event of seat 1 says so too, with the chain rewritten. */
    int edited_line = 0;
    for (int i = 1; i < count && edited_line == 0; i++) {
        json_t *event = json_loads(lines[i], 0, NULL);
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (kind != NULL && strcmp(kind, "joined") == 0 &&
            json_integer_value(json_object_get(event, "seat")) == 1) {
            json_object_set_new(json_object_get(event, "data"), "player",
                                json_string(x.players[0].id));
            replace_line(lines, i, event);
            edited_line = i;
        }
        json_decref(event);
    }
    cr_assert_gt(edited_line, 0, "no joined event for seat 1");
    rechain(lines, count, edited_line);
    char *edited = join_lines(lines, count);
    free_lines(lines, count);

    e2e_server target;
    expect_bad_export(&x, edited, &admin, x.players[0].id, "twice", &target);
    e2e_response r = admin_import(&target, text, NULL, &admin);
    cr_expect_eq(r.status, 201, "the export as made: %s", r.body);
    e2e_response_free(&r);
    free(text);
    free(edited);
    e2e_stop(&target);
    e2e_stop(&x.server);
}

/* An export edited to give a player an email that would break a mail
 * header is refused like such a registration: the address would later go
 * into To: and the SMTP envelope as it is. */
Test(admin_export, an_email_that_could_break_a_mail_header_is_refused,
     .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db1[64];
    e2e_private_database(db1, sizeof db1);
    e2e_table x;
    e2e_sit_down(&x, "antiquity_quest", 2, NULL);
    char *text = export_of(&x.server, x.match, &admin);
    int count;
    char **lines = split_lines(text, &count);
    json_t *header = json_loads(lines[0], 0, NULL);
    json_t *seat = json_array_get(json_object_get(header, "seats"), 0);
    cr_assert_not_null(json_object_get(seat, "email"), "%s", lines[0]);
    json_object_set_new(seat, "email",
                        json_string("eve@example.org\r\nBcc: all@example.org"));
    replace_line(lines, 0, header);
    json_decref(header);
    char *edited = join_lines(lines, count);
    free_lines(lines, count);

    e2e_server target;
    expect_bad_export(&x, edited, &admin, x.players[0].id, "email", &target);
    free(edited);
    free(text);
    e2e_stop(&target);
    e2e_stop(&x.server);
}

/* The matches of an import are checked side by side, but the refusal
 * names the first bad match in the export's order, whichever thread found
 * which first, and nothing of a refused import is kept. */
Test(admin_export, a_bulk_import_names_its_first_bad_match, .timeout = 300)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    char db[64];
    e2e_private_database(db, sizeof db);
    enum { matches = 8 };
    e2e_table t[matches];
    e2e_sit_down(&t[0], "antiquity_quest", 2, NULL);
    for (int m = 1; m < matches; m++)
        sit_down_on(&t[m], &t[0].server, "antiquity_quest", 2);
    for (int m = 0; m < matches; m++)
        for (int i = 0; i < 6; i++)
            cr_assert(e2e_play_one(&t[m]));
    e2e_response r = e2e_call(&t[0].server, "GET",
                              "/v1/admin/export?status=active", NULL, &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    char *good = strdup(r.body);
    e2e_response_free(&r);
    int count;
    char **lines = split_lines(good, &count);
    /* The header lines, in the export's order, and each one's match. */
    int header[matches], seen = 0;
    char ref[matches][32];
    for (int i = 0; i < count; i++) {
        json_t *line = json_loads(lines[i], 0, NULL);
        const char *format =
            json_string_value(json_object_get(line, "format"));
        if (format != NULL) {
            cr_assert_lt(seen, matches);
            header[seen] = i;
            snprintf(ref[seen], sizeof ref[seen], "%s",
                     json_string_value(json_object_get(line, "match")));
            seen++;
        }
        json_decref(line);
    }
    cr_assert_eq(seen, matches);
    /* One byte of the third event of the 4th and the 7th match. */
    const int bad_ones[] = {3, 6};
    for (size_t b = 0; b < 2; b++) {
        char *line = lines[header[bad_ones[b]] + 3];
        char *at = strstr(line, "\"at\":\"");
        cr_assert_not_null(at);
        char *digit = strchr(at + 6, 'Z') - 1;
        *digit = *digit == '0' ? '1' : '0';
    }
    char *bad = join_lines(lines, count);
    free_lines(lines, count);
    e2e_server target = {0};
    start_beside(&t[0].server, &target);
    for (int attempt = 0; attempt < 5; attempt++) {
        r = admin_import(&target, bad, NULL, &admin);
        cr_assert_eq(r.status, 422, "%s", r.body);
        cr_expect(strstr(r.body, ref[3]) != NULL &&
                      strstr(r.body, ref[6]) == NULL,
                  "the refusal should name %s alone: %s", ref[3], r.body);
        e2e_response_free(&r);
    }
    r = e2e_call(&target, "GET", "/v1/admin/export", NULL, &admin);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(headers_in(r.body ? r.body : ""), 0,
                 "a refused import kept a match");
    e2e_response_free(&r);
    r = admin_import(&target, good, NULL, &admin);
    cr_expect_eq(r.status, 201, "%s", r.body);
    cr_expect_eq(json_array_size(json_object_get(r.json, "imported")),
                 (size_t)matches, "%s", r.body);
    e2e_response_free(&r);
    free(bad);
    free(good);
    e2e_stop(&target);
    e2e_stop(&t[0].server);
}
