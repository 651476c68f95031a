/* Sealed simultaneous decisions and provably fair play, end to end, with a
 * game built on secret choices (Adel Verplichtet): nobody, not even someone
 * reading the database, sees a choice before all are in; commitments and
 * the seed let anyone verify the whole match; tampering is named. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "../../support/pgtest.h"
#include "ledger/seal.h"
#include "ledger/verify.h"
#include "rules.h"
#include "store/store.h"

#ifndef E2E_SEALED_GAME
#define E2E_SEALED_GAME "adel_verplichtet"
#endif

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

static const char *open_decision(const json_t *match)
{
    return json_string_value(
        json_object_get(json_object_get(match, "pending"), "decision"));
}

/* Everything PostgreSQL holds for the test database, as text. */
static char *dump_database(void)
{
    FILE *dump = popen(
        "pg_dump --data-only --no-owner \"$DATABASE_URL\" 2>/dev/null", "r");
    cr_assert_not_null(dump);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, dump)) > 0)
        fwrite(buffer, 1, n, out);
    cr_assert_eq(pclose(dump), 0, "pg_dump failed");
    fclose(out);
    return text;
}

static void expect_absent(const char *haystack, const char *needle,
                          const char *where)
{
    cr_expect_null(strstr(haystack, needle), "%s contains the sealed choice %s",
                   where, needle);
}

Test(sealed, no_choice_is_visible_before_every_seat_has_committed,
     .timeout = 120)
{
    char database_name[64];
    e2e_private_database(database_name, sizeof database_name);
    e2e_table t;
    e2e_sit_down(&t, E2E_SEALED_GAME, 3, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(match, "pending"), "wait")),
                     "simultaneous");
    char decision[64];
    snprintf(decision, sizeof decision, "%s", open_decision(match));
    json_decref(match);

    /* Seat 0: server-sealed, by a plain move. */
    long long seq;
    json_t *choice0 = first_legal(&t, 0, &seq);
    char *canonical0 = rules_sorted_json(choice0);
    e2e_response r = e2e_post_move(&t, 0, seq, choice0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(!json_is_true(json_object_get(r.json, "decided")));
    e2e_response_free(&r);
    /* Changing a committed choice is refused. */
    r = e2e_post_move(&t, 0, seq + 1, choice0);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "already_committed");
    e2e_response_free(&r);

    /* Seat 1: client commit-reveal; the service never sees the choice. */
    json_t *choice1 = first_legal(&t, 1, &seq);
    char *canonical1 = rules_sorted_json(choice1);
    uint8_t nonce1[SEAL_NONCE_BYTES], commitment1[SEAL_HASH_BYTES];
    char nonce1_hex[65], commitment1_hex[65], path[160];
    randombytes_buf(nonce1, sizeof nonce1);
    seal_choice_commitment(t.match, decision, 1, canonical1, nonce1,
                           commitment1);
    sodium_bin2hex(nonce1_hex, sizeof nonce1_hex, nonce1, sizeof nonce1);
    sodium_bin2hex(commitment1_hex, sizeof commitment1_hex, commitment1,
                   sizeof commitment1);
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/%s/commit", t.match,
             decision);
    char body[256];
    snprintf(body, sizeof body, "{\"commitment\":\"%s\"}", commitment1_hex);
    r = e2e_call(&t.server, "POST", path, body, &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);

    /* Mid-decision: the whole database, the public log, the public match
     * and the decision as others see it hold no choice in clear. */
    char *database = dump_database();
    expect_absent(database, canonical0, "the database");
    free(database);
    json_t *events = e2e_all_events(&t);
    char *text = json_dumps(events, JSON_COMPACT | JSON_SORT_KEYS);
    expect_absent(text, canonical0, "the public log");
    free(text);
    json_decref(events);
    snprintf(path, sizeof path, "/decisions/%s", decision);
    for (int viewer = -1; viewer < 3; viewer++) {
        json_t *shown =
            e2e_get(&t, path, viewer >= 0 ? &t.players[viewer] : NULL);
        text = json_dumps(shown, JSON_COMPACT | JSON_SORT_KEYS);
        if (viewer != 0)
            expect_absent(text, canonical0,
                          "another seat's view of the decision");
        else
            cr_expect_not_null(
                strstr(text, canonical0),
                "seat 0 cannot read back its own sealed choice: %s", text);
        free(text);
        json_t *seats = json_object_get(shown, "seats");
        cr_expect_eq(json_array_size(seats), 2, "two seats have committed");
        json_decref(shown);
    }
    match = e2e_get(&t, "", NULL);
    json_t *pending = json_object_get(match, "pending");
    cr_expect_eq(json_array_size(json_object_get(pending, "seats")), 1,
                 "only seat 2 is still to choose");
    cr_expect_eq(json_array_size(json_object_get(pending, "committed")), 2);
    json_decref(match);

    /* Seat 2 commits (server-sealed): the sealed choices are revealed, the
     * client one is awaited. */
    json_t *choice2 = first_legal(&t, 2, &seq);
    r = e2e_post_move(&t, 2, seq, choice2);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(!json_is_true(json_object_get(r.json, "decided")),
              "decided before seat 1 revealed");
    e2e_response_free(&r);
    events = e2e_all_events(&t);
    text = json_dumps(events, JSON_COMPACT | JSON_SORT_KEYS);
    cr_expect_not_null(strstr(text, canonical0),
                       "seat 0's choice is not revealed");
    free(text);
    json_decref(events);

    /* A reveal that does not match the commitment is refused; the right
     * one decides. */
    snprintf(path, sizeof path, "/v1/matches/%s/decisions/%s/reveal", t.match,
             decision);
    char wrong_nonce[65];
    memcpy(wrong_nonce, nonce1_hex, sizeof wrong_nonce);
    wrong_nonce[0] = wrong_nonce[0] == 'a' ? 'b' : 'a';
    json_t *reveal =
        json_pack("{s:O,s:s}", "action", choice1, "nonce", wrong_nonce);
    char *reveal_text = json_dumps(reveal, JSON_COMPACT);
    r = e2e_call(&t.server, "POST", path, reveal_text, &t.players[1]);
    cr_expect_eq(r.status, 422, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "commitment_mismatch");
    e2e_response_free(&r);
    free(reveal_text);
    json_object_set_new(reveal, "nonce", json_string(nonce1_hex));
    reveal_text = json_dumps(reveal, JSON_COMPACT);
    r = e2e_call(&t.server, "POST", path, reveal_text, &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(json_is_true(json_object_get(r.json, "decided")));
    e2e_response_free(&r);
    free(reveal_text);
    json_decref(reveal);

    match = e2e_get(&t, "", NULL);
    cr_expect_str_neq((char *)open_decision(match) ? open_decision(match) : "",
                      decision, "the decision is still open");
    json_decref(match);
    json_t *verdict = e2e_get(&t, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s",
              json_dumps(verdict, JSON_COMPACT));
    cr_expect_eq(json_integer_value(json_object_get(verdict, "commitments")),
                 3);
    json_decref(verdict);
    free(canonical0);
    free(canonical1);
    json_decref(choice0);
    json_decref(choice1);
    json_decref(choice2);
    e2e_stop(&t.server);
    char command[160];
    snprintf(command, sizeof command,
             "psql -X -q \"$PBEM_ADMIN_DATABASE_URL\" -c 'DROP DATABASE \"%s\" "
             "WITH (FORCE)' >/dev/null 2>&1",
             database_name);
    if (system(command) != 0)
        cr_log_warn("could not drop %s", database_name);
}

