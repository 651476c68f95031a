/* How pbemd takes connections (http/acceptor.h): each new connection goes
 * to the thread holding the fewest, so connections opened together are
 * spread evenly, and a request that waits (here for a table lock) holds up
 * no connection but its own; at the connection limit, or out of
 * descriptors, new clients wait in the backlog and are served later. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "../../support/pgtest.h"
#include "../../support/wire.h"

/* A client of its own, so a connection of its own, opened by a first
 * GET /healthz. */
static client *another_connection(const e2e_server *server)
{
    char base[64], error[256];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", server->port);
    client *c = client_new(base);
    client_response r;
    cr_assert(client_send(c, "GET", "/healthz", NULL, NULL, NULL, &r, error),
              "%s", error);
    cr_assert_eq(r.status, 200, "%s", r.body);
    client_response_free(&r);
    return c;
}

/* Starts pbemd with one setting of its environment. */
static void start_with(e2e_server *server, const char *name, const char *value)
{
    setenv(name, value, 1);
    *server = (e2e_server){0};
    e2e_start(server);
    unsetenv(name);
}

Test(connections, connections_opened_together_are_spread_over_the_threads,
     .timeout = 60)
{
    e2e_server server;
    start_with(&server, "PBEM_THREADS", "4");
    enum { opened = 12 };
    client *clients[opened];
    for (int i = 0; i < opened; i++)
        clients[i] = another_connection(&server);

    /* Asked on one more connection, the test's own. */
    e2e_response r = e2e_call(&server, "GET", "/metrics", NULL, NULL);
    cr_assert_eq(r.status, 200);
    int threads = 0;
    unsigned held[8], total = 0, least = ~0u, most = 0;
    for (const char *at = strstr(r.body, "\npbem_http_thread_connections{");
         at != NULL && threads < 8;
         at = strstr(at + 1, "\npbem_http_thread_connections{")) {
        int thread;
        cr_assert_eq(sscanf(at, "\npbem_http_thread_connections{thread=\"%d\"} %u",
                            &thread, &held[threads]),
                     2, "%.80s", at + 1);
        total += held[threads];
        least = held[threads] < least ? held[threads] : least;
        most = held[threads] > most ? held[threads] : most;
        threads++;
    }
    cr_expect_eq(threads, 4, "threads shown: %d", threads);
    cr_expect_eq(total, opened + 1, "connections held: %u", total);
    cr_expect_leq(most - least, 1,
                  "connections per thread: %u %u %u %u (fewest %u, most %u)",
                  held[0], held[1], held[2], held[3], least, most);
    e2e_response_free(&r);
    for (int i = 0; i < opened; i++)
        client_free(clients[i]);
    e2e_stop(&server);
}

static void exec_ok(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s: %s", sql,
                 PQerrorMessage(conn));
    PQclear(r);
}

static void send_text(int fd, const char *text)
{
    size_t len = strlen(text);
    cr_assert_eq(send(fd, text, len, MSG_NOSIGNAL), (ssize_t)len, "%s",
                 strerror(errno));
}

/* Connections opened together, as a client with several does: the first
 * one's request waits for a lock on the matches table; the others' are
 * answered meanwhile. libmicrohttpd's thread pool gave such a burst of
 * connections to one thread, where they waited behind the first. */
