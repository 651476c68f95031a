/* daemon.h: pbemd as the crash and failover suites run it: on one fixed
 * loopback port across restarts (clients keep their address, as behind a real
 * deployment's name), killed without warning, started again. */
#ifndef TESTS_SUPPORT_DAEMON_H
#define TESTS_SUPPORT_DAEMON_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct daemon_proc {
    int port;
    char key_file[256]; /* kept across restarts: the same service key */
    char log[256];      /* pbemd's stdout and stderr, appended */
    pid_t pid;          /* 0 while down */
} daemon_proc;

/* Picks a free port and the key and log files (in $TMPDIR): every pbemd
 * of a test shares one key file (start one and wait until it serves
 * before the next, so the first creates it) and has a log of its own. */
void daemon_prepare(daemon_proc *d);

/* Starts $PBEM_BIN on d->port against $DATABASE_URL (not waiting). */
void daemon_start(daemon_proc *d);

/* SIGKILL, then reaps it. */
void daemon_kill(daemon_proc *d);

/* SIGTERM, then reaps it; its exit status (wait(2)'s), or -1 when it was
 * not running. */
int daemon_stop(daemon_proc *d);

/* Fails the test when pbemd has exited on its own (a crash, a sanitizer's
 * report). */
void daemon_expect_running(daemon_proc *d);

/* Polls GET /healthz until it answers 200 (pbemd up and its database
 * reachable), at most limit_ms; the milliseconds it took, or -1. Fails
 * the test when pbemd exits meanwhile. */
long daemon_wait_serving(daemon_proc *d, long limit_ms);

#endif