/* Recomputes every hash after an edit, as a forger rewriting the log
 * would, so only the meaning of the events can give the edit away. */
static void rechain(json_t *events)
{
    uint8_t prev[32] = {0};
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event)
    {
        char hex[65];
        sodium_bin2hex(hex, sizeof hex, prev, 32);
        json_object_set_new(event, "prev_hash", json_string(hex));
        json_object_set_new(event, "seq", json_integer((json_int_t)i + 1));
        json_t *body = json_deep_copy(event);
        json_object_del(body, "hash");
        json_object_del(body, "prev_hash");
        /* The told sentence is not recorded (openapi.yaml, Event). */
        json_object_del(body, "text");
        char *bytes = rules_sorted_json(body);
        chain_hash(prev, bytes, prev);
        free(bytes);
        json_decref(body);
        sodium_bin2hex(hex, sizeof hex, prev, 32);
        json_object_set_new(event, "hash", json_string(hex));
    }
}

static long long first_of(const json_t *events, const char *kind)
{
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event)
    {
        if (strcmp(json_string_value(json_object_get(event, "kind")), kind) ==
            0)
            return (long long)i + 1;
    }
    cr_assert_fail("no %s event in the log", kind);
    return 0;
}

static void expect_bad(const json_t *events, long long seq, const char *what)
{
    verify_report report;
    verify_events(events, &report);
    cr_expect(!report.ok, "%s went unnoticed", what);
    cr_expect_eq(report.bad_seq, seq, "%s: blamed event %lld (%s), not %lld",
                 what, report.bad_seq, report.reason, seq);
}

/* Runs `pbem verify ARGS` ($PBEM_CLI); returns its exit status and what it
 * printed on both streams. */
