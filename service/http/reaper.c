/* reaper.c */
#include "http/reaper.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct reaper_watch {
    int fd;
    uint32_t serial;  /* tells this watch from an earlier one on fd */
    bool receiving;   /* between its opening or answer and a whole request */
    bool shut;        /* already shut down, waiting for the close */
    bool client_gone; /* its end of stream came; reading side shut */
    struct timespec since;
    reaper_watch *prev, *next;
};

struct reaper {
    int seconds;
    int epoll_fd;         /* each watched socket's end of stream, and wake_fd */
    int wake_fd;          /* an eventfd written to stop the thread */
    pthread_mutex_t lock; /* guards what follows */
    bool stopping;
    reaper_watch *watches;
    reaper_watch **by_fd; /* the watch on each socket number, or NULL */
    size_t by_fd_len;
    uint32_t next_serial;
    unsigned gone; /* watches whose client_gone is set */
    pthread_t thread;
};

/* An epoll event's data: the socket and its watch's serial, so an event
 * read just before a watch ended is not taken for the next watch given
 * the same number. Serial 0 is the wake_fd. */
static uint64_t event_key(int fd, uint32_t serial)
{
    return (uint64_t)serial << 32 | (uint32_t)fd;
}

static void now(struct timespec *t)
{
    clock_gettime(CLOCK_MONOTONIC, t);
}

static double seconds_between(const struct timespec *a,
                              const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) +
           (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* How often a connection whose client has gone is woken again while it
 * waits for a request: a wake that comes before libmicrohttpd read the
 * client's last bytes is spent on that read, after which it takes the
 * socket as drained once more. */
#define REAPER_NUDGE_MS 100

/* The client of the socket in key ended its stream (it closed, or shut
 * down its writing side): nothing more can arrive, so shutting down our
 * reading side loses nothing, and it wakes libmicrohttpd (reaper.h says
 * why it needs waking). Called with r->lock held. */
static void client_gone(reaper *r, uint64_t key)
{
    int fd = (int)(uint32_t)key;
    uint32_t serial = (uint32_t)(key >> 32);
    if (fd < 0 || (size_t)fd >= r->by_fd_len)
        return;
    reaper_watch *w = r->by_fd[fd];
    /* Once only: our own shutdown raises the event again. */
    if (w == NULL || w->serial != serial || w->shut || w->client_gone)
        return;
    w->client_gone = true;
    r->gone++;
    shutdown(fd, SHUT_RD);
}

/* Wakes libmicrohttpd again for each connection waiting for a request
 * from a client that has gone: every shutdown, even a repeated one, wakes
 * whoever waits on the socket. Called with r->lock held. */
static void nudge_gone(reaper *r)
{
    for (reaper_watch *w = r->watches; w != NULL; w = w->next)
        if (w->client_gone && w->receiving && !w->shut)
            shutdown(w->fd, SHUT_RD);
}

/* Shuts down every connection whose request is overdue. Called with
 * r->lock held. */
static void reap_overdue(reaper *r, const struct timespec *t)
{
    for (reaper_watch *w = r->watches; w != NULL; w = w->next)
        if (w->receiving && !w->shut &&
            seconds_between(&w->since, t) > r->seconds) {
            /* Shut down, not closed: the number stays this
             * connection's until libmicrohttpd closes it. */
            shutdown(w->fd, SHUT_RDWR);
            w->shut = true;
        }
}

/* Wakes for ends of stream as they come, and sweeps for overdue requests
 * a quarter of the deadline apart (at most 1 s), so a connection outlives
 * its deadline by little. */
static void *sweep(void *arg)
{
    reaper *r = arg;
    long tick_ms = r->seconds >= 4 ? 1000 : (long)r->seconds * 250;
    struct timespec last, nudged;
    now(&last);
    nudged = last;
    bool any_gone = false;
    for (;;) {
        struct timespec t;
        now(&t);
        long waited_ms = (long)(seconds_between(&last, &t) * 1000);
        long wait_ms = waited_ms < tick_ms ? tick_ms - waited_ms : 0;
        if (any_gone && wait_ms > REAPER_NUDGE_MS)
            wait_ms = REAPER_NUDGE_MS;
        struct epoll_event events[64];
        int n = epoll_wait(r->epoll_fd, events, 64, (int)wait_ms);
        pthread_mutex_lock(&r->lock);
        if (r->stopping) {
            pthread_mutex_unlock(&r->lock);
            break;
        }
        for (int i = 0; i < n; i++)
            if ((events[i].data.u64 >> 32) != 0)
                client_gone(r, events[i].data.u64);
        now(&t);
        if (r->gone > 0 &&
            seconds_between(&nudged, &t) * 1000 >= REAPER_NUDGE_MS) {
            nudge_gone(r);
            nudged = t;
        }
        any_gone = r->gone > 0;
        if (seconds_between(&last, &t) * 1000 >= (double)tick_ms) {
            reap_overdue(r, &t);
            last = t;
        }
        pthread_mutex_unlock(&r->lock);
    }
    return NULL;
}

reaper *reaper_start(int seconds)
{
    reaper *r = calloc(1, sizeof *r);
    if (r == NULL)
        abort();
    r->seconds = seconds < 1 ? 1 : seconds;
    r->next_serial = 1;
    r->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    r->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event wake = {.events = EPOLLIN,
                               .data.u64 = event_key(r->wake_fd, 0)};
    if (r->epoll_fd < 0 || r->wake_fd < 0 ||
        epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, r->wake_fd, &wake) != 0)
        abort();
    pthread_mutex_init(&r->lock, NULL);
    if (pthread_create(&r->thread, NULL, sweep, r) != 0)
        abort();
    return r;
}

