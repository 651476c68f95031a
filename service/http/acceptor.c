/* acceptor.c: see acceptor.h. */
#include "http/acceptor.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/metrics.h"

struct acceptor {
    int listen_fd;
    int count;
    struct MHD_Daemon **daemons;
    pthread_mutex_t lock; /* guards what follows */
    pthread_cond_t room;  /* a connection closed, or stopping */
    unsigned *held;       /* per daemon: given and not yet closed */
    unsigned total, limit;
    int next; /* where the search for the least held starts */
    bool stopping;
    pthread_t thread;
};

/* Waits until the server holds fewer connections than it allows; false
 * when stopping instead. */
static bool wait_for_room(acceptor *a)
{
    pthread_mutex_lock(&a->lock);
    while (!a->stopping && a->total >= a->limit)
        pthread_cond_wait(&a->room, &a->lock);
    bool go_on = !a->stopping;
    pthread_mutex_unlock(&a->lock);
    return go_on;
}

/* Counts a connection for the daemon holding the fewest; its index. Ties
 * go round, from the one after the last chosen: short connections one
 * after another (each closed before the next) take turns rather than all
 * landing on the same thread. */
static int least_held(acceptor *a)
{
    pthread_mutex_lock(&a->lock);
    int chosen = a->next;
    for (int step = 1; step < a->count; step++) {
        int i = (a->next + step) % a->count;
        if (a->held[i] < a->held[chosen])
            chosen = i;
    }
    a->next = (chosen + 1) % a->count;
    a->held[chosen]++;
    a->total++;
    metrics_http_thread_connections(chosen, a->held[chosen]);
    pthread_mutex_unlock(&a->lock);
    return chosen;
}

static void forget(acceptor *a, int i)
{
    pthread_mutex_lock(&a->lock);
    a->held[i]--;
    a->total--;
    metrics_http_thread_connections(i, a->held[i]);
    pthread_cond_signal(&a->room);
    pthread_mutex_unlock(&a->lock);
}

/* The kernel cannot give us a socket (no descriptors or memory left): said
 * once a minute at most, and tried again after a pause, as it may pass. */
static void cannot_accept(acceptor *a, int error, time_t *last_said)
{
    time_t now = time(NULL);
    if (now - *last_said >= 60) {
        log_warn("cannot accept connections: %s; new clients wait until "
                 "descriptors are free (raise ulimit -n or lower "
                 "PBEM_HTTP_CONNECTIONS)",
                 strerror(error));
        *last_said = now;
    }
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += 100 * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&a->lock);
    if (!a->stopping)
        pthread_cond_timedwait(&a->room, &a->lock, &until);
    pthread_mutex_unlock(&a->lock);
}

static bool stopping(acceptor *a)
{
    pthread_mutex_lock(&a->lock);
    bool stop = a->stopping;
    pthread_mutex_unlock(&a->lock);
    return stop;
}

static void *accept_loop(void *arg)
{
    acceptor *a = arg;
    time_t last_said = 0;
    while (wait_for_room(a)) {
        struct sockaddr_storage addr;
        socklen_t len = sizeof addr;
        int fd = accept4(a->listen_fd, (struct sockaddr *)&addr, &len,
                         SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            int error = errno;
            if (stopping(a))
                break; /* acceptor_stop shut the socket down */
            if (error == EMFILE || error == ENFILE || error == ENOBUFS ||
                error == ENOMEM)
                cannot_accept(a, error, &last_said);
            else if (error == EBADF || error == EINVAL || error == ENOTSOCK) {
                log_error("the listening socket broke (%s): no new "
                          "connections are accepted",
                          strerror(error));
                break;
            }
            continue; /* EINTR, ECONNABORTED, a network error on one */
        }
        int i = least_held(a);
        /* A connection libmicrohttpd refuses (out of memory) is closed
         * by it and never started, so it is not counted. */
        if (MHD_add_connection(a->daemons[i], fd, (struct sockaddr *)&addr,
                               len) != MHD_YES)
            forget(a, i);
    }
    return NULL;
}

acceptor *acceptor_start(int listen_fd, struct MHD_Daemon *const *daemons,
                         int count, unsigned limit)
{
    acceptor *a = calloc(1, sizeof *a);
    if (a == NULL || count < 1)
        abort();
    a->listen_fd = listen_fd;
    a->count = count;
    a->limit = limit;
    a->daemons = calloc((size_t)count, sizeof *a->daemons);
    a->held = calloc((size_t)count, sizeof *a->held);
    if (a->daemons == NULL || a->held == NULL)
        abort();
    memcpy(a->daemons, daemons, (size_t)count * sizeof *a->daemons);
    metrics_http_threads(count);
    /* cannot_accept's pause is measured on the monotonic clock. */
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&a->room, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&a->lock, NULL);
    if (pthread_create(&a->thread, NULL, accept_loop, a) != 0) {
        log_error("cannot start the thread that accepts connections");
        abort();
    }
    return a;
}

void acceptor_connection_closed(acceptor *a, const struct MHD_Daemon *daemon)
{
    for (int i = 0; i < a->count; i++)
        if (a->daemons[i] == daemon) {
            forget(a, i);
            return;
        }
}

void acceptor_stop(acceptor *a)
{
    pthread_mutex_lock(&a->lock);
    a->stopping = true;
    pthread_cond_signal(&a->room);
    pthread_mutex_unlock(&a->lock);
    /* On Linux this ends an accept() under way (EINVAL). */
    shutdown(a->listen_fd, SHUT_RDWR);
    pthread_join(a->thread, NULL);
    close(a->listen_fd);
}

void acceptor_free(acceptor *a)
{
    pthread_cond_destroy(&a->room);
    pthread_mutex_destroy(&a->lock);
    free(a->daemons);
    free(a->held);
    free(a);
}
