/* The database as an operator meets it under a running pbemd: restarted,
 * hung, and the request nonces it would keep forever.
 *
 * PostgreSQL restarts under a running pbemd: every connection a worker
 * kept is closed by the server while it sits idle. The next request on
 * each worker must not pay for it with a 500: the worker reconnects (and a
 * request whose connection is lost mid-way runs again when that is safe),
 * and while the database cannot be reached at all the answer is 503
 * database_unavailable with Retry-After.
 *
 * A restart of the shared test cluster would break the suites running
 * beside this one, so the restart is what each worker sees of one: the
 * server ends every backend of this test's own database
 * (pg_terminate_backend, as a fast shutdown does), and refuses new
 * connections to it while "down". */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"

/* The threads pbemd runs requests on; every one must meet the restart. */
#define WORKERS 4
/* Fresh connections spread over the workers: enough that each gets some. */
#define REQUESTS (WORKERS * 8)

/* A connection to the run's own database, beside this test's. */
static PGconn *admin_connect(void)
{
    PGconn *conn = PQconnectdb(getenv("PBEM_ADMIN_DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    return conn;
}

static void sql(PGconn *conn, const char *text)
{
    PGresult *r = PQexec(conn, text);
    cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK ||
                  PQresultStatus(r) == PGRES_TUPLES_OK,
              "%s: %s", text, PQerrorMessage(conn));
    PQclear(r);
}

/* Ends every backend of database, as a restart does. */
static void end_backends(PGconn *admin, const char *database)
{
    char text[256];
    snprintf(text, sizeof text,
             "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
             " WHERE datname = '%s'",
             database);
    sql(admin, text);
}

/* How many backends of database carry application_name name. */
static int backends_named(PGconn *admin, const char *database, const char *name)
{
    const char *const values[] = {database, name};
    PGresult *r = PQexecParams(admin,
                               "SELECT count(*) FROM pg_stat_activity"
                               " WHERE datname = $1 AND application_name = $2",
                               2, NULL, values, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(admin));
    int n = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

static int elapsed_ms(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int)((now.tv_sec - since->tv_sec) * 1000 +
                 (now.tv_nsec - since->tv_nsec) / 1000000);
}

/* One request on a new connection (so requests spread over the workers);
 * the whole answer into out. Returns the status. */
static int fresh_get_within(int port, const char *path, char *out,
                            size_t cap, int limit_ms);

static int fresh_get(int port, const char *path, char *out, size_t cap)
{
    int status = fresh_get_within(port, path, out, cap, 10000);
    cr_assert_neq(status, 0, "no answer to GET %s", path);
    return status;
}

/* fresh_get waiting at most limit_ms for the whole answer; 0 when it did
 * not come (never fails the test: a frozen database may still be held). */
static int fresh_get_within(int port, const char *path, char *out,
                            size_t cap, int limit_ms)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in to = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&to, sizeof to), 0, "%s",
                 strerror(errno));
    char request[256];
    int len = snprintf(request, sizeof request,
                       "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       "Connection: close\r\n\r\n",
                       path);
    cr_assert_eq(send(fd, request, (size_t)len, MSG_NOSIGNAL), len);
    size_t got = 0;
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int left = limit_ms - elapsed_ms(&began);
        if (left <= 0 || poll(&p, 1, left) != 1) {
            close(fd);
            out[got] = '\0';
            return 0;
        }
        ssize_t n = recv(fd, out + got, cap - 1 - got, 0);
        if (n <= 0 || got + (size_t)n >= cap - 1)
            break;
        got += (size_t)n;
    }
    out[got] = '\0';
    close(fd);
    return got > 12 ? atoi(out + 9) : 0;
}