static int pbem_verify(const char *args, char *output, size_t size)
{
    const char *cli = getenv("PBEM_CLI");
    cr_assert_not_null(cli,
                       "PBEM_CLI is not set: run the tests with make test");
    char command[1024];
    snprintf(command, sizeof command, "%s verify %s 2>&1", cli, args);
    FILE *run = popen(command, "r");
    cr_assert_not_null(run);
    size_t n = fread(output, 1, size - 1, run);
    output[n] = '\0';
    int status = pclose(run);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void write_log(const json_t *log, const char *path)
{
    cr_assert_eq(json_dump_file(log, path, JSON_COMPACT), 0);
}

static void flip_hex(json_t *object, const char *key)
{
    char copy[200];
    snprintf(copy, sizeof copy, "%s",
             json_string_value(json_object_get(object, key)));
    copy[0] = copy[0] == '0' ? '1' : '0';
    json_object_set_new(object, key, json_string(copy));
}

/* Runs sql on the test's database, beside pbemd. */
static void exec_beside(const char *sql)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    pgtest_exec(conn, sql);
    PQfinish(conn);
}

/* A view that cannot read the commitments of an open decision fails: it
 * does not show a seat that has chosen as still to choose, which would
 * send its player to choose again. */
Test(sealed, a_view_that_cannot_read_the_commitments_fails_rather_than_lie,
     .timeout = 120)
{
    char database_name[64];
    e2e_private_database(database_name, sizeof database_name);
    e2e_table t;
    e2e_sit_down(&t, E2E_SEALED_GAME, 3, NULL);
    long long seq;
    json_t *choice = first_legal(&t, 0, &seq);
    e2e_response r = e2e_post_move(&t, 0, seq, choice);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    json_decref(choice);
    char match_path[96], view_path[128];
    snprintf(match_path, sizeof match_path, "/v1/matches/%s", t.match);
    snprintf(view_path, sizeof view_path, "/v1/matches/%s/view", t.match);

    exec_beside("ALTER TABLE sealed_choices RENAME TO sealed_choices_away");
    for (int viewer = 0; viewer < 2; viewer++) {
        r = e2e_call(&t.server, "GET", viewer ? view_path : match_path, NULL,
                     viewer ? &t.players[1] : NULL);
        cr_expect_geq(r.status, 500,
                      "%s answered %ld without the commitments: %s",
                      viewer ? "a seat's view" : "the match", r.status, r.body);
        e2e_response_free(&r);
    }
    exec_beside("ALTER TABLE sealed_choices_away RENAME TO sealed_choices");

    json_t *match = e2e_get(&t, "", NULL);
    json_t *pending = json_object_get(match, "pending");
    cr_expect_eq(json_integer_value(
                     json_array_get(json_object_get(pending, "committed"), 0)),
                 0, "seat 0 is shown as committed again");
    cr_expect_eq(json_array_size(json_object_get(pending, "seats")), 2);
    json_decref(match);
    e2e_stop(&t.server);
}

