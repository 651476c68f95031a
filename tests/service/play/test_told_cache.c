/* A seat's view tells the latest events from what pbemd keeps of them
 * (play/told_cache.h), byte for byte what the database tells: a view
 * served again reads no sentence back, a move made through another pbemd
 * shows in the next view, a rewind is told as it always was, and what a
 * transaction wrote is never told unless it committed. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "play/told_cache.h"
#include "store/event_texts.h"
#include "store/store.h"

/* ---- the cache alone ---------------------------------------------------- */

static void hash_of(long long seq, uint8_t hash[STORE_HASH_BYTES])
{
    memset(hash, 0, STORE_HASH_BYTES);
    memcpy(hash, &seq, sizeof seq);
}

/* Appends event seq of a two-seat match, a move by seat seq % 2 (a
 * join, seatless, when seq is 1), told "Ann moved N." to the public and
 * "You moved N." to the mover; committed when commit says so. */
static void append_one(long long match_id, long long seq, bool commit)
{
    int actor = seq == 1 ? -1 : (int)(seq % 2);
    json_t *event = json_pack("{s:s}", "kind", seq == 1 ? "joined" : "move");
    if (actor >= 0)
        json_object_set_new(event, "seat", json_integer(actor));
    char public[64], own[64];
    snprintf(public, sizeof public, "Seat %d moved %lld.", actor + 1, seq);
    snprintf(own, sizeof own, "You moved %lld.", seq);
    json_t *rows = json_pack(
        "[{s:I,s:i,s:o,s:s}]", "seq", (json_int_t)seq, "viewer", -1, "seat",
        actor >= 0 ? json_integer(actor) : json_null(), "text", public);
    if (actor >= 0)
        json_array_append_new(rows, json_pack("{s:I,s:i,s:i,s:s}", "seq",
                                              (json_int_t)seq, "viewer", actor,
                                              "seat", actor, "text", own));
    uint8_t hash[STORE_HASH_BYTES];
    hash_of(seq, hash);
    told_cache_stage(match_id, seq, &event, 1, rows, hash);
    if (commit)
        told_cache_commit(match_id, seq, hash);
    json_decref(rows);
    json_decref(event);
}

Test(told_cache, an_append_is_told_only_once_its_commit_is_known)
{
    told_cache_forget_all();
    long long id = 7001, acted = -1;
    uint8_t hash[STORE_HASH_BYTES];
    append_one(id, 1, false);
    hash_of(1, hash);
    cr_expect_null(told_cache_told(id, 1, hash, 0, 0, &acted),
                   "an append whose commit is not known was told");
    /* A commit of another event at that seq (the race was lost). */
    uint8_t other[STORE_HASH_BYTES];
    hash_of(99, other);
    told_cache_commit(id, 1, other);
    cr_expect_null(told_cache_told(id, 1, hash, 0, 0, &acted),
                   "the loser of a race was told");
    told_cache_commit(id, 1, hash);
    json_t *told = told_cache_told(id, 1, hash, 0, 0, &acted);
    cr_assert_not_null(told, "a committed append was not kept");
    cr_expect_eq(json_array_size(told), 1);
    cr_expect_eq(acted, 0);
    json_decref(told);
}

Test(told_cache, the_window_follows_the_head_past_two_hundred_events)
{
    told_cache_forget_all();
    long long id = 7002;
    for (long long seq = 1; seq <= 450; seq++)
        append_one(id, seq, true);
    uint8_t hash[STORE_HASH_BYTES];
    hash_of(450, hash);
    for (int seat = 0; seat < 2; seat++) {
        long long acted = -1;
        json_t *told = told_cache_told(id, 450, hash, seat, 250, &acted);
        cr_assert_not_null(told);
        cr_assert_eq(json_array_size(told), 200);
        cr_expect_eq(acted, seat == 0 ? 450 : 449, "seat %d acted %lld", seat,
                     acted);
        for (size_t i = 0; i < 200; i++) {
            const json_t *row = json_array_get(told, i);
            long long seq = 251 + (long long)i;
            cr_expect_eq(json_integer_value(json_object_get(row, "seq")), seq);
            cr_expect_eq(json_integer_value(json_object_get(row, "seat")),
                         seq % 2);
            char want[64];
            if (seq % 2 == seat)
                snprintf(want, sizeof want, "You moved %lld.", seq);
            else
                snprintf(want, sizeof want, "Seat %d moved %lld.",
                         (int)(seq % 2) + 1, seq);
            cr_expect_str_eq(json_string_value(json_object_get(row, "text")),
                             want);
        }
        json_decref(told);
    }
    /* Older than the window: not kept, so not told from memory. */
    long long acted;
    cr_expect_null(told_cache_told(id, 450, hash, 0, 249, &acted));
}