Test(connections, a_request_that_waits_holds_up_no_other_connection,
     .timeout = 60)
{
    char database[96];
    e2e_private_database(database, sizeof database);
    setenv("PBEM_THREADS", "4", 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    unsetenv("PBEM_THREADS");
    enum { together = 3 };
    int fds[together];
    for (int i = 0; i < together; i++)
        fds[i] = wire_connect(t.server.port);

    PGconn *blocker = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(blocker), CONNECTION_OK, "%s",
                 PQerrorMessage(blocker));
    exec_ok(blocker, "BEGIN");
    exec_ok(blocker, "LOCK TABLE matches IN ACCESS EXCLUSIVE MODE");
    char request[160];
    snprintf(request, sizeof request,
             "GET /v1/matches/%s HTTP/1.1\r\nHost: x\r\n\r\n", t.match);
    send_text(fds[0], request);
    pgtest_until_blocked_by(blocker);

    for (int i = 1; i < together; i++) {
        double began = wire_now();
        send_text(fds[i], "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        int status = wire_status_within(fds[i], 5);
        cr_expect_eq(status, 200,
                     "GET /healthz on connection %d while the first "
                     "waited: %d after %.2f s",
                     i, status, wire_now() - began);
    }

    exec_ok(blocker, "COMMIT");
    cr_expect_eq(wire_status_within(fds[0], 10), 200,
                 "the waiting request, once the lock went");
    PQfinish(blocker);
    for (int i = 0; i < together; i++)
        close(fds[i]);
    e2e_stop(&t.server);
}

/* At PBEM_HTTP_CONNECTIONS, a new client waits in the backlog instead of
 * being refused, and is served as soon as another connection closes. */
Test(connections, past_the_limit_a_client_waits_for_a_connection_to_close,
     .timeout = 60)
{
    e2e_server server;
    start_with(&server, "PBEM_HTTP_CONNECTIONS", "16");
    /* The test's own client holds no connection yet: all 16 are these. */
    enum { limit = 16 };
    static const char healthz[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    int fds[limit];
    for (int i = 0; i < limit; i++) {
        fds[i] = wire_connect(server.port);
        send_text(fds[i], healthz);
        cr_assert_eq(wire_status_within(fds[i], 5), 200, "connection %d",
                     i);
    }
    int late = wire_connect(server.port);
    send_text(late, healthz);
    cr_expect_eq(wire_status_within(late, 1), 0,
                 "a 17th connection was served while 16 were open");
    close(fds[0]);
    cr_expect_eq(wire_status_within(late, 5), 200,
                 "the waiting client, once a connection closed");
    close(late);
    for (int i = 1; i < limit; i++)
        close(fds[i]);
    e2e_stop(&server);
}

/* Descriptors pbemd holds open now. */
static int open_descriptors(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *dir = opendir(path);
    cr_assert_not_null(dir);
    int n = 0;
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir))
        if (e->d_name[0] != '.')
            n++;
    closedir(dir);
    return n;
}

/* pbemd's CPU time so far, in clock ticks. */
static long cpu_ticks(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char stat[1024];
    cr_assert_not_null(fgets(stat, sizeof stat, f));
    fclose(f);
    /* Fields 14 and 15 (utime, stime) follow the command's closing ")". */
    const char *at = strrchr(stat, ')');
    cr_assert_not_null(at);
    long utime = 0, stime = 0;
    cr_assert_eq(sscanf(at + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
                                "%ld %ld",
                        &utime, &stime),
                 2);
    return utime + stime;
}

/* Out of descriptors, new clients wait in the backlog: the server does not
 * spin trying to accept them, and serves them once descriptors are free. */
Test(connections, out_of_descriptors_clients_wait_and_are_served_later,
     .timeout = 60)
{
    e2e_server server;
    start_with(&server, "PBEM_THREADS", "2");
    static const char healthz[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    /* Both threads with their database connection open. */
    enum { threads = 2, room = 4, waiting = 4 };
    int held[threads + room];
    for (int i = 0; i < threads; i++) {
        held[i] = wire_connect(server.port);
        send_text(held[i], healthz);
        cr_assert_eq(wire_status_within(held[i], 5), 200);
    }
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max =
        (rlim_t)(open_descriptors(server.pid) + room);
    cr_assert_eq(prlimit(server.pid, RLIMIT_NOFILE, &limit, NULL), 0, "%s",
                 strerror(errno));
    for (int i = threads; i < threads + room; i++) {
        held[i] = wire_connect(server.port);
        send_text(held[i], healthz);
        cr_assert_eq(wire_status_within(held[i], 5), 200,
                     "connection %d, within the descriptors left", i);
    }

    int late[waiting];
    for (int i = 0; i < waiting; i++) {
        late[i] = wire_connect(server.port);
        send_text(late[i], healthz);
    }
    long before = cpu_ticks(server.pid);
    cr_expect_eq(wire_status_within(late[0], 1), 0,
                 "served with no descriptor left");
    long spent = cpu_ticks(server.pid) - before;
    cr_expect_lt(spent, sysconf(_SC_CLK_TCK) / 5,
                 "pbemd used %ld ticks in a second with nothing to do but "
                 "wait for descriptors",
                 spent);

    for (int i = 0; i < threads + room; i++)
        close(held[i]);
    for (int i = 0; i < waiting; i++) {
        cr_expect_eq(wire_status_within(late[i], 5), 200,
                     "waiting client %d, once descriptors were free", i);
        close(late[i]);
    }
    e2e_stop(&server);
}
