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

#include "../../support/e2e.h"
#include "httpsig.h"
#include "rules.h"
#include "store.h"

static void admin_key(e2e_player *admin)
{
    memset(admin, 0, sizeof *admin);
    client_new_key(&admin->key);
    snprintf(admin->key.key_id, sizeof admin->key.key_id, "admin");
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, admin->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    setenv("PBEM_ADMIN_KEY", b64, 1);
}

/* Like e2e_sit_down, on a server already running. */
static void sit_down_on(e2e_table *t, const e2e_server *server,
                        const char *game, int seats)
{
    memset(t, 0, sizeof *t);
    t->server = *server;
    t->seats = seats;
    static const char *names[] = {"Ada", "Grace", "Alan", "Edsger"};
    for (int i = 0; i < seats; i++)
        e2e_register(&t->server, names[i], &t->players[i]);
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":%d}", game, seats);
    e2e_response r =
        e2e_call(&t->server, "POST", "/v1/matches", body, &t->players[0]);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    snprintf(t->match, sizeof t->match, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"),
                                               "id")));
    e2e_response_free(&r);
    for (int i = 1; i < seats; i++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/matches/%s/join", t->match);
        r = e2e_call(&t->server, "POST", path, "{}", &t->players[i]);
        cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
        e2e_response_free(&r);
    }
}

static char *export_of(const e2e_server *s, const char *match,
                       const e2e_player *admin)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/export", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, admin);
    cr_assert_eq(r.status, 200, "export %s: %ld %s", match, r.status, r.body);
    char *text = strdup(r.body);
    e2e_response_free(&r);
    return text;
}

static e2e_response import(const e2e_server *s, const char *text,
                           const e2e_player *admin)
{
    return e2e_call(s, "POST", "/v1/admin/matches/import", text, admin);
}

/* Lines of an export (a NULL-terminated array of malloc'd strings). */
static char **split_lines(const char *text, int *count)
{
    char **lines = calloc(strlen(text) + 2, sizeof *lines);
    int n = 0;
    const char *at = text;
    while (*at) {
        const char *nl = strchr(at, '\n');
        size_t len = nl ? (size_t)(nl - at) : strlen(at);
        lines[n++] = strndup(at, len);
        at += len + (nl ? 1 : 0);
    }
    *count = n;
    return lines;
}

static char *join_lines(char **lines, int count)
{
    size_t size = 1;
    for (int i = 0; i < count; i++)
        size += strlen(lines[i]) + 1;
    char *text = malloc(size);
    text[0] = '\0';
    for (int i = 0; i < count; i++) {
        strcat(text, lines[i]);
        strcat(text, "\n");
    }
    return text;
}

static void free_lines(char **lines, int count)
{
    for (int i = 0; i < count; i++)
        free(lines[i]);
    free(lines);
}

static void expect_refused(const e2e_server *s, const char *text,
                           const e2e_player *admin, const char *event,
                           const char *what)
{
    e2e_response r = import(s, text, admin);
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
    long long forged = 0;
    uint8_t prev[STORE_HASH_BYTES];
    for (int i = 1; i < count; i++) {
        json_t *event = json_loads(lines[i], 0, NULL);
        cr_assert_not_null(event);
        json_t *request =
            json_object_get(json_object_get(event, "data"), "request");
        if (forged == 0 && request != NULL) {
            const char *body =
                json_string_value(json_object_get(request, "body"));
            httpsig_request req = {
                .method = json_string_value(json_object_get(request, "method")),
                .target = json_string_value(json_object_get(request, "target")),
                .body = (const unsigned char *)body,
                .body_len = strlen(body),
            };
            const char *components[] = {"@method", "@path", "content-digest"};
            httpsig_headers headers;
            httpsig_error herr;
            cr_assert(httpsig_sign(
                &req, components, 3,
                json_string_value(json_object_get(request, "keyid")),
                "forged-nonce", 1700000000, NULL, forger.secret_key, &headers,
                &herr));
            json_object_set_new(request, "signature_input",
                                json_string(headers.signature_input));
            json_object_set_new(request, "signature",
                                json_string(headers.signature));
            json_object_set_new(request, "content_digest",
                                json_string(headers.content_digest));
            httpsig_headers_free(&headers);
            forged = json_integer_value(json_object_get(event, "seq"));
            size_t got = 0;
            const char *hex =
                json_string_value(json_object_get(event, "prev_hash"));
            sodium_hex2bin(prev, sizeof prev, hex, strlen(hex), NULL, &got,
                           NULL);
        }
        if (forged != 0) {
            char hex[2 * STORE_HASH_BYTES + 1];
            sodium_bin2hex(hex, sizeof hex, prev, sizeof prev);
            json_object_del(event, "hash");
            json_object_del(event, "prev_hash");
            char *bytes = rules_canonical_json(event);
            uint8_t hash[STORE_HASH_BYTES];
            store_chain_hash(prev, bytes, hash);
            free(bytes);
            json_object_set_new(event, "prev_hash", json_string(hex));
            sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
            json_object_set_new(event, "hash", json_string(hex));
            memcpy(prev, hash, sizeof prev);
            free(lines[i]);
            lines[i] = json_dumps(event, JSON_COMPACT);
        }
        json_decref(event);
    }
    cr_assert_gt(forged, 0, "no signed move in the export");
    return forged;
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

    r = import(&target, done_text, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    r = import(&target, midway_text, &admin);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    r = import(&target, midway_text, &admin);
    cr_expect_eq(r.status, 409, "imported twice: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    r = import(&target, midway_text, &midway.players[0]);
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

static int run(const char *command)
{
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