Test(told_cache, a_read_extends_what_is_kept_and_stops_at_a_gap)
{
    told_cache_forget_all();
    long long id = 7003;
    /* The window read cold: seat 1 last acted at 3, before the window. */
    long long acted[2] = {0, 3};
    json_t *rows = json_pack(
        "[{s:I,s:i,s:i,s:s,s:b},{s:I,s:i,s:i,s:s,s:b},"
        " {s:I,s:i,s:n,s:s,s:b}]",
        "seq", (json_int_t)11, "viewer", -1, "seat", 0, "text", "Ann moved.",
        "acts", 1, "seq", (json_int_t)11, "viewer", 0, "seat", 0, "text",
        "You moved.", "acts", 1, "seq", (json_int_t)12, "viewer", -1, "seat",
        "text", "Bob joined.", "acts", 0);
    uint8_t hash[STORE_HASH_BYTES];
    hash_of(12, hash);
    told_cache_put(id, 10, 12, hash, rows, 2, acted);
    json_decref(rows);
    long long since = -1;
    json_t *told = told_cache_told(id, 12, hash, 1, 10, &since);
    cr_assert_not_null(told);
    cr_expect_eq(since, 3, "seat 1's action before the window");
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(told, 0), "text")),
        "Ann moved.");
    json_decref(told);
    told = told_cache_told(id, 12, hash, 0, 10, &since);
    cr_expect_eq(since, 11);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(told, 0), "text")),
        "You moved.");
    json_decref(told);
    /* Another process appended 13 and 14; 13's sentence is not there. */
    rows = json_pack("[{s:I,s:i,s:i,s:s,s:b}]", "seq", (json_int_t)14, "viewer",
                     -1, "seat", 1, "text", "Bob moved.", "acts", 1);
    hash_of(14, hash);
    told_cache_put(id, 12, 14, hash, rows, 0, NULL);
    json_decref(rows);
    cr_expect_null(told_cache_told(id, 14, hash, 1, 0, &since),
                   "a gap was told");
    cr_expect_eq(told_cache_upto(id), 12);
}

Test(told_cache, a_head_hashed_otherwise_forgets_the_match)
{
    told_cache_forget_all();
    long long id = 7004, acted;
    for (long long seq = 1; seq <= 5; seq++)
        append_one(id, seq, true);
    uint8_t other[STORE_HASH_BYTES];
    hash_of(55, other);
    cr_expect_null(told_cache_told(id, 5, other, 0, 0, &acted),
                   "told what another log holds at 5");
    cr_expect_eq(told_cache_upto(id), -1, "the match was not forgotten");
}

/* ---- through pbemd ------------------------------------------------------ */

/* pbem_event_texts_read_rows_total on server's /metrics. */
static long long rows_read(const e2e_server *server)
{
    e2e_response r = e2e_call(server, "GET", "/metrics", NULL, NULL);
    cr_assert_eq(r.status, 200, "/metrics: %ld", r.status);
    const char *name = "\npbem_event_texts_read_rows_total ";
    const char *at = strstr(r.body, name);
    cr_assert_not_null(at, "/metrics has no pbem_event_texts_read_rows_total");
    long long n = atoll(at + strlen(name));
    e2e_response_free(&r);
    return n;
}

/* Seat's view on server must tell what the database tells (read as
 * every view read it before pbemd kept sentences): the same log, byte
 * for byte, and the same last action. */
static void expect_as_database(const e2e_table *t, const e2e_server *server,
                               int seat, const char *when)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", t->match);
    e2e_response r = e2e_call(server, "GET", path, NULL, &t->players[seat]);
    cr_assert_eq(r.status, 200, "%s: view: %s", when, r.body);
    long long head = json_integer_value(
        json_object_get(json_object_get(r.json, "head"), "seq"));
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK);
    apierr err;
    long long acted = -1;
    long long after = head > 200 ? head - 200 : 0;
    json_t *want = store_event_texts_told_acted(
        conn, store_parse_match_ref(t->match), seat, after, head, &acted, &err);
    cr_assert_not_null(want, "%s", err.message);
    PQfinish(conn);
    char *got = json_dumps(json_object_get(r.json, "log"), JSON_COMPACT);
    char *expected = json_dumps(want, JSON_COMPACT);
    cr_expect_str_eq(got, expected, "%s: seat %d's log", when, seat);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "since_seq")),
                 acted, "%s: seat %d's last action", when, seat);
    free(got);
    free(expected);
    json_decref(want);
    e2e_response_free(&r);
}

