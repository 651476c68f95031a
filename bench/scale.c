/* scale.c: the service with years of play behind it.
 *   scale fill MATCHES EVENTS
 *   scale check EMPTY_DATABASE_URL
 * Both work on DATABASE_URL, migrated by a pbemd that started on it.
 *
 * fill makes MATCHES matches with EVENTS events between them with COPY,
 * never through the API: players (one for every ten matches), the matches
 * (1 % open and forming, 30 % active, the rest finished), their seats,
 * lobby rows, the players' ratings in both games, deadline options and
 * one current turn deadline for each active match (due days from now, so no
 * worker ever fires one), the events, and a public sentence for each event
 * (event_texts). Match ids are random 63-bit numbers like the service's own, so
 * the moves the benchmark times land in indexes already full of them.
 *
 * The events are hash-chained as the service chains its own (ledger/
 * chain.h), and check runs the service's chain check (store_verify_chain)
 * over a sample of them. Their bodies are not moves an engine could
 * replay, so the timed moves never touch these matches: each benchmark
 * client plays new matches it makes itself (bench/service.c). That is
 * also what a move on a big database does: its own match is small, and
 * every index it writes into is big.
 *
 * check prints, for the filled database:
 *   - the chain check of sampled matches;
 *   - the plans, buffers and time of the reads that must stay index
 *     reads however big the database: the lobby of open matches (every
 *     game, and one game), a player's matches list, and the deadline
 *     worker's two scans. The service's own store functions run them,
 *     with auto_explain (ANALYZE, BUFFERS) reporting each plan;
 *   - dead rows and autovacuum runs after the timed moves, then the time
 *     of VACUUM (ANALYZE);
 *   - the database's size over an empty one's, per million events. */
#include <jansson.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "latency.h"
#include "ledger/chain.h"
#include "play/lobby.h"
#include "play/my_matches.h"
#include "store/deadlines.h"
#include "store/events.h"
#include "store/lobby.h"
#include "store/match_lists.h"

#define FIRST_PLAYER 7000000000000000000LL
#define CHAINS_CHECKED 100

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "scale bench: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