void reaper_stop(reaper *r)
{
    pthread_mutex_lock(&r->lock);
    r->stopping = true;
    pthread_mutex_unlock(&r->lock);
    uint64_t one = 1;
    if (write(r->wake_fd, &one, sizeof one) != sizeof one)
        abort();
    pthread_join(r->thread, NULL);
    close(r->epoll_fd);
    close(r->wake_fd);
    pthread_mutex_destroy(&r->lock);
    free(r->by_fd);
    free(r);
}

reaper_watch *reaper_begin(reaper *r, int fd)
{
    reaper_watch *w = calloc(1, sizeof *w);
    if (w == NULL || fd < 0)
        abort();
    w->fd = fd;
    w->receiving = true;
    now(&w->since);
    pthread_mutex_lock(&r->lock);
    w->serial = r->next_serial++;
    if (r->next_serial == 0)
        r->next_serial = 1;
    if ((size_t)fd >= r->by_fd_len) {
        size_t len = r->by_fd_len ? r->by_fd_len : 1024;
        while (len <= (size_t)fd)
            len *= 2;
        reaper_watch **grown = realloc(r->by_fd, len * sizeof *grown);
        if (grown == NULL)
            abort();
        for (size_t i = r->by_fd_len; i < len; i++)
            grown[i] = NULL;
        r->by_fd = grown;
        r->by_fd_len = len;
    }
    r->by_fd[fd] = w;
    w->next = r->watches;
    if (r->watches != NULL)
        r->watches->prev = w;
    r->watches = w;
    uint32_t serial = w->serial;
    pthread_mutex_unlock(&r->lock);
    /* Edge-triggered, on the end of stream only: a byte arriving does not
     * wake the reaper. An end that came before this call is reported at
     * once. Without the watch (out of kernel memory) the deadline still
     * holds. */
    struct epoll_event ended = {.events = EPOLLRDHUP | EPOLLET,
                                .data.u64 = event_key(fd, serial)};
    epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, fd, &ended);
    return w;
}

void reaper_received(reaper *r, reaper_watch *w)
{
    pthread_mutex_lock(&r->lock);
    w->receiving = false;
    pthread_mutex_unlock(&r->lock);
}

void reaper_answered(reaper *r, reaper_watch *w)
{
    pthread_mutex_lock(&r->lock);
    w->receiving = true;
    now(&w->since);
    pthread_mutex_unlock(&r->lock);
}

void reaper_end(reaper *r, reaper_watch *w)
{
    epoll_ctl(r->epoll_fd, EPOLL_CTL_DEL, w->fd, NULL);
    pthread_mutex_lock(&r->lock);
    if (w->prev != NULL)
        w->prev->next = w->next;
    else
        r->watches = w->next;
    if (w->next != NULL)
        w->next->prev = w->prev;
    if ((size_t)w->fd < r->by_fd_len && r->by_fd[w->fd] == w)
        r->by_fd[w->fd] = NULL;
    if (w->client_gone)
        r->gone--;
    pthread_mutex_unlock(&r->lock);
    free(w);
}
