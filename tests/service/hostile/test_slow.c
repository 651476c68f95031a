/* Clients that send too slowly: headers a byte at a time (slowloris), a
 * body a byte at a time. Each is closed once the request deadline
 * (PBEM_HTTP_REQUEST_SECONDS) has passed, and while many are held a normal
 * client keeps getting its answers. How fast those answers come is a
 * benchmark figure (bench/slow_clients.c), not asserted here. */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "../../support/wire.h"

static void start_with_deadline(e2e_server *server)
{
    char seconds[8];
    snprintf(seconds, sizeof seconds, "%d", WIRE_DEADLINE_SECONDS);
    setenv("PBEM_HTTP_REQUEST_SECONDS", seconds, 1);
    e2e_start(server);
    unsetenv("PBEM_HTTP_REQUEST_SECONDS");
}

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&t, NULL);
}

/* Sends text a byte every gap_ms until the server closes or answers, or
 * until the hang bound; what the server did. */
static wire_outcome drip(int fd, const char *text, size_t len, long gap_ms)
{
    double until = wire_now() + WIRE_HANG_SECONDS;
    for (size_t i = 0; wire_now() < until; i++) {
        if (i < len && send(fd, text + i, 1, MSG_NOSIGNAL) != 1)
            return wire_read_until(fd, until);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)gap_ms) == 1)
            return wire_read_until(fd, until);
    }
    return wire_read_until(fd, until);
}

Test(hostile_slow, headers_a_byte_at_a_time_are_closed_at_the_deadline,
     .timeout = 60)
{
    e2e_server server = {0};
    start_with_deadline(&server);
    /* At a byte every 200 ms these headers would take 20 s to arrive. */
    static const char request[] =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nUser-Agent: slowloris\r\n"
        "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    int fd = wire_connect(server.port);
    wire_outcome got = drip(fd, request, sizeof request - 1, 200);
    close(fd);
    cr_expect(got.closed, "a slowloris client was still connected %d s on",
              WIRE_HANG_SECONDS);
    cr_expect(got.status == 0 || (got.status >= 400 && got.status < 500),
              "a request that never arrived got %d", got.status);
    e2e_response r = e2e_call(&server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    cr_expect_eq(e2e_stop(&server), 0);
}

Test(hostile_slow, a_body_a_byte_at_a_time_is_closed_at_the_deadline,
     .timeout = 60)
{
    e2e_server server = {0};
    start_with_deadline(&server);
    static const char head[] =
        "POST /v1/players HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n";
    char body[101];
    memset(body, ' ', 100);
    body[0] = '{';
    body[99] = '}';
    body[100] = '\0';
    int fd = wire_connect(server.port);
    wire_send(fd, head, sizeof head - 1);
    wire_outcome got = drip(fd, body, 100, 200);
    close(fd);
    cr_expect(got.closed, "a slow body was still being read %d s on",
              WIRE_HANG_SECONDS);
    cr_expect(got.status == 0 || (got.status >= 400 && got.status < 500),
              "a body that never arrived got %d", got.status);
    cr_expect_eq(e2e_stop(&server), 0);
}

typedef struct prober {
    int port;
    volatile bool stop;
    int answered, unanswered;
} prober;

/* A normal client: GET /healthz on a new connection, again and again,
 * each given the hang bound to be answered. */
static void *probe(void *arg)
{
    prober *p = arg;
    static const char request[] =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    while (!p->stop) {
        int fd = wire_connect(p->port);
        wire_send(fd, request, sizeof request - 1);
        wire_outcome got = wire_read_until(fd, wire_now() + WIRE_HANG_SECONDS);
        close(fd);
        if (got.status == 200)
            p->answered++;
        else
            p->unanswered++;
        pause_ms(100);
    }
    return NULL;
}

/* 300 connections from two other addresses, each sending its headers a
 * byte at a time, reopened whenever the server drops one, for three
 * deadlines; the normal client from 127.0.0.1 gets every answer. */
Test(hostile_slow, a_normal_client_is_answered_while_slow_ones_are_held,
     .timeout = 90)
{
    e2e_server server = {0};
    start_with_deadline(&server);
    enum { slow = 300 };
    static const char request[] =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: "
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        "\r\n\r\n";
    int fds[slow];
    size_t sent[slow];
    for (int i = 0; i < slow; i++) {
        fds[i] = wire_connect_from(2 + i % 2, server.port);
        sent[i] = 0;
    }
    prober p = {.port = server.port};
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, NULL, probe, &p), 0);
    int reopened = 0;
    double began = wire_now();
    while (wire_now() - began < 3 * WIRE_DEADLINE_SECONDS) {
        for (int i = 0; i < slow; i++) {
            char sink[256];
            ssize_t n = recv(fds[i], sink, sizeof sink, MSG_DONTWAIT);
            bool dropped = n == 0 || (n < 0 && errno != EAGAIN &&
                                      errno != EWOULDBLOCK);
            if (!dropped && sent[i] < sizeof request - 1 &&
                send(fds[i], request + sent[i], 1, MSG_NOSIGNAL) == 1) {
                sent[i]++;
                continue;
            }
            if (dropped) {
                close(fds[i]);
                fds[i] = wire_connect_from(2 + i % 2, server.port);
                sent[i] = 0;
                reopened++;
            }
        }
        pause_ms(250);
    }
    p.stop = true;
    pthread_join(thread, NULL);
    for (int i = 0; i < slow; i++)
        close(fds[i]);
    cr_log_info("%d slow connections, %d dropped by the deadline and "
                "opened again; /healthz answered %d times, %d not",
                slow, reopened, p.answered, p.unanswered);
    /* The deadline did reap them: the load was really held and renewed. */
    cr_expect_geq(reopened, slow, "only %d of %d slow connections closed",
                  reopened, slow);
    cr_expect_gt(p.answered, 0);
    cr_expect_eq(p.unanswered, 0);
    cr_expect_eq(e2e_stop(&server), 0);
}
