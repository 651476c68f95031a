/* Request smuggling: a head whose framing a proxy in front may read
 * otherwise than the server (two Content-Lengths, a Transfer-Encoding with
 * whitespace before its colon), followed on the same connection by a
 * request hidden where one of them thinks the body is. The head is refused
 * (400, or 411 for a chunked body) and the connection closed: the hidden
 * request is never answered. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "../../support/wire.h"

#define HIDDEN "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
#define POST                                                                   \
    "POST /v1/players HTTP/1.1\r\nHost: x\r\n"                                 \
    "Content-Type: application/json\r\n"

/* A literal's bytes, NULs included. */
#define SHAPE(name, literal, status)                                           \
    {                                                                          \
        name, literal, sizeof literal - 1, status                              \
    }

static const struct {
    const char *name;
    const char *bytes;
    size_t len;
    int status;
} shapes[] = {
    /* The first length frames "{}", the second swallows the rest. */
    SHAPE("Content-Length 2 then 40",
          POST "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}" HIDDEN, 400),
    SHAPE("Content-Length 40 then 2",
          POST "Content-Length: 40\r\nContent-Length: 2\r\n\r\n{}" HIDDEN, 400),
    SHAPE("Content-Length twice, equal",
          POST "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}" HIDDEN, 400),
    /* A proxy that reads the coding sees an empty chunked body, then the
     * hidden request; libmicrohttpd read the body by Content-Length. */
    SHAPE("Transfer-Encoding with whitespace before its colon",
          POST "Transfer-Encoding : chunked\r\nContent-Length: 5\r\n\r\n"
               "0\r\n\r\n" HIDDEN,
          400),
    SHAPE("Content-Length with whitespace before its colon",
          POST "Content-Length : 40\r\nContent-Length: 2\r\n\r\n{}" HIDDEN,
          400),
    SHAPE("Transfer-Encoding and Content-Length",
          POST "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"
               "0\r\n\r\n" HIDDEN,
          411),
    SHAPE("two Hosts",
          "GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n" HIDDEN, 400),
    SHAPE("no Host on HTTP/1.1", "GET /healthz HTTP/1.1\r\n\r\n" HIDDEN, 400),
    /* libmicrohttpd reads the value up to the NUL (2); a proxy may read it
     * whole, or refuse to pass it on. */
    SHAPE("NUL in Content-Length's value",
          POST "Content-Length: 2\0 40\r\n\r\n{}" HIDDEN, 400),
    /* An obs-fold line: libmicrohttpd joins it to the name before it. */
    SHAPE("a Content-Length folded into the line before",
          POST "X-A: a\r\n Content-Length: 40\r\nContent-Length: 2\r\n\r\n"
               "{}" HIDDEN,
          400),
    SHAPE("Transfer-Encoding folded",
          POST "Transfer-Encoding:\r\n chunked\r\nContent-Length: 5\r\n\r\n"
               "0\r\n\r\n" HIDDEN,
          400),
};

Test(hostile_smuggling, the_hidden_request_is_never_answered, .timeout = 60)
{
    setenv("PBEM_HTTP_REQUEST_SECONDS", "30", 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_HTTP_REQUEST_SECONDS");
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        int fd = wire_connect(server.port);
        wire_send(fd, shapes[i].bytes, shapes[i].len);
        /* With a 30 s deadline, a close within the hang bound is the
         * server's own. */
        wire_outcome got = wire_read_until(fd, wire_now() + WIRE_HANG_SECONDS);
        close(fd);
        cr_log_info("%-52s %d (%d answers)%s", shapes[i].name, got.status,
                    got.answers, got.closed ? ", closed" : ", open");
        cr_expect_eq(got.status, shapes[i].status, "%s: got %d, wanted %d",
                     shapes[i].name, got.status, shapes[i].status);
        cr_expect_eq(got.answers, 1,
                     "%s: %d answers: the hidden request was answered",
                     shapes[i].name, got.answers);
        cr_expect(got.closed, "%s: the connection stayed open", shapes[i].name);
    }
    /* Each refusal names its fault in the one error shape. */
    int fd = wire_connect(server.port);
    wire_send(fd, shapes[0].bytes, shapes[0].len);
    char text[2048];
    wire_read_text_until(fd, wire_now() + WIRE_HANG_SECONDS, text, sizeof text);
    close(fd);
    cr_expect(strstr(text, "\"code\":\"bad_content_length\"") != NULL, "%s",
              text);
    cr_expect(strstr(text, "Content-Length is given more than once") != NULL,
              "%s", text);
    cr_expect_eq(e2e_stop(&server), 0);
}