Test(database_restart, every_worker_reconnects_without_a_500,
     .timeout = 120)
{
    char database[96];
    e2e_private_database(database, sizeof database);
    setenv("PBEM_THREADS", "4", 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    PGconn *admin = admin_connect();
    char path[64], answer[16384];
    snprintf(path, sizeof path, "/v1/matches/%s", t.match);

    /* Every worker holds a connection, which an operator looking at
     * pg_stat_activity tells from other clients' by its name. */
    for (int i = 0; i < REQUESTS; i++)
        cr_assert_eq(fresh_get(t.server.port, path, answer, sizeof answer),
                     200, "%s", answer);
    cr_expect_geq(backends_named(admin, database, "pbemd"), WORKERS,
                  "pbemd's connections to %s are not named pbemd", database);

    end_backends(admin, database);
    for (int i = 0; i < REQUESTS; i++) {
        int status = fresh_get(t.server.port, path, answer, sizeof answer);
        cr_expect_eq(status, 200, "request %d after the restart: %s", i,
                     answer);
        if (status != 200)
            break;
    }

    /* A write after the next restart is applied, once. */
    end_backends(admin, database);
    json_int_t seq = e2e_head_seq(&t);
    for (int i = 0; i < REQUESTS; i++)
        fresh_get(t.server.port, "/healthz", answer, sizeof answer);
    end_backends(admin, database);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_decref(match);
    json_t *view = e2e_get(&t, "/view", &t.players[seat]);
    json_t *action = json_incref(json_array_get(
        json_object_get(json_object_get(view, "legal"), "moves"), 0));
    json_decref(view);
    end_backends(admin, database);
    e2e_response r = e2e_post_move(&t, seat, seq, action);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    json_decref(action);
    cr_expect_eq(e2e_head_seq(&t), seq + 1);

    /* Down: no new connection is let in. */
    char refuse[256];
    snprintf(refuse, sizeof refuse,
             "ALTER DATABASE \"%s\" ALLOW_CONNECTIONS false", database);
    sql(admin, refuse);
    end_backends(admin, database);
    int status = fresh_get(t.server.port, path, answer, sizeof answer);
    cr_expect_eq(status, 503, "%s", answer);
    cr_expect(strstr(answer, "\"database_unavailable\"") != NULL, "%s",
              answer);
    cr_expect(strstr(answer, "Retry-After: ") != NULL, "%s", answer);

    /* Back: served again at once. */
    snprintf(refuse, sizeof refuse,
             "ALTER DATABASE \"%s\" ALLOW_CONNECTIONS true", database);
    sql(admin, refuse);
    for (int i = 0; i < REQUESTS; i++)
        cr_expect_eq(fresh_get(t.server.port, path, answer, sizeof answer),
                     200, "request %d once the database is back: %s", i,
                     answer);
    PQfinish(admin);
    e2e_stop(&t.server);
}

/* Sends sig to every backend of database; how many into pids (up to
 * max). */
static int signal_backends(PGconn *admin, const char *database, int sig,
                           int *pids, int max)
{
    char text[256];
    snprintf(text, sizeof text,
             "SELECT pid FROM pg_stat_activity WHERE datname = '%s'",
             database);
    PGresult *r = PQexec(admin, text);
    int n = 0;
    for (int i = 0; i < PQntuples(r) && n < max; i++) {
        pids[n] = atoi(PQgetvalue(r, i, 0));
        kill(pids[n], sig);
        n++;
    }
    PQclear(r);
    return n;
}

/* PostgreSQL hangs (its backends stopped, as SIGSTOP did in the issue):
 * /healthz answers within its own short limit, and any other request
 * within the database limit (then on a new connection), instead of
 * waiting as long as the database hangs. */
Test(database_restart, a_hung_database_holds_no_request_past_its_limit,
     .timeout = 120)
{
    char database[96];
    e2e_private_database(database, sizeof database);
    setenv("PBEM_THREADS", "2", 1);
    setenv("PBEM_DB_TIMEOUT_MS", "2000", 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    unsetenv("PBEM_DB_TIMEOUT_MS");
    PGconn *admin = admin_connect();
    char path[64], answer[16384];
    snprintf(path, sizeof path, "/v1/matches/%s", t.match);
    for (int i = 0; i < 8; i++)
        cr_assert_eq(fresh_get(t.server.port, path, answer, sizeof answer),
                     200, "%s", answer);

    /* Nothing between the stop and the continue may end the test. */
    int pids[64];
    int frozen = signal_backends(admin, database, SIGSTOP, pids, 64);
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    int health = fresh_get_within(t.server.port, "/healthz", answer,
                                  sizeof answer, 8000);
    int health_ms = elapsed_ms(&began);
    clock_gettime(CLOCK_MONOTONIC, &began);
    int match = fresh_get_within(t.server.port, path, answer, sizeof answer,
                                 8000);
    int match_ms = elapsed_ms(&began);
    for (int i = 0; i < frozen; i++)
        kill(pids[i], SIGCONT);

    cr_expect_gt(frozen, 0, "no backend to freeze");
    cr_log_info("frozen: /healthz %d in %d ms, a match %d in %d ms", health,
                health_ms, match, match_ms);
    cr_expect(health == 200 || health == 503, "/healthz: %d", health);
    cr_expect_lt(health_ms, 1800, "/healthz took %d ms", health_ms);
    cr_expect(match == 200 || match == 503, "GET %s: %d", path, match);
    cr_expect_lt(match_ms, 5000, "GET %s took %d ms", path, match_ms);

    /* Thawed: served again. */
    cr_expect_eq(fresh_get(t.server.port, path, answer, sizeof answer), 200,
                 "%s", answer);
    PQfinish(admin);
    e2e_stop(&t.server);
}

static long long count_nonces(PGconn *conn, const char *nonce)
{
    const char *params[] = {nonce};
    PGresult *r = PQexecParams(conn,
                               "SELECT count(*) FROM request_nonces"
                               " WHERE nonce = $1",
                               1, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

/* request_nonces grew forever (214k rows beside 250k moves): the running
 * service prunes what the signature window has closed on and keeps the
 * nonces a retry may still need. */
Test(database_restart, the_service_prunes_nonces_past_the_window,
     .timeout = 60)
{
    char database[96];
    e2e_private_database(database, sizeof database);
    char command[256];
    snprintf(command, sizeof command, "\"$PBEM_BIN\" migrate >/dev/null");
    cr_assert_eq(system(command), 0, "pbemd migrate failed");
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    sql(db, "INSERT INTO request_nonces (key_id, nonce, request_digest,"
            " status, response, created_at) VALUES"
            " ('k_1', 'spent', '\\x00', 200, '{}', now() - interval '1 day'),"
            " ('k_1', 'fresh', '\\x00', 200, '{}', now() - interval '1 minute')");
    setenv("PBEM_DEADLINE_POLL_MS", "50", 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_DEADLINE_POLL_MS");
    /* The first round prunes; ten seconds is many rounds. */
    for (int i = 0; i < 500 && count_nonces(db, "spent") > 0; i++)
        poll(NULL, 0, 20);
    cr_expect_eq(count_nonces(db, "spent"), 0, "the spent nonce is kept");
    cr_expect_eq(count_nonces(db, "fresh"), 1);
    PQfinish(db);
    e2e_stop(&server);
}
