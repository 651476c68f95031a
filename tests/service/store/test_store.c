/* The event store against the real PostgreSQL: migrations, appends, the
 * hash chain, conflicts under concurrency, snapshots and nonces. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/pgtest.h"
#include "store_support.h"
#include "store/migrate.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/request_nonces.h"
#include "store/store.h"

static json_t *event(const char *kind, int n)
{
    return json_pack("{s:s,s:i,s:{s:i}}", "kind", kind, "seat", n % 2, "data",
                     "n", n);
}

Test(store_migrations, apply_once_then_nothing)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    apierr err;
    int applied = -1;
    cr_assert(migrate_apply(conn, "migrations", &applied, &err), "%s",
              err.message);
    cr_expect_eq(applied, 0, "a second run applied %d migrations", applied);
    PGresult *r = PQexec(conn, "SELECT count(*) FROM schema_migrations");
    cr_expect_geq(atoi(PQgetvalue(r, 0, 0)), 1);
    PQclear(r);
    PQfinish(conn);
}

Test(store_migrations, refuses_a_database_newer_than_itself)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    pgtest_exec(conn, "INSERT INTO schema_migrations (version, name)"
                      " VALUES (9999, '9999_future.sql')");
    apierr err;
    cr_expect(!migrate_apply(conn, "migrations", NULL, &err));
    cr_expect_str_eq(err.code, "database_newer");
    cr_expect_not_null(strstr(err.message, "9999_future.sql"), "%s",
                       err.message);
    PQfinish(conn);
}

Test(store_events, appends_chain_their_hashes)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 11);
    apierr err;
    for (int i = 0; i < 5; i++) {
        json_t *e = event("move", i);
        cr_assert(store_append(conn, &match, &e, 1, NULL, &err), "%s",
                  err.message);
        json_decref(e);
    }
    cr_expect_eq(match.head_seq, 5);
    json_t *events = store_events_after(conn, 11, 0, 100, &err);
    cr_assert_eq(json_array_size(events), 5);
    /* Recompute the chain from what the API returns. */
    uint8_t prev[32] = {0};
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        cr_expect_eq(json_integer_value(json_object_get(e, "seq")),
                     (json_int_t)i + 1);
        json_t *body = json_deep_copy(e);
        json_object_del(body, "hash");
        json_object_del(body, "prev_hash");
        char *bytes = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);
        uint8_t hash[32];
        char hex[65];
        chain_hash(prev, bytes, hash);
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        cr_expect_str_eq(hex, json_string_value(json_object_get(e, "hash")),
                         "event %zu's hash does not recompute", i + 1);
        memcpy(prev, hash, sizeof prev);
        free(bytes);
        json_decref(body);
    }
    json_decref(events);
    bool ok;
    long long bad;
    char reason[200];
    cr_assert(store_verify_chain(conn, 11, &ok, &bad, reason, sizeof reason,
                                 &err));
    cr_expect(ok, "%s", reason);
    store_match_free(&match);
    PQfinish(conn);
}

/* Every move rewrites its match's row (head, hash, updated_at). With no
 * index on a column that changes, PostgreSQL keeps the new version on the
 * row's page and writes no index entry for it (a HOT update). Until
 * migration 015 an index on (status, updated_at) made each move write an
 * entry in both of the table's indexes, and leave them for vacuum. */
Test(store_events, moving_the_head_writes_no_index_entries)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 12);
    apierr err;
    for (int i = 0; i < 12; i++) {
        json_t *e = event("move", i);
        cr_assert(store_append(conn, &match, &e, 1, NULL, &err), "%s",
                  err.message);
        json_decref(e);
    }
    /* This backend's counts reach the statistics when it is next idle. */
    pgtest_exec(conn, "SELECT pg_stat_force_next_flush()");
    PGresult *r = PQexec(conn, "SELECT n_tup_upd, n_tup_hot_upd"
                               " FROM pg_stat_user_tables"
                               " WHERE relid = 'matches'::regclass");
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    long long updates = atoll(PQgetvalue(r, 0, 0));
    long long in_place = atoll(PQgetvalue(r, 0, 1));
    PQclear(r);
    cr_expect_geq(updates, 12, "%lld updates of the match row", updates);
    cr_expect_eq(in_place, updates,
                 "%lld of %lld head updates were HOT: an index covers a"
                 " column every move changes",
                 in_place, updates);
    store_match_free(&match);
    PQfinish(conn);
}

