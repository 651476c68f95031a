/* lobby.c: the lobby under a crowd.
 *   lobby BASE_URL SECONDS LISTINGS
 * Against a pbemd on DATABASE_URL (migrated), fills the database with COPY,
 * never through the API: 10,000 waiting seeks of 10,000 players (half of
 * them the very kind the benchmark asks for, 2-seat Antiquity Quest with
 * 24-hour turns, but rated far outside any window, so the pairing query
 * has them to read and to pass over; the rest spread over other deadline
 * classes), and 100,000 matches with their lobby rows, 100 of them open
 * and forming. Then, timed:
 *   - two registered players seek the same kind in turn for SECONDS: the
 *     first waits, the second completes the table and the service makes
 *     and starts the match; seeks matched per second;
 *   - LISTINGS unsigned GET /v1/matches?status=forming (every game, then
 *     Antiquity Quest alone): p50 and p99.
 * Prints one key=value line per measurement. */
#include <curl/curl.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "db.h"
#include "latency.h"
#include "play.h"

#define WAITING_SEEKS 10000
#define MATCHES 100000
#define FORMING 100
/* Far from every player's 1500 beyond the widest window (1000 points). */
#define OUT_OF_REACH 4000
#define FIRST_ID 8000000000000000000LL

#define QUEST_24 "{\"game\":\"antiquity_quest\",\"seats\":2,\"turn_hours\":24}"

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "lobby bench: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

/* COPY sql FROM STDIN with rows lines of row(i) each. */
static void copy_rows(PGconn *db, const char *sql, int rows,
                      void (*row)(int i, char *line, size_t size))
{
    PGresult *r = PQexec(db, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN)
        die(sql, PQresultErrorMessage(r));
    PQclear(r);
    char line[512];
    for (int i = 0; i < rows; i++) {
        row(i, line, sizeof line);
        if (PQputCopyData(db, line, (int)strlen(line)) != 1)
            die(sql, PQerrorMessage(db));
    }
    if (PQputCopyEnd(db, NULL) != 1)
        die(sql, PQerrorMessage(db));
    r = PQgetResult(db);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        die(sql, PQresultErrorMessage(r));
    PQclear(r);
}

static void player_row(int i, char *line, size_t size)
{
    snprintf(line, size, "%lld\tSeeker %d\n", FIRST_ID + i, i);
}

static void seek_row(int i, char *line, size_t size)
{
    /* Even: the benchmark's kind, out of reach; odd: other deadlines. */
    snprintf(line, size, "%lld\tantiquity_quest\t2\t%d\t%d\n", FIRST_ID + i,
             i % 2 ? 25 + i % 500 : 24, i % 2 ? 1500 : OUT_OF_REACH);
}

static const char zero_hash[] =
    "\\\\x0000000000000000000000000000000000000000000000000000000000000000";

static void match_row(int i, char *line, size_t size)
{
    bool forming = i >= MATCHES - FORMING;
    snprintf(line, size, "%lld\t%s\t1\t{}\t2\t%s\t%d\t%s\t\\\\x00\t%lld\n",
             FIRST_ID + i, i % 3 ? "artifact_stack" : "antiquity_quest",
             forming ? "open"
             : i % 2 ? "finished"
                     : "active",
             forming ? 1 : 40, zero_hash, FIRST_ID + i % WAITING_SEEKS);
}

static void lobby_row(int i, char *line, size_t size)
{
    bool forming = i >= MATCHES - FORMING;
    snprintf(line, size, "%lld\t%s\t%s\tt\t%s\n", FIRST_ID + i,
             i % 3 ? "artifact_stack" : "antiquity_quest",
             forming || i % 4 == 0 ? "t" : "f", forming ? "t" : "f");
}

/* Two seats per match, but one in those still forming (the last ones). */
#define SEATS (MATCHES * 2 - FORMING)

static void seat_row(int i, char *line, size_t size)
{
    int full = (MATCHES - FORMING) * 2;
    int match = i < full ? i / 2 : MATCHES - FORMING + (i - full);
    int seat = i < full ? i % 2 : 0;
    snprintf(line, size, "%lld\t%d\t%lld\n", FIRST_ID + match, seat,
             FIRST_ID + (match + seat) % WAITING_SEEKS);
}