Test(told_views, a_view_served_again_reads_no_sentence_back, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 6; i++)
        cr_assert(e2e_play_one(&t));
    expect_as_database(&t, &t.server, 0, "first view");
    long long read = rows_read(&t.server);
    expect_as_database(&t, &t.server, 0, "again");
    expect_as_database(&t, &t.server, 1, "the other seat");
    cr_expect_eq(rows_read(&t.server), read,
                 "a view served again read sentences back");
    /* A move through this pbemd: told at its append, read back by none. */
    cr_assert(e2e_play_one(&t));
    expect_as_database(&t, &t.server, 0, "after a move");
    expect_as_database(&t, &t.server, 1, "after a move");
    cr_expect_eq(rows_read(&t.server), read,
                 "the views after a move read its sentences back");
    e2e_stop(&t.server);
}

Test(told_views, a_move_through_another_pbemd_shows_in_the_next_view,
     .timeout = 180)
{
    e2e_table a;
    e2e_sit_down(&a, "antiquity_quest", 2, NULL);
    e2e_table b = a;
    b.server.http = NULL;
    e2e_start(&b.server); /* same database, same key file */
    for (int i = 0; i < 4; i++)
        cr_assert(e2e_play_one(&a));
    expect_as_database(&a, &a.server, 0, "on A");
    expect_as_database(&a, &a.server, 1, "on A");
    for (int i = 0; i < 12; i++) {
        long long read = rows_read(&a.server);
        e2e_table *through = i % 3 == 2 ? &a : &b;
        cr_assert(e2e_play_one(through));
        char when[64];
        snprintf(when, sizeof when, "move %d through %s", i,
                 through == &a ? "A" : "B");
        expect_as_database(&a, &a.server, 0, when);
        expect_as_database(&a, &a.server, 1, when);
        if (through == &b)
            cr_expect_gt(rows_read(&a.server), read,
                         "%s: A read nothing of B's move", when);
    }
    e2e_stop(&b.server);
    e2e_stop(&a.server);
}

Test(told_views, a_rewind_is_told_as_the_database_tells_it, .timeout = 180)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    e2e_admin_key(&admin);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 8; i++)
        cr_assert(e2e_play_one(&t));
    json_t *match = e2e_get(&t, "", NULL);
    long long head = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    expect_as_database(&t, &t.server, 0, "before the rewind");
    expect_as_database(&t, &t.server, 1, "before the rewind");
    char path[128], body[128];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/rewind", t.match);
    snprintf(body, sizeof body, "{\"to_seq\":%lld,\"reason\":\"a misclick\"}",
             head - 3);
    e2e_response r = e2e_call(&t.server, "POST", path, body, &admin);
    cr_assert_eq(r.status, 200, "rewind: %s", r.body);
    e2e_response_free(&r);
    /* The rewind is the last event told; the events it undid stay in the
     * log as they were told, as they always did. */
    for (int seat = 0; seat < 2; seat++) {
        expect_as_database(&t, &t.server, seat, "after the rewind");
        json_t *view = e2e_get(&t, "/view", &t.players[seat]);
        json_t *log = json_object_get(view, "log");
        const char *last = json_string_value(json_object_get(
            json_array_get(log, json_array_size(log) - 1), "text"));
        char want[96];
        snprintf(want, sizeof want,
                 "An admin took the match back to event %lld: a misclick.",
                 head - 3);
        cr_expect_str_eq(last, want);
        json_decref(view);
    }
    for (int i = 0; i < 4; i++) {
        cr_assert(e2e_play_one(&t));
        expect_as_database(&t, &t.server, 0, "playing on");
        expect_as_database(&t, &t.server, 1, "playing on");
    }
    e2e_stop(&t.server);
}

Test(told_views, sentences_lost_are_told_again_by_a_pbemd_that_kept_none,
     .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    for (int i = 0; i < 8; i++)
        cr_assert(e2e_play_one(&t));
    json_t *before = e2e_get(&t, "/view", &t.players[0]);
    /* The latest sentences lost, and a pbemd that kept none. */
    e2e_stop(&t.server);
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK);
    char sql[160];
    snprintf(sql, sizeof sql,
             "DELETE FROM event_texts WHERE match_id = %lld AND seq > 6",
             store_parse_match_ref(t.match));
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQresultErrorMessage(r));
    cr_assert_gt(atoi(PQcmdTuples(r)), 0, "no sentence was kept");
    PQclear(r);
    PQfinish(conn);
    e2e_start(&t.server);
    json_t *after = e2e_get(&t, "/view", &t.players[0]);
    char *was = json_dumps(json_object_get(before, "log"), JSON_COMPACT);
    char *is = json_dumps(json_object_get(after, "log"), JSON_COMPACT);
    cr_expect_str_eq(is, was, "the log was told again differently");
    cr_expect(json_equal(json_object_get(before, "since_seq"),
                         json_object_get(after, "since_seq")));
    free(was);
    free(is);
    json_decref(before);
    json_decref(after);
    expect_as_database(&t, &t.server, 1, "told again");
    e2e_stop(&t.server);
}
