/* rawhttp.h: HTTP over a bare loopback socket, for the tests that need
 * what a client library hides: connections opened at once, a request
 * written byte by byte, an answer that never comes. */
#ifndef TESTS_SUPPORT_RAWHTTP_H
#define TESTS_SUPPORT_RAWHTTP_H

/* A blocking socket connected to 127.0.0.1:port; fails the test when the
 * connection is refused. */
int rawhttp_connect(int port);

/* Reads the status line within limit seconds: its code, or 0 when none
 * came (or the connection closed first). */
int rawhttp_status_within(int fd, double limit);

/* CLOCK_MONOTONIC in seconds. */
double rawhttp_now(void);

#endif