static void fill(PGconn *db)
{
    bench_db_exec(db, "BEGIN");
    copy_rows(db, "COPY players (player_id, name) FROM STDIN", WAITING_SEEKS,
              player_row);
    /* expires_at is relative to now: COPY takes no expressions, so a
     * staging table holds the rows and one INSERT … SELECT adds it. */
    bench_db_exec(db,
                  "CREATE TEMP TABLE seeks_in (player_id bigint, game text,"
                  " seats int, turn_hours int, rating float8) ON COMMIT DROP");
    copy_rows(db, "COPY seeks_in FROM STDIN", WAITING_SEEKS, seek_row);
    bench_db_exec(
        db, "INSERT INTO seeks (player_id, game, seats, turn_hours,"
            " rating, expires_at) SELECT player_id, game, seats,"
            " turn_hours, rating, now() + interval '3 days' FROM seeks_in");
    copy_rows(db,
              "COPY matches (match_id, game, engine_version, options,"
              " seat_count, status, head_seq, head_hash, sealed_seed,"
              " created_by) FROM STDIN",
              MATCHES, match_row);
    copy_rows(db,
              "COPY match_lobby (match_id, game, open, rated, forming)"
              " FROM STDIN",
              MATCHES, lobby_row);
    copy_rows(db, "COPY seats (match_id, seat, player_id) FROM STDIN", SEATS,
              seat_row);
    bench_db_exec(db, "COMMIT");
    bench_db_exec(db, "ANALYZE players, seeks, matches, match_lobby, seats");
}

/* A request that must answer expect: its JSON (a new reference). */
static json_t *call(client *c, const char *method, const char *path,
                    const char *body, const client_key *key, long expect)
{
    client_response r;
    char error[256];
    if (!bench_call(c, method, path, body, key, expect, &r, error))
        die(path, error);
    json_t *json = json_incref(r.json);
    client_response_free(&r);
    return json;
}

static void seeks_matched(client *c, double seconds)
{
    client_key keys[2];
    char player[32], error[256];
    for (int i = 0; i < 2; i++) {
        client_new_key(&keys[i]);
        if (!client_register(c, i ? "Bench Second" : "Bench First", NULL,
                             &keys[i], player, error))
            die("register", error);
    }
    long matched = 0;
    double started = bench_now(), took = 0;
    while ((took = bench_now() - started) < seconds) {
        json_t *first = call(c, "POST", "/v1/seeks", QUEST_24, &keys[0], 201);
        if (!json_is_null(json_object_get(first, "match")))
            die("seek", "the first seek paired with a seek out of reach");
        json_decref(first);
        json_t *second = call(c, "POST", "/v1/seeks", QUEST_24, &keys[1], 201);
        if (!json_is_string(json_object_get(second, "match")))
            die("seek", "the second seek did not complete the table");
        json_decref(second);
        matched += 2;
    }
    printf("waiting_seeks=%d matched=%ld seconds=%.2f "
           "seeks_matched_per_second=%.1f\n",
           WAITING_SEEKS, matched, took, (double)matched / took);
}

static void listing(client *c, const char *path, int count)
{
    double *samples = malloc(sizeof *samples * (size_t)count);
    if (samples == NULL)
        abort();
    size_t rows = 0;
    for (int i = 0; i < count; i++) {
        double t0 = bench_now();
        json_t *page = call(c, "GET", path, NULL, NULL, 200);
        samples[i] = bench_now() - t0;
        rows = json_array_size(json_object_get(page, "matches"));
        json_decref(page);
    }
    double p50, p99;
    bench_percentiles(samples, count, &p50, &p99);
    free(samples);
    printf("matches=%d listing=%s rows=%zu requests=%d p50_ms=%.2f "
           "p99_ms=%.2f\n",
           MATCHES, path, rows, count, p50, p99);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s BASE_URL SECONDS LISTINGS\n", argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        return 1;
    PGconn *db = bench_db_connect(getenv("DATABASE_URL"));
    fill(db);
    client *c = client_new(argv[1]);
    seeks_matched(c, atof(argv[2]));
    int listings = atoi(argv[3]);
    listing(c, "/v1/matches?status=forming", listings);
    listing(c, "/v1/matches?status=forming&game=antiquity_quest", listings);
    client_free(c);
    PQfinish(db);
    curl_global_cleanup();
    return 0;
}
