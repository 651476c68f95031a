/* reaper.c */
#include "http/reaper.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct reaper_watch {
    int fd;
    bool receiving;       /* between its opening or answer and a whole request */
    bool shut;            /* already shut down, waiting for the close */
    struct timespec since;
    reaper_watch *prev, *next;
};

struct reaper {
    int seconds;
    pthread_mutex_t lock; /* guards the list and stopping */
    pthread_cond_t wake;
    bool stopping;
    reaper_watch *watches;
    pthread_t thread;
};

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

/* A quarter of the deadline between sweeps (at most 1 s), so a connection
 * outlives its deadline by little. */
static void *sweep(void *arg)
{
    reaper *r = arg;
    long tick_ms = r->seconds >= 4 ? 1000 : (long)r->seconds * 250;
    pthread_mutex_lock(&r->lock);
    while (!r->stopping) {
        struct timespec until;
        now(&until);
        until.tv_nsec += tick_ms * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&r->wake, &r->lock, &until);
        struct timespec t;
        now(&t);
        for (reaper_watch *w = r->watches; w != NULL; w = w->next)
            if (w->receiving && !w->shut &&
                seconds_between(&w->since, &t) > r->seconds) {
                /* Shut down, not closed: the number stays this
                 * connection's until libmicrohttpd closes it. */
                shutdown(w->fd, SHUT_RDWR);
                w->shut = true;
            }
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

reaper *reaper_start(int seconds)
{
    reaper *r = calloc(1, sizeof *r);
    if (r == NULL)
        abort();
    r->seconds = seconds < 1 ? 1 : seconds;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&r->wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&r->lock, NULL);
    if (pthread_create(&r->thread, NULL, sweep, r) != 0)
        abort();
    return r;
}

void reaper_stop(reaper *r)
{
    pthread_mutex_lock(&r->lock);
    r->stopping = true;
    pthread_cond_signal(&r->wake);
    pthread_mutex_unlock(&r->lock);
    pthread_join(r->thread, NULL);
    pthread_cond_destroy(&r->wake);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

reaper_watch *reaper_begin(reaper *r, int fd)
{
    reaper_watch *w = calloc(1, sizeof *w);
    if (w == NULL)
        abort();
    w->fd = fd;
    w->receiving = true;
    now(&w->since);
    pthread_mutex_lock(&r->lock);
    w->next = r->watches;
    if (r->watches != NULL)
        r->watches->prev = w;
    r->watches = w;
    pthread_mutex_unlock(&r->lock);
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
    pthread_mutex_lock(&r->lock);
    if (w->prev != NULL)
        w->prev->next = w->next;
    else
        r->watches = w->next;
    if (w->next != NULL)
        w->next->prev = w->prev;
    pthread_mutex_unlock(&r->lock);
    free(w);
}
