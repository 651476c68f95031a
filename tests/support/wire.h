/* wire.h: raw bytes to the real pbemd over loopback, and what came back,
 * for tests that need what a client library hides: hostile requests
 * (libcurl would refuse to send most of them), connections opened at
 * once, an answer that never comes. A test writes to a socket itself and
 * reads the first status line and whether the server closed, each within
 * a bounded wait. */
#ifndef TESTS_SUPPORT_WIRE_H
#define TESTS_SUPPORT_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The request deadline the hostile suite's servers run with
 * (PBEM_HTTP_REQUEST_SECONDS), and the wait past it after which a
 * connection still open counts as hung: a generous bound on a busy
 * machine, not a measure of the server's speed. */
#define WIRE_DEADLINE_SECONDS 2
#define WIRE_HANG_SECONDS (WIRE_DEADLINE_SECONDS + 6)

double wire_now(void);
/* A blocking connection to 127.0.0.1:port; fails the test when refused. */
int wire_connect(int port);
/* A connection from 127.0.0.<host> (a second address for load that must
 * not count against the normal client's per-address limit). */
int wire_connect_from(int host, int port);
/* Sends what the server takes; a server that answered early and closed
 * may refuse the rest, which is its right. */
void wire_send(int fd, const void *bytes, size_t len);

/* What the server did with a connection by a point in time. */
typedef struct wire_outcome {
    int status;  /* the first status line's code; 0 for none */
    int worst;   /* the highest code among them */
    int answers; /* status lines seen (pipelined requests) */
    bool closed; /* the server closed the connection */
} wire_outcome;

/* Reads until the server closes or until (a wire_now() time) passes. */
wire_outcome wire_read_until(int fd, double until);

/* Reads the status line within limit seconds on a connection that stays
 * open: its code, or 0 when none came (or the connection closed first). */
int wire_status_within(int fd, double limit);

/* Reads until the server closes or until (a wire_now() time) passes, and
 * keeps the first size - 1 bytes in out, NUL-terminated (a NUL the server
 * sent ends the text early); the bytes kept. */
size_t wire_read_text_until(int fd, double until, char *out, size_t size);

/* The sockets on local port port (pbemd's) in CLOSE-WAIT: their client has
 * closed and the server has not, read from /proc/net/tcp. */
int wire_close_wait(int port);

/* VmRSS of a process, KiB. */
long wire_rss_kib(pid_t pid);

/* For a test that measures a server's RSS: under AddressSanitizer the
 * server about to start keeps no quarantine of freed memory (256 MiB),
 * which RSS would measure filling (ASAN_OPTIONS gains
 * quarantine_size_mb=0). Returns what to give wire_quarantine_restore
 * once it has started. Does nothing in a build without it. */
char *wire_quarantine_off(void);
void wire_quarantine_restore(char *saved);

#endif