static long long query_number(PGconn *db, const char *sql)
{
    PGresult *r = bench_db_rows(db, sql);
    if (PQntuples(r) != 1)
        die(sql, "no one row");
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

/* ---- fill ------------------------------------------------------------ */

/* A COPY in progress: rows are gathered and sent a buffer at a time. */
typedef struct copy {
    PGconn *db;
    const char *sql;
    char buffer[1 << 16];
    size_t used;
} copy;

static void copy_begin(copy *c, PGconn *db, const char *sql)
{
    c->db = db;
    c->sql = sql;
    c->used = 0;
    PGresult *r = PQexec(db, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN)
        die(sql, PQresultErrorMessage(r));
    PQclear(r);
}

static void copy_flush(copy *c)
{
    if (c->used > 0 && PQputCopyData(c->db, c->buffer, (int)c->used) != 1)
        die(c->sql, PQerrorMessage(c->db));
    c->used = 0;
}

static void copy_row(copy *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void copy_row(copy *c, const char *fmt, ...)
{
    for (int tries = 0; tries < 2; tries++) {
        va_list args;
        va_start(args, fmt);
        int n = vsnprintf(c->buffer + c->used, sizeof c->buffer - c->used, fmt,
                          args);
        va_end(args);
        if (n < 0)
            die(c->sql, "a row could not be written");
        if ((size_t)n < sizeof c->buffer - c->used) {
            c->used += (size_t)n;
            return;
        }
        copy_flush(c);
    }
    die(c->sql, "a row longer than the buffer");
}

static void copy_end(copy *c)
{
    copy_flush(c);
    if (PQputCopyEnd(c->db, NULL) != 1)
        die(c->sql, PQerrorMessage(c->db));
    PGresult *r = PQgetResult(c->db);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        die(c->sql, PQresultErrorMessage(r));
    PQclear(r);
    PQclear(PQgetResult(c->db));
}

static int compare_ids(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* MATCHES random ids as the service makes them (play/matches.c), in
 * increasing order, so each table's rows come in its key's order. */
static long long *match_ids(long matches)
{
    long long *ids = malloc(sizeof *ids * (size_t)matches);
    if (ids == NULL)
        abort();
    for (long i = 0; i < matches; i++) {
        unsigned long long random_id;
        randombytes_buf(&random_id, sizeof random_id);
        ids[i] = (long long)(random_id >> 1) | 1;
    }
    qsort(ids, (size_t)matches, sizeof *ids, compare_ids);
    for (long i = 1; i < matches; i++)
        if (ids[i] == ids[i - 1])
            die("match ids", "two random ids are the same; run again");
    return ids;
}

typedef enum { FORMING, ACTIVE, FINISHED } match_kind;

/* Spread over the ids: every hundredth forming, three in ten active. */
static match_kind kind_of(long i)
{
    if (i % 100 == 0)
        return FORMING;
    return i % 10 < 3 ? ACTIVE : FINISHED;
}

static const char *game_of(long i)
{
    return i % 3 ? "artifact_stack" : "antiquity_quest";
}

static long events_of(long i, long matches, long long events)
{
    return (long)(events / matches + (i < events % matches ? 1 : 0));
}

static long long player_of(long i, int seat, long players)
{
    return FIRST_PLAYER + (i + (long)seat * 7919) % players;
}

static void bytea_text(const uint8_t hash[CHAIN_HASH_BYTES], char out[70])
{
    memcpy(out, "\\\\x", 3);
    sodium_bin2hex(out + 3, 67, hash, CHAIN_HASH_BYTES);
}

/* An event's canonical body (keys in order, as RFC 8785 writes them),
 * about the size of a card game's move. */
static void event_body(long seq, char *body, size_t size)
{
    static const char *const cards[] = {"blue5",  "mask", "red2",  "vase",
                                        "green7", "coin", "scroll"};
    if (seq == 1) {
        snprintf(
            body, size,
            "{\"data\":{\"options\":{},\"seats\":2},\"kind\":\"created\"}");
        return;
    }
    snprintf(
        body, size,
        "{\"data\":{\"action\":{\"card\":\"%s\",\"type\":\"play\"},"
        "\"text\":\"Seat %ld played %s.\"},\"kind\":\"move\",\"seat\":%ld}",
        cards[seq % 7], seq % 2, cards[seq % 7], seq % 2);
}

/* The events and their public sentences, match by match; the head each
 * match reaches is written into heads (its hash as COPY text). */
static void fill_events(PGconn *db, const long long *ids, long matches,
                        long long events, char (*heads)[70])
{
    copy ev, texts;
    char body[256], prev_text[70], hash_text[70];
    copy_begin(&ev, db,
               "COPY events (match_id, seq, kind, seat, body, prev_hash,"
               " hash) FROM STDIN");
    for (long i = 0; i < matches; i++) {
        uint8_t prev[CHAIN_HASH_BYTES] = {0}, hash[CHAIN_HASH_BYTES];
        long n = events_of(i, matches, events);
        for (long seq = 1; seq <= n; seq++) {
            event_body(seq, body, sizeof body);
            chain_hash(prev, body, hash);
            bytea_text(prev, prev_text);
            bytea_text(hash, hash_text);
            if (seq == 1)
                copy_row(&ev, "%lld\t1\tcreated\t\\N\t%s\t%s\t%s\n", ids[i],
                         body, prev_text, hash_text);
            else
                copy_row(&ev, "%lld\t%ld\tmove\t%ld\t%s\t%s\t%s\n", ids[i], seq,
                         seq % 2, body, prev_text, hash_text);
            memcpy(prev, hash, sizeof prev);
        }
        bytea_text(prev, heads[i]);
    }
    copy_end(&ev);
    copy_begin(&texts, db,
               "COPY event_texts (match_id, seq, viewer, seat, text)"
               " FROM STDIN");
    for (long i = 0; i < matches; i++) {
        long n = events_of(i, matches, events);
        for (long seq = 1; seq <= n; seq++) {
            event_body(seq, body, sizeof body);
            if (seq == 1)
                copy_row(&texts, "%lld\t1\t-1\t\\N\tThe match was made.\n",
                         ids[i]);
            else
                copy_row(&texts,
                         "%lld\t%ld\t-1\t%ld\tSeat %ld played a card.\n",
                         ids[i], seq, seq % 2, seq % 2);
        }
    }
    copy_end(&texts);
}

/* A moment from now, as COPY reads a timestamptz. */
static void moment(long long seconds_from_now, char out[32])
{
    time_t t = time(NULL) + (time_t)seconds_from_now;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%d %H:%M:%S+00", &tm);
}

static void fill_matches(PGconn *db, const long long *ids, long matches,
                         long long events, long players, char (*heads)[70])
{
    copy c;
    copy_begin(&c, db, "COPY players (player_id, name) FROM STDIN");
    for (long p = 0; p < players; p++)
        copy_row(&c, "%lld\tScale Player %ld\n", FIRST_PLAYER + p, p);
    copy_end(&c);

    /* Everyone has played both games rated, some more than others. */
    copy_begin(&c, db,
               "COPY ratings (game, player_id, rating, deviation, volatility,"
               " matches, wins) FROM STDIN");
    for (int g = 0; g < 2; g++)
        for (long p = 0; p < players; p++)
            copy_row(&c, "%s\t%lld\t%ld\t%ld\t0.06\t%ld\t%ld\n", game_of(g),
                     FIRST_PLAYER + p, 1200 + p * 7 % 600, 60 + p % 200,
                     10 + p % 40, p % 20);
    copy_end(&c);

    copy_begin(&c, db,
               "COPY matches (match_id, game, engine_version, options,"
               " seat_count, status, head_seq, head_hash, sealed_seed,"
               " created_by) FROM STDIN");
    static const char *const status[] = {"open", "active", "finished"};
    for (long i = 0; i < matches; i++)
        copy_row(&c, "%lld\t%s\t1\t{}\t2\t%s\t%ld\t%s\t\\\\x00\t%lld\n", ids[i],
                 game_of(i), status[kind_of(i)], events_of(i, matches, events),
                 heads[i], player_of(i, 0, players));
    copy_end(&c);

    copy_begin(&c, db, "COPY seats (match_id, seat, player_id) FROM STDIN");
    for (long i = 0; i < matches; i++)
        for (int seat = 0; seat < (kind_of(i) == FORMING ? 1 : 2); seat++)
            copy_row(&c, "%lld\t%d\t%lld\n", ids[i], seat,
                     player_of(i, seat, players));
    copy_end(&c);

    copy_begin(&c, db,
               "COPY match_lobby (match_id, game, open, rated, forming,"
               " created_at) FROM STDIN");
    /* Made over the last days, in no order of their ids. */
    for (long i = 0; i < matches; i++) {
        char made[32];
        moment(-(i * 7919 % matches) * 3, made);
        copy_row(&c, "%lld\t%s\t%s\tt\t%s\t%s\n", ids[i], game_of(i),
                 kind_of(i) == FORMING || i % 4 == 0 ? "t" : "f",
                 kind_of(i) == FORMING ? "t" : "f", made);
    }
    copy_end(&c);

    copy_begin(&c, db,
               "COPY match_deadlines (match_id, turn_hours, reminder_hours,"
               " action, grace_hours, time_bank_hours, vacation_days_max)"
               " FROM STDIN");
    for (long i = 0; i < matches; i++)
        if (kind_of(i) == ACTIVE)
            copy_row(&c, "%lld\t72\t24\tskip\t0\t0\t14\n", ids[i]);
    copy_end(&c);

    /* Due two to three days from now, reminders a day before: the scans
     * read them and claim none while the benchmark runs. */
    copy_begin(&c, db,
               "COPY deadlines (match_id, seat, kind, awaited, opened_seq,"
               " turn_seconds, reminder_seconds, grace_seconds, bank_seconds,"
               " started_at, remind_at, due_at, grace_end_at, fire_at)"
               " FROM STDIN");
    for (long i = 0; i < matches; i++) {
        if (kind_of(i) != ACTIVE)
            continue;
        long head = events_of(i, matches, events);
        long long due = 2 * 86400 + i % 86400;
        char started[32], remind[32], due_at[32];
        moment(due - 3 * 86400, started);
        moment(due - 86400, remind);
        moment(due, due_at);
        copy_row(&c,
                 "%lld\t%ld\tturn\tturn:%ld\t%ld\t259200\t172800\t0\t0"
                 "\t%s\t%s\t%s\t%s\t%s\n",
                 ids[i], head % 2, head, head, started, remind, due_at, due_at,
                 due_at);
    }
    copy_end(&c);
}

static int fill(long matches, long long events)
{
    if (matches < 100 || events < matches)
        die("fill", "at least 100 matches and an event for each");
    PGconn *db = bench_db_connect(getenv("DATABASE_URL"));
    long players = matches / 10;
    long long *ids = match_ids(matches);
    char(*heads)[70] = malloc(sizeof *heads * (size_t)matches);
    if (heads == NULL)
        abort();
    double started = bench_now();
    bench_db_exec(db, "BEGIN");
    /* The rows are consistent by making, as a restore's are: the foreign
     * key checks and the event stream's per-row wake-up (a NOTIFY for
     * each of millions of events) are left out, as pg_restore leaves
     * them out. */
    bench_db_exec(db, "SET LOCAL session_replication_role = replica");
    fill_events(db, ids, matches, events, heads);
    fill_matches(db, ids, matches, events, players, heads);
    bench_db_exec(db, "COMMIT");
    double copied = bench_now() - started;
    bench_db_exec(db, "VACUUM (ANALYZE)");
    printf("matches=%ld events=%lld players=%ld copy_seconds=%.1f "
           "events_and_texts_per_second=%.0f first_vacuum_seconds=%.1f\n",
           matches, events, players, copied, 2.0 * (double)events / copied,
           bench_now() - started - copied);
    free(heads);
    free(ids);
    PQfinish(db);
    return 0;
}

/* ---- check ----------------------------------------------------------- */

static void check_chains(PGconn *db)
{
    PGresult *r =
        bench_db_rows(db, "SELECT match_id FROM matches"
                          " TABLESAMPLE SYSTEM (1) REPEATABLE (41)"
                          " WHERE created_by BETWEEN 7000000000000000000"
                          "  AND 7000000000999999999"
                          " LIMIT 100");
    int ok_count = 0, n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        bool ok = false;
        long long bad_seq = 0;
        char reason[200] = "";
        apierr err;
        if (!store_verify_chain(db, atoll(PQgetvalue(r, i, 0)), &ok, &bad_seq,
                                reason, sizeof reason, &err))
            die("chain check", err.message);
        if (ok)
            ok_count++;
        else
            fprintf(stderr, "scale bench: match %s: %s\n", PQgetvalue(r, i, 0),
                    reason);
    }
    PQclear(r);
    printf("chains_checked=%d chains_ok=%d\n", n, ok_count);
}

/* The plan auto_explain reported for the last statement. */
static json_t *last_plan;

static void take_plan(void *arg, const PGresult *r)
{
    (void)arg;
    const char *text = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    const char *json = text ? strchr(text, '{') : NULL;
    if (json == NULL)
        return;
    json_decref(last_plan);
    last_plan = json_loads(json, 0, NULL);
}

/* What a plan's scans are: "Index Only Scan on seats_player" and the
 * like, appended to out; counts seq scans in *seq. */
static void scans(const json_t *node, char *out, size_t size, int *seq)
{
    const char *type = json_string_value(json_object_get(node, "Node Type"));
    const char *index = json_string_value(json_object_get(node, "Index Name"));
    const char *rel = json_string_value(json_object_get(node, "Relation Name"));
    /* Only what reads a table or an index: not a subquery's scan. */
    if (type != NULL && strstr(type, "Scan") != NULL &&
        (index != NULL || rel != NULL)) {
        if (strcmp(type, "Seq Scan") == 0)
            (*seq)++;
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s(%s)", used ? "," : "", type,
                 index ? index : rel);
    }
    size_t i;
    json_t *child;
    json_array_foreach(json_object_get(node, "Plans"), i, child)
        scans(child, out, size, seq);
}

/* Prints the plan of the statement just run, as read=NAME …. */
static void print_plan(const char *name)
{
    json_t *plan = json_object_get(last_plan, "Plan");
    if (plan == NULL)
        die(name, "auto_explain reported no plan");
    char list[600] = "";
    int seq = 0;
    scans(plan, list, sizeof list, &seq);
    long long hit =
        json_integer_value(json_object_get(plan, "Shared Hit Blocks"));
    long long read =
        json_integer_value(json_object_get(plan, "Shared Read Blocks"));
    bool only = strstr(list, "Index Scan") == NULL &&
                strstr(list, "Bitmap") == NULL && seq == 0;
    printf("read=%s rows=%lld buffers=%lld ms=%.3f reads=%s scans=%s\n", name,
           (long long)json_number_value(json_object_get(plan, "Actual Rows")),
           hit + read,
           json_number_value(json_object_get(plan, "Actual Total Time")),
           seq    ? "SEQUENTIAL"
           : only ? "index-only"
                  : "index",
           list);
}

static void check_reads(PGconn *db)
{
    bench_db_exec(db, "LOAD 'auto_explain'");
    bench_db_exec(db, "SET auto_explain.log_min_duration = 0");
    bench_db_exec(db, "SET auto_explain.log_analyze = on");
    bench_db_exec(db, "SET auto_explain.log_buffers = on");
    bench_db_exec(db, "SET auto_explain.log_format = json");
    bench_db_exec(db, "SET auto_explain.log_level = notice");
    bench_db_exec(db, "SET client_min_messages = notice");
    PQsetNoticeReceiver(db, take_plan, NULL);
    apierr err;
    /* Each read twice: the second one's time, with what the first cached. */
    for (int pass = 0; pass < 2; pass++) {
        store_lobby_row *rows;
        int count;
        if (!store_lobby_list(db, NULL, LOBBY_LIST_DEFAULT, &rows, &count,
                              &err))
            die("lobby", err.message);
        store_lobby_rows_free(rows, count);
        if (pass)
            print_plan("lobby_every_game");
        if (!store_lobby_list(db, "antiquity_quest", LOBBY_LIST_DEFAULT, &rows,
                              &count, &err))
            die("lobby", err.message);
        store_lobby_rows_free(rows, count);
        if (pass)
            print_plan("lobby_one_game");
        store_listed_match *listed;
        if (!store_match_lists_of_player(db, FIRST_PLAYER + 17, NULL,
                                         MY_MATCHES_MAX, &listed, &count, &err))
            die("my matches", err.message);
        free(listed);
        if (pass)
            print_plan("player_matches");
        store_deadline_ref due[64];
        long long now = (long long)time(NULL);
        if (store_deadlines_claim_reminders(db, now, 16, due, &err) < 0)
            die("reminders", err.message);
        if (pass)
            print_plan("deadline_reminders");
        if (store_deadlines_claim_due(db, now, NULL, 0, due, &err) < 0)
            die("due", err.message);
        if (pass)
            print_plan("deadline_due");
    }
    PQsetNoticeReceiver(db, NULL, NULL);
    bench_db_exec(db, "SET auto_explain.log_min_duration = -1");
}

static void check_vacuum(PGconn *db)
{
    PGresult *r =
        bench_db_rows(db, "SELECT relname, n_live_tup, n_dead_tup,"
                          " autovacuum_count, autoanalyze_count"
                          " FROM pg_stat_user_tables"
                          " WHERE relname IN ('matches', 'events',"
                          " 'event_texts', 'deadlines', 'request_nonces')"
                          " ORDER BY relname");
    for (int i = 0; i < PQntuples(r); i++)
        printf("table=%s live=%s dead=%s autovacuums=%s autoanalyzes=%s\n",
               PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2),
               PQgetvalue(r, i, 3), PQgetvalue(r, i, 4));
    PQclear(r);
    double started = bench_now();
    bench_db_exec(db, "VACUUM (ANALYZE)");
    printf("vacuum_analyze_seconds=%.2f\n", bench_now() - started);
}