Test(store_events, a_stale_head_is_a_conflict_not_a_gap)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match first, second;
    store_test_match(conn, &first, 12);
    apierr err;
    cr_assert(store_load_match(conn, 12, &second, &err));
    json_t *e = event("move", 1);
    cr_assert(store_append(conn, &first, &e, 1, NULL, &err), "%s", err.message);
    cr_expect(!store_append(conn, &second, &e, 1, NULL, &err));
    cr_expect_eq(err.status, 409);
    cr_expect_str_eq(err.code, "stale_seq");
    cr_expect_eq(err.head, 1);
    cr_expect_eq(second.head_seq, 0, "a failed append moved the head");
    json_decref(e);
    store_match_free(&first);
    store_match_free(&second);
    PQfinish(conn);
}

Test(store_events, tampering_with_one_event_is_named)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 13);
    apierr err;
    for (int i = 0; i < 4; i++) {
        json_t *e = event("move", i);
        cr_assert(store_append(conn, &match, &e, 1, NULL, &err));
        json_decref(e);
    }
    pgtest_exec(conn, "UPDATE events SET body = replace(body, '\"n\":2', "
                      "'\"n\":7') WHERE match_id = 13 AND seq = 3");
    bool ok;
    long long bad;
    char reason[200];
    cr_assert(store_verify_chain(conn, 13, &ok, &bad, reason, sizeof reason,
                                 &err));
    cr_expect(!ok);
    cr_expect_eq(bad, 3, "blamed event %lld: %s", bad, reason);
    pgtest_exec(conn, "DELETE FROM events WHERE match_id = 13 AND seq = 2");
    cr_assert(store_verify_chain(conn, 13, &ok, &bad, reason, sizeof reason,
                                 &err));
    cr_expect(!ok);
    cr_expect_eq(bad, 2, "blamed event %lld: %s", bad, reason);
    store_match_free(&match);
    PQfinish(conn);
}

#define RACERS 8
#define TRIES 40

typedef struct racer {
    const char *schema;
    int wins;
    int conflicts;
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    PGconn *conn = pgtest_connect(r->schema);
    for (int t = 0; t < TRIES; t++) {
        store_match match;
        apierr err;
        if (!store_load_match(conn, 14, &match, &err))
            break;
        json_t *e = event("move", t);
        if (!store_begin(conn, &err))
            break;
        if (store_append(conn, &match, &e, 1, NULL, &err) &&
            store_commit(conn, &err)) {
            r->wins++;
        } else {
            store_rollback(conn);
            if (err.status == 409)
                r->conflicts++;
        }
        json_decref(e);
        store_match_free(&match);
    }
    PQfinish(conn);
    return NULL;
}

Test(store_events, eight_racing_writers_win_each_seq_exactly_once)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 14);
    pthread_t threads[RACERS];
    racer racers[RACERS];
    for (int i = 0; i < RACERS; i++) {
        racers[i] = (racer){.schema = schema};
        pthread_create(&threads[i], NULL, race, &racers[i]);
    }
    int wins = 0, conflicts = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(threads[i], NULL);
        wins += racers[i].wins;
        conflicts += racers[i].conflicts;
    }
    cr_expect_eq(wins + conflicts, RACERS * TRIES,
                 "some attempts neither won nor conflicted");
    cr_expect_gt(conflicts, 0, "the writers never actually raced");
    PGresult *r = PQexec(conn, "SELECT count(*), count(DISTINCT seq), max(seq),"
                               " (SELECT head_seq FROM matches WHERE match_id = 14)"
                               " FROM events WHERE match_id = 14");
    cr_expect_eq(atoi(PQgetvalue(r, 0, 0)), wins, "events != wins");
    cr_expect_eq(atoi(PQgetvalue(r, 0, 1)), wins, "a seq was written twice");
    cr_expect_eq(atoi(PQgetvalue(r, 0, 2)), wins, "there is a gap");
    cr_expect_eq(atoi(PQgetvalue(r, 0, 3)), wins, "the head is off");
    PQclear(r);
    apierr err;
    bool ok;
    long long bad;
    char reason[200];
    cr_assert(store_verify_chain(conn, 14, &ok, &bad, reason, sizeof reason,
                                 &err));
    cr_expect(ok, "%s", reason);
    store_match_free(&match);
    PQfinish(conn);
}

