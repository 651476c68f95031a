/* Requests past the size limits, through the real pbemd: each is answered
 * 414 or 431 within a second, not left to the idle timeout. 600 query
 * arguments were never answered before (libmicrohttpd's pool filled while
 * it parsed them, and the 431 it then tried never went out): the client
 * waited 30 s for a closed connection. The clock runs from the last byte
 * sent. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "../../support/wire.h"

/* head + count copies of unit + tail (malloc'd). */
static char *repeated(const char *head, const char *unit, size_t count,
                      const char *tail)
{
    size_t len = strlen(head) + strlen(unit) * count + strlen(tail);
    char *text = malloc(len + 1);
    cr_assert_not_null(text);
    char *at = stpcpy(text, head);
    for (size_t i = 0; i < count; i++)
        at = stpcpy(at, unit);
    strcpy(at, tail);
    return text;
}

#define TAIL " HTTP/1.1\r\nHost: x\r\n\r\n"

Test(hostile_sizes, past_the_limits_is_answered_within_a_second, .timeout = 60)
{
    setenv("PBEM_HTTP_REQUEST_SECONDS", "30", 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_HTTP_REQUEST_SECONDS");
    struct {
        const char *name;
        char *bytes;
        int status;
    } sizes[] = {
        {"600 query arguments", repeated("GET /healthz?", "a=1&", 600, TAIL),
         414},
        {"65 query arguments", repeated("GET /healthz?", "a=1&", 65, TAIL),
         414},
        {"a 9 KiB target", repeated("GET /healthz?", "a", 9 * 1024, TAIL), 414},
        {"a 64 KiB target", repeated("GET /healthz?", "a", 64 * 1024, TAIL),
         414},
        {"300 header fields",
         repeated("GET /healthz HTTP/1.1\r\nHost: x\r\n", "X-Many: 1\r\n", 300,
                  "\r\n"),
         431},
        {"a 64 KiB header field",
         repeated("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: ", "a", 64 * 1024,
                  "\r\n\r\n"),
         431},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int fd = wire_connect(server.port);
        wire_send(fd, sizes[i].bytes, strlen(sizes[i].bytes));
        double sent = wire_now();
        int status = wire_status_within(fd, 1.0);
        double took = wire_now() - sent;
        close(fd);
        cr_log_info("%-24s %d in %.3f s", sizes[i].name, status, took);
        cr_expect_eq(status, sizes[i].status,
                     "%s: got %d within a second, wanted %d", sizes[i].name,
                     status, sizes[i].status);
        free(sizes[i].bytes);
    }
    cr_expect_eq(e2e_stop(&server), 0);
}