static void check_size(PGconn *db, const char *empty_url)
{
    PGconn *empty = bench_db_connect(empty_url);
    long long events = query_number(db, "SELECT count(*) FROM events");
    long long size =
        query_number(db, "SELECT pg_database_size(current_database())");
    long long bare =
        query_number(empty, "SELECT pg_database_size(current_database())");
    long long logged =
        query_number(db, "SELECT pg_total_relation_size('events')"
                         " + pg_total_relation_size('event_texts')");
    double millions = (double)events / 1e6;
    printf("events=%lld database_mb=%.0f empty_database_mb=%.0f "
           "mb_per_million_events=%.0f events_and_texts_mb_per_million=%.0f\n",
           events, (double)size / 1048576, (double)bare / 1048576,
           (double)(size - bare) / 1048576 / millions,
           (double)logged / 1048576 / millions);
    PQfinish(empty);
}

static int check(const char *empty_url)
{
    PGconn *db = bench_db_connect(getenv("DATABASE_URL"));
    check_chains(db);
    check_reads(db);
    check_vacuum(db);
    check_size(db, empty_url);
    json_decref(last_plan);
    PQfinish(db);
    return 0;
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0)
        return 1;
    if (argc == 4 && strcmp(argv[1], "fill") == 0)
        return fill(atol(argv[2]), atoll(argv[3]));
    if (argc == 3 && strcmp(argv[1], "check") == 0)
        return check(argv[2]);
    fprintf(stderr,
            "usage: %s fill MATCHES EVENTS | check EMPTY_DATABASE_URL\n",
            argv[0]);
    return 2;
}