Test(sealed, a_whole_match_verifies_and_every_tampering_is_named,
     .timeout = 600)
{
    e2e_table t;
    e2e_sit_down(&t, E2E_SEALED_GAME, 3, NULL);
    int moves = 0;
    while (e2e_play_one(&t))
        cr_assert_lt(++moves, 20000, "no end after %d moves", moves);
    json_t *verdict = e2e_get(&t, "/verify", NULL);
    cr_assert(json_is_true(json_object_get(verdict, "ok")), "%s",
              json_dumps(verdict, JSON_COMPACT));
    cr_expect(json_is_true(json_object_get(verdict, "replayed")));
    cr_expect_gt(json_integer_value(json_object_get(verdict, "commitments")),
                 0);
    json_decref(verdict);

    json_t *log = e2e_all_events(&t);
    verify_report report;
    verify_events(log, &report);
    cr_assert(report.ok, "the untouched log fails: %s", report.reason);

    /* The command-line verifier agrees, from the server and from a file,
     * and names the event of a forged seed. */
    char output[4096], args[256], file[] = "/tmp/pbem-log-XXXXXX";
    int fd = mkstemp(file);
    cr_assert_geq(fd, 0);
    close(fd);
    snprintf(args, sizeof args, "--url http://127.0.0.1:%d %s", t.server.port,
             t.match);
    cr_expect_eq(pbem_verify(args, output, sizeof output), 0, "%s", output);
    write_log(log, file);
    snprintf(args, sizeof args, "--file %s", file);
    cr_expect_eq(pbem_verify(args, output, sizeof output), 0, "%s", output);
    json_t *forged = json_deep_copy(log);
    long long finished = first_of(forged, "finished");
    flip_hex(
        json_object_get(json_array_get(forged, (size_t)finished - 1), "data"),
        "seed");
    rechain(forged);
    write_log(forged, file);
    cr_expect_eq(pbem_verify(args, output, sizeof output), 1, "%s", output);
    char named[64];
    snprintf(named, sizeof named, "event %lld", finished);
    cr_expect_not_null(strstr(output, named), "%s", output);
    json_decref(forged);
    unlink(file);

    /* One byte of one event, without rehashing: the chain names it. */
    json_t *copy = json_deep_copy(log);
    long long seq = (long long)json_array_size(copy) / 2;
    json_object_set_new(
        json_object_get(json_array_get(copy, (size_t)seq - 1), "data"),
        "forged", json_true());
    expect_bad(copy, seq, "an altered event");
    json_decref(copy);

    /* A removed event. */
    copy = json_deep_copy(log);
    json_array_remove(copy, 4);
    expect_bad(copy, 5, "a removed event");
    json_decref(copy);

    /* Two events swapped. */
    copy = json_deep_copy(log);
    json_t *a = json_incref(json_array_get(copy, 5));
    json_array_set(copy, 5, json_array_get(copy, 6));
    json_array_set_new(copy, 6, a);
    expect_bad(copy, 6, "two swapped events");
    json_decref(copy);

    /* A revealed nonce changed and the chain rebuilt: the commitment
     * check names the reveal. */
    copy = json_deep_copy(log);
    seq = first_of(copy, "revealed");
    flip_hex(json_object_get(json_array_get(copy, (size_t)seq - 1), "data"),
             "nonce");
    rechain(copy);
    expect_bad(copy, seq, "a forged nonce");
    json_decref(copy);

    /* A commitment changed and the chain rebuilt: its reveal no longer
     * matches. */
    copy = json_deep_copy(log);
    long long committed = first_of(copy, "committed");
    json_t *committed_event = json_array_get(copy, (size_t)committed - 1);
    flip_hex(json_object_get(committed_event, "data"), "commitment");
    rechain(copy);
    verify_events(copy, &report);
    cr_expect(!report.ok, "a forged commitment went unnoticed");
    cr_expect_gt(report.bad_seq, committed, "%s", report.reason);
    cr_expect_not_null(strstr(report.reason, "commitment"), "%s",
                       report.reason);
    json_decref(copy);

    /* The revealed seed changed and the chain rebuilt. */
    copy = json_deep_copy(log);
    seq = first_of(copy, "finished");
    flip_hex(json_object_get(json_array_get(copy, (size_t)seq - 1), "data"),
             "seed");
    rechain(copy);
    expect_bad(copy, seq, "a forged seed");
    json_decref(copy);

    /* A recorded move changed and the chain rebuilt: the replay names it
     * or the result no longer matches. */
    copy = json_deep_copy(log);
    seq = first_of(copy, "decided");
    json_t *choices = json_object_get(
        json_object_get(json_array_get(copy, (size_t)seq - 1), "data"),
        "choices");
    json_object_set_new(json_array_get(choices, 0), "action",
                        json_pack("{s:s}", "type", "forged"));
    rechain(copy);
    expect_bad(copy, seq, "a forged decided choice");
    json_decref(copy);
    json_decref(log);
    e2e_stop(&t.server);
}

/* Every game with secret decisions, played to the end over HTTP with every
 * sealed choice going through the service, verifies clean. */
typedef struct sealed_game {
    const char *game;
    int seats;
    const char *options;
} sealed_game;

static void verifies_clean(const sealed_game *g)
{
    e2e_table t;
    e2e_sit_down(&t, g->game, g->seats, g->options);
    int moves = 0;
    while (e2e_play_one(&t))
        cr_assert_lt(++moves, 20000, "%s: no end after %d moves", g->game,
                     moves);
    json_t *verdict = e2e_get(&t, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "%s: %s", g->game,
              json_dumps(verdict, JSON_COMPACT));
    cr_expect(json_is_true(json_object_get(verdict, "replayed")), "%s",
              g->game);
    json_decref(verdict);
    e2e_stop(&t.server);
}

Test(sealed, antiquity_quest_with_revoked_visas_verifies_clean, .timeout = 600)
{
    sealed_game g = {"antiquity_quest", 3, "{\"revoked_visas\":true}"};
    verifies_clean(&g);
}

Test(sealed, another_mans_treasure_verifies_clean, .timeout = 900)
{
    sealed_game g = {"another_mans_treasure", 3, NULL};
    verifies_clean(&g);
}

Test(sealed, quarriors_with_quests_verifies_clean, .timeout = 600)
{
    sealed_game g = {"quarriors", 3, "{\"quests\":true}"};
    verifies_clean(&g);
}
