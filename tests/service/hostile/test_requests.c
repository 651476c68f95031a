/* Malformed HTTP/1.1 against the real pbemd: request lines, control bytes,
 * sizes past libmicrohttpd's limits, framing that disagrees with itself.
 * Each gets a 4xx or its connection closed, never a 5xx (one exception,
 * 505, is the answer RFC 9110 gives to an unknown version), and nothing
 * stays open past the request deadline. Sent all at once, then each read
 * within the same bounded wait, so the suite takes one deadline. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "cases.h"
#include "../../support/wire.h"

static void expect_outcome(const hostile_case *c, wire_outcome got)
{
    cr_expect(got.closed, "%s: still open %d s after it was sent", c->name,
              WIRE_HANG_SECONDS);
    switch (c->expect) {
    case EXPECT_STATUS:
        cr_expect_eq(got.status, c->status, "%s: got %d, wanted %d", c->name,
                     got.status, c->status);
        break;
    case EXPECT_REFUSED:
        cr_expect(got.status == 0 || (got.status >= 400 && got.status < 500),
                  "%s: got %d, wanted a 4xx or the connection closed",
                  c->name, got.status);
        break;
    case EXPECT_SERVED_FIRST:
        cr_expect_eq(got.status, 200, "%s: the good request got %d", c->name,
                     got.status);
        break;
    }
    if (c->expect != EXPECT_STATUS || c->status < 500)
        cr_expect_lt(got.worst, 500, "%s: a %d among the answers", c->name,
                     got.worst);
}

Test(hostile_requests, each_is_refused_or_closed_before_the_deadline,
     .timeout = 120)
{
    char seconds[8];
    snprintf(seconds, sizeof seconds, "%d", WIRE_DEADLINE_SECONDS);
    setenv("PBEM_HTTP_REQUEST_SECONDS", seconds, 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_HTTP_REQUEST_SECONDS");
    size_t count = 0;
    hostile_case *cases = hostile_cases(&count);
    int *fds = calloc(count, sizeof *fds);
    cr_assert_not_null(fds);
    double sent = wire_now();
    for (size_t i = 0; i < count; i++) {
        fds[i] = wire_connect(server.port);
        wire_send(fds[i], cases[i].bytes, cases[i].len);
    }
    double until = sent + WIRE_HANG_SECONDS;
    for (size_t i = 0; i < count; i++) {
        wire_outcome got = wire_read_until(fds[i], until);
        close(fds[i]);
        cr_log_info("%-34s %d (%d answers)%s", cases[i].name, got.status,
                    got.answers, got.closed ? ", closed" : ", open");
        expect_outcome(&cases[i], got);
    }
    free(fds);
    hostile_cases_free(cases, count);

    e2e_response r = e2e_call(&server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    cr_expect_eq(e2e_stop(&server), 0);
}

/* Each case alone, on a fresh connection: the answer does not depend on
 * others being in flight with it. Only those answered at once. */
Test(hostile_requests, prompt_cases_are_answered_without_waiting_for_the_deadline,
     .timeout = 120)
{
    setenv("PBEM_HTTP_REQUEST_SECONDS", "30", 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_HTTP_REQUEST_SECONDS");
    size_t count = 0;
    hostile_case *cases = hostile_cases(&count);
    for (size_t i = 0; i < count; i++) {
        if (!cases[i].prompt)
            continue;
        int fd = wire_connect(server.port);
        wire_send(fd, cases[i].bytes, cases[i].len);
        /* With a 30 s deadline, a close within the hang bound is the
         * server refusing the request, not the deadline reaping it. */
        wire_outcome got = wire_read_until(fd, wire_now() + WIRE_HANG_SECONDS);
        close(fd);
        expect_outcome(&cases[i], got);
    }
    hostile_cases_free(cases, count);
    cr_expect_eq(e2e_stop(&server), 0);
}

/* pbemd's log: the lines in the service's own form (time, level,
 * words) that begin with "http: " into *library; the first line not in
 * that form, or that speaks of a client gone, into found ("" if none). */
static void read_log(const char *file, int *library, char *found, size_t size)
{
    FILE *in = fopen(file, "r");
    cr_assert_not_null(in, "cannot read pbemd's log %s", file);
    char line[1024];
    found[0] = '\0';
    *library = 0;
    while (fgets(line, sizeof line, in) != NULL) {
        int year, month, day;
        bool ours = sscanf(line, "%4d-%2d-%2dT", &year, &month, &day) == 3 &&
                    (strstr(line, "Z INFO ") || strstr(line, "Z WARN ") ||
                     strstr(line, "Z ERROR "));
        if (ours && strstr(line, " http: ") != NULL)
            (*library)++;
        if (found[0] == '\0' && (!ours || strstr(line, "remote") != NULL ||
                                 strstr(line, "closure") != NULL))
            snprintf(found, size, "%s", line);
    }
    fclose(in);
}

/* Clients that leave halfway through a request (a tab closed, a phone
 * out of reach) are everyday life, and no fault of the service; a client
 * sending requests that cannot be parsed is told so (400) each time, and
 * the log says it once, not once a request. pbemd's log keeps to what
 * needs a person, each line with its time and level. */
#define CLIENTS 20

Test(hostile_requests, leavers_and_malformed_requests_do_not_flood_the_log,
     .timeout = 60)
{
    char log[256];
    const char *tmp = getenv("TMPDIR");
    snprintf(log, sizeof log, "%s/pbem-hostile-log-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(log);
    cr_assert_geq(fd, 0);
    close(fd);
    /* One server thread: the leavers' connections are handled before
     * the request that follows them. */
    setenv("PBEM_E2E_SERVER_LOG", log, 1);
    setenv("PBEM_THREADS", "1", 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_E2E_SERVER_LOG");
    unsetenv("PBEM_THREADS");

    static const char half[] = "GET /v1/games HTTP/1.1\r\nHost: pbem\r\n";
    for (int i = 0; i < CLIENTS; i++) {
        int leaver = wire_connect(server.port);
        wire_send(leaver, half, sizeof half - 1);
        close(leaver);
    }
    static const char malformed[] = "GET /v1/games HTTP/1.1\r\nHost: pbem\r\n"
                                    "Content-Length: many\r\n\r\n";
    for (int i = 0; i < CLIENTS; i++) {
        int sender = wire_connect(server.port);
        wire_send(sender, malformed, sizeof malformed - 1);
        wire_outcome got =
            wire_read_until(sender, wire_now() + WIRE_HANG_SECONDS);
        close(sender);
        cr_expect_eq(got.status, 400, "malformed request %d: %d", i,
                     got.status);
    }
    e2e_response r = e2e_call(&server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    cr_expect_eq(e2e_stop(&server), 0);

    int library;
    char amiss[1024];
    read_log(log, &library, amiss, sizeof amiss);
    cr_expect_str_empty(amiss,
                        "pbemd logged a line not in its own form, or about "
                        "a client that left: %s",
                        amiss);
    /* A line for each kind of message, not for each request. */
    cr_expect_gt(library, 0, "the malformed requests left no line at all");
    cr_expect_lt(library, CLIENTS / 2,
                 "%d malformed requests left %d lines in pbemd's log", CLIENTS,
                 library);
    unlink(log);
}