Test(store_snapshots, the_latest_of_the_right_version_is_found)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 15);
    apierr err;
    cr_assert(store_save_snapshot(conn, 15, 4, 1, "{\"at\":4}", &err));
    cr_assert(store_save_snapshot(conn, 15, 8, 1, "{\"at\":8}", &err));
    cr_assert(store_save_snapshot(conn, 15, 9, 2, "{\"at\":9}", &err));
    long long seq;
    char *state;
    cr_assert(store_find_snapshot(conn, 15, 100, 1, &seq, &state, &err));
    cr_expect_eq(seq, 8);
    cr_expect_str_eq(state, "{\"at\":8}");
    free(state);
    cr_assert(store_find_snapshot(conn, 15, 7, 1, &seq, &state, &err));
    cr_expect_eq(seq, 4);
    free(state);
    cr_assert(store_find_snapshot(conn, 15, 3, 1, &seq, &state, &err));
    cr_expect_eq(seq, 0);
    cr_expect_null(state);
    store_match_free(&match);
    PQfinish(conn);
}

Test(store_nonces, a_retry_is_recognised_and_a_reuse_is_not)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    apierr err;
    uint8_t digest[32] = {1}, other[32] = {2};
    store_nonce found = {0};
    store_nonce answer = {
        .status = 201, .response = "{\"ok\":1}", .match_id = 7, .seq = 12};
    cr_expect_eq(store_find_nonce(conn, "k_1", "n1", digest, &found, &err), 0);
    cr_assert(store_save_nonce(conn, "k_1", "n1", digest, &answer, &err));
    cr_expect_eq(store_find_nonce(conn, "k_1", "n1", digest, &found, &err), 1);
    cr_expect_eq(found.status, 201);
    cr_expect_str_eq(found.response, "{\"ok\":1}");
    cr_expect_eq(found.match_id, 7);
    cr_expect_eq(found.seq, 12);
    free(found.response);
    cr_expect_eq(store_find_nonce(conn, "k_1", "n1", other, &found, &err), 2);
    PQfinish(conn);
}

static void made_ago(PGconn *conn, const char *nonce, const char *age)
{
    const char *params[] = {age, nonce};
    PGresult *r = PQexecParams(conn,
                               "UPDATE request_nonces SET created_at ="
                               " now() - $1::interval WHERE nonce = $2",
                               2, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQerrorMessage(conn));
    PQclear(r);
}

/* Past the signature window a nonce guards nothing: its request can no
 * longer be sent or retried. Within it, every nonce stays. */
Test(store_nonces, only_nonces_past_the_window_are_pruned)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    apierr err;
    uint8_t digest[32] = {1};
    store_nonce answer = {.status = 200, .response = "{}"};
    const char *nonces[] = {"old1", "old2", "recent", "new"};
    for (size_t i = 0; i < 4; i++)
        cr_assert(store_save_nonce(conn, "k_1", nonces[i], digest, &answer,
                                   &err),
                  "%s", err.message);
    made_ago(conn, "old1", "2 hours");
    made_ago(conn, "old2", "20 minutes");
    made_ago(conn, "recent", "10 minutes");

    /* A batch at a time, oldest first. */
    cr_expect_eq(store_prune_nonces(conn, 900, 1, &err), 1);
    store_nonce found = {0};
    cr_expect_eq(store_find_nonce(conn, "k_1", "old1", digest, &found, &err),
                 0);
    cr_expect_eq(store_find_nonce(conn, "k_1", "old2", digest, &found, &err),
                 1);
    free(found.response);
    cr_expect_eq(store_prune_nonces(conn, 900, 100, &err), 1);
    cr_expect_eq(store_prune_nonces(conn, 900, 100, &err), 0);
    for (size_t i = 2; i < 4; i++) {
        found = (store_nonce){0};
        cr_expect_eq(store_find_nonce(conn, "k_1", nonces[i], digest, &found,
                                      &err),
                     1, "%s was pruned", nonces[i]);
        free(found.response);
    }
    PQfinish(conn);
}

/* One spelling per id: what a URL names is the match or player it means. */
Test(store_refs, each_id_has_one_spelling)
{
    cr_expect_eq(store_parse_match_ref("m_5"), 5);
    cr_expect_eq(store_parse_match_ref("m_9223372036854775807"),
                 9223372036854775807LL);
    cr_expect_eq(store_parse_player_ref("p_42"), 42);
    static const char *const malformed[] = {
        "m_+5", "m_ 5", "m_05", "m_5x", "m_", "m_-5", "m_0", "M_5", "5",
        "m_9223372036854775808", "m_99999999999999999999"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        cr_expect_eq(store_parse_match_ref(malformed[i]), 0, "%s",
                     malformed[i]);
    cr_expect_eq(store_parse_player_ref("p_+42"), 0);
    cr_expect_eq(store_parse_player_ref("p_9223372036854775808"), 0);
}
