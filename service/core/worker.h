/* worker.h: a poll loop thread, the shape of pbemd's background workers
 * (the outbox worker, notify.h; the deadline worker, deadline_worker.h).
 *
 * The thread calls the worker's round again and again. After each round it
 * sleeps in poll(2) until the round's timeout passes, a descriptor the
 * round named becomes readable, or worker_stop wakes it. Stopping sets a
 * flag, wakes the thread through a pipe and joins it: a round in progress
 * runs to its end (or cuts itself short by asking worker_stopping), so a
 * worker never stops in the middle of a transaction. */
#ifndef SERVICE_CORE_WORKER_H
#define SERVICE_CORE_WORKER_H

#include <stdbool.h>

#include "core/apierr.h"

typedef struct worker worker;

/* What a round asks of the sleep after it. Before each round the loop sets
 * ms to the poll interval and fd to -1; fd_ready tells the round whether
 * the fd it named last time is what ended the sleep before it. */
typedef struct worker_pause {
    long long ms; /* how long to sleep at most; 0: no sleep, go again */
    int fd;       /* one more descriptor that ends the sleep; -1: none */
    bool fd_ready;
} worker_pause;

typedef struct worker_spec {
    const char *name;       /* in log lines: "deadlines: poll failed: …" */
    const char *what;       /* in errors: "cannot start the deadline worker" */
    const char *error_code; /* the apierr code of those errors */
    int poll_ms;            /* the sleep after a round that changes nothing */
    void *context;          /* handed to the calls below; borrowed */
    /* On the thread before the first round (thread-bound set-up); false
     * ends the thread at once, without end. NULL: nothing to set up. */
    bool (*begin)(void *context);
    /* One round of work; self is for worker_stopping and worker_wake_fd. */
    void (*round)(worker *self, void *context, worker_pause *pause);
    /* On the thread after the last round (thread-bound clean-up). NULL:
     * nothing to clean up. */
    void (*end)(void *context);
} worker_spec;

/* Starts the thread (spec is copied; its strings and context are
 * borrowed and must outlive the worker). NULL with err filled (status 500,
 * spec->error_code) when the wake-up pipe or the thread cannot be made. */
worker *worker_start(const worker_spec *spec, apierr *err);

/* True once worker_stop was called: a long round checks it to end early. */
bool worker_stopping(worker *self);

/* A descriptor that becomes readable when worker_stop is called, for a
 * round that waits on its own (say curl_multi_poll). Never read from it. */
int worker_wake_fd(const worker *self);

/* Sets the flag, wakes the thread and returns once it has ended (end has
 * run); frees the worker. NULL does nothing. Not from the worker's own
 * thread. */
void worker_stop(worker *self);

#endif
