/* Limits a client can meet, and clients that go away: a client over the
 * connections its address may hold is told so (429 with Retry-After),
 * never closed unanswered, and a client that abandons its request does not
 * leave the server's socket waiting in CLOSE-WAIT for the request
 * deadline (issue #34: abandoned requests held the address's 200
 * connections, and the next request from it was closed unanswered). */
#include <criterion/criterion.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "../../support/wire.h"
#include "cases.h"

/* The connections one address may hold (HTTP_PER_ADDRESS_CONNECTIONS). */
#define PER_ADDRESS 200

/* How long a test waits for the server to catch up with what a client
 * did: generous on a busy machine, and far under the request deadline
 * (30 s) that would otherwise end what is waited for. */
#define CATCH_UP_SECONDS 10.0

static const char healthz[] =
    "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

/* GET /healthz from 127.0.0.<host>: what came back before the close (at
 * most WIRE_HANG_SECONDS), into text. */
static void healthz_from(int host, int port, char *text, size_t size)
{
    int fd = wire_connect_from(host, port);
    wire_send(fd, healthz, sizeof healthz - 1);
    wire_read_text_until(fd, wire_now() + WIRE_HANG_SECONDS, text, size);
    close(fd);
}

static int status_of(const char *text)
{
    return strncmp(text, "HTTP/1.", 7) == 0 ? atoi(text + 9) : 0;
}

/* The pace of a bounded poll, not a wait for anything in particular. */
static void pause_50ms(void)
{
    poll(NULL, 0, 50);
}

/* The head of the first answer on fd (up to the blank line after its
 * headers), into text, waiting at most WIRE_HANG_SECONDS; "" when the
 * connection closed or the time passed before any. */
static void read_head(int fd, char *text, size_t size)
{
    size_t len = 0;
    text[0] = '\0';
    double until = wire_now() + WIRE_HANG_SECONDS;
    while (len + 1 < size && strstr(text, "\r\n\r\n") == NULL) {
        int left = (int)((until - wire_now()) * 1000);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, left) != 1)
            break;
        ssize_t n = recv(fd, text + len, size - 1 - len, 0);
        if (n <= 0)
            break;
        len += (size_t)n;
        text[len] = '\0';
    }
}

Test(hostile_limits, a_client_over_its_address_limit_is_told_when_to_retry,
     .timeout = 120)
{
    e2e_server server = {0};
    e2e_start(&server);
    /* The address's every connection, each holding a request whose
     * headers have not ended, then more, each asking for /healthz and
     * kept open. Each connection is counted by the server thread it went
     * to, so one of the first may be counted after one of the later:
     * which of them are refused is not fixed, but 200 are served and
     * every other one is told to retry. */
    enum { more = 20 };
    static const char opening[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
    static const char whole[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    int held[PER_ADDRESS + more];
    for (int i = 0; i < PER_ADDRESS; i++) {
        held[i] = wire_connect_from(5, server.port);
        wire_send(held[i], opening, sizeof opening - 1);
    }
    int served = 0, refused = 0;
    for (int i = PER_ADDRESS; i < PER_ADDRESS + more; i++) {
        held[i] = wire_connect_from(5, server.port);
        wire_send(held[i], whole, sizeof whole - 1);
        char text[4096];
        read_head(held[i], text, sizeof text);
        int status = status_of(text);
        cr_assert_neq(status, 0,
                      "connection %d of 127.0.0.5 was closed unanswered, or "
                      "not answered within %d s",
                      i + 1, WIRE_HANG_SECONDS);
        if (status == 200) {
            served++;
            continue;
        }
        cr_expect_eq(status, 429, "connection %d: %s", i + 1, text);
        cr_expect_not_null(strstr(text, "\r\nRetry-After: 1\r\n"), "%s", text);
        refused++;
    }
    cr_expect_geq(refused, 1,
                  "%d connections from one address, none refused (%d of the "
                  "last %d served)",
                  PER_ADDRESS + more, served, more);
    /* The refusal says why, in the error shape. */
    char text[4096];
    healthz_from(5, server.port, text, sizeof text);
    cr_expect_eq(status_of(text), 429, "%s", text);
    cr_expect_not_null(strstr(text, "\"too_many_connections\""), "%s", text);
    /* Another address is not held back by this one. */
    healthz_from(1, server.port, text, sizeof text);
    cr_expect_eq(status_of(text), 200, "127.0.0.1 got: %s", text);
    /* Once the address's connections close, it is served again, as
     * Retry-After told it. */
    for (int i = 0; i < PER_ADDRESS + more; i++)
        close(held[i]);
    double began = wire_now();
    int status;
    do {
        healthz_from(5, server.port, text, sizeof text);
        status = status_of(text);
        if (status != 200)
            pause_50ms();
    } while (status != 200 && wire_now() - began < CATCH_UP_SECONDS);
    cr_expect_eq(status, 200,
                 "waited %.0f s for 127.0.0.5 to be served after closing "
                 "its %d connections; the last answer: %s",
                 CATCH_UP_SECONDS, PER_ADDRESS + more, text);
    cr_expect_eq(e2e_stop(&server), 0);
}

/* The cases the server must wait on (not answered at once), sent and
 * abandoned at once, half as many again as the address may hold. */
Test(hostile_limits, abandoned_requests_leave_no_socket_in_close_wait,
     .timeout = 120)
{
    e2e_server server = {0};
    e2e_start(&server);
    size_t count = 0;
    hostile_case *cases = hostile_cases(&count);
    int abandoned = 0;
    for (size_t i = 0; abandoned < PER_ADDRESS * 3 / 2; i = (i + 1) % count) {
        if (cases[i].prompt)
            continue;
        int fd = wire_connect(server.port);
        wire_send(fd, cases[i].bytes, cases[i].len);
        close(fd);
        abandoned++;
    }
    hostile_cases_free(cases, count);
    int waiting = wire_close_wait(server.port);
    double began = wire_now();
    while (waiting > 0 && wire_now() - began < CATCH_UP_SECONDS) {
        pause_50ms();
        waiting = wire_close_wait(server.port);
    }
    cr_expect_eq(waiting, 0,
                 "waited %.0f s for pbemd (port %d) to close the sockets of "
                 "%d abandoned requests: %d still in CLOSE-WAIT",
                 CATCH_UP_SECONDS, server.port, abandoned, waiting);
    char text[4096];
    healthz_from(1, server.port, text, sizeof text);
    cr_expect_eq(status_of(text), 200,
                 "/healthz from 127.0.0.1 after %d abandoned requests: %s",
                 abandoned, text);
    cr_expect_eq(e2e_stop(&server), 0);
}
