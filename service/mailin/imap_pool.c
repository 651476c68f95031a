/* imap_pool.c: see imap_pool.h. One mutex guards the batch in hand; a
 * thread takes a whole sender's group at a time, so the order inside a
 * group needs no more than the thread's own loop. */
#include "mailin/imap_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mailin/imap_config.h"
#include "mailin/imap_order.h"
#include "store/db.h"

struct imap_pool {
    imap_handler handler;
    void *context;
    int threads;
    pthread_t thread[IMAP_POOL_THREADS_MAX];
    pthread_mutex_t lock;
    pthread_cond_t work;     /* a batch came, or the pool stops */
    pthread_cond_t finished; /* the last group of a batch is done */
    bool stopping;
    /* The batch in hand, under lock: its jobs, and its groups (one per
     * sender), each a chain of job indices in the batch's order. */
    imap_pool_job *jobs;
    worker *owner;
    size_t groups, next_group, groups_done;
    size_t first[IMAP_CONFIG_BATCH_MAX];
    size_t
        after[IMAP_CONFIG_BATCH_MAX]; /* the next of its group, or SIZE_MAX */
    int busy;
    int busiest; /* also read without the lock (atomically) */
};

/* Hands over one group's jobs in order, the lock not held. */
static void hand_group(imap_pool *p, imap_pool_job *jobs, const size_t *after,
                       size_t job, worker *owner)
{
    for (; job != SIZE_MAX; job = after[job]) {
        imap_pool_job *j = &jobs[job];
        j->handed = !worker_stopping(owner);
        if (j->handed)
            j->outcome = p->handler(p->context, j->raw, j->length);
    }
}

static void *run(void *arg)
{
    imap_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stopping && p->next_group >= p->groups)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->stopping)
            break;
        size_t group = p->next_group++;
        if (++p->busy > p->busiest)
            __atomic_store_n(&p->busiest, p->busy, __ATOMIC_RELAXED);
        imap_pool_job *jobs = p->jobs;
        worker *owner = p->owner;
        size_t job = p->first[group];
        pthread_mutex_unlock(&p->lock);
        /* after[] is not written again before this batch's groups are all
         * done, so it is read here without the lock. */
        hand_group(p, jobs, p->after, job, owner);
        pthread_mutex_lock(&p->lock);
        p->busy--;
        if (++p->groups_done == p->groups)
            pthread_cond_signal(&p->finished);
    }
    pthread_mutex_unlock(&p->lock);
    /* The handler worked through this thread's database connection. */
    db_close_thread();
    return NULL;
}

/* Ends the first started threads of p and frees it. */
static void end_threads(imap_pool *p, int started)
{
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < started; i++)
        pthread_join(p->thread[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->finished);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

imap_pool *imap_pool_start(int threads, imap_handler handler, void *context,
                           apierr *err)
{
    imap_pool *p = calloc(1, sizeof *p);
    if (p == NULL)
        abort();
    p->handler = handler;
    p->context = context;
    p->threads = threads < 1                       ? 1
                 : threads > IMAP_POOL_THREADS_MAX ? IMAP_POOL_THREADS_MAX
                                                   : threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->finished, NULL);
    for (int i = 0; i < p->threads; i++) {
        int rc = pthread_create(&p->thread[i], NULL, run, p);
        if (rc != 0) {
            end_threads(p, i);
            apierr_set(err, 500, "imap",
                       "cannot start the IMAP worker's handler threads: %s",
                       strerror(rc));
            return NULL;
        }
    }
    return p;
}

void imap_pool_run(imap_pool *p, imap_pool_job *jobs, size_t count,
                   worker *owner)
{
    if (count == 0)
        return;
    if (count > IMAP_CONFIG_BATCH_MAX)
        abort(); /* the worker's batch is at most 64: a bug */
    /* Each sender is read (a header parse) before the lock is taken. */
    uint64_t sender[IMAP_CONFIG_BATCH_MAX];
    for (size_t i = 0; i < count; i++)
        sender[i] = imap_order_key(jobs[i].raw, jobs[i].length);
    uint64_t key[IMAP_CONFIG_BATCH_MAX] = {0};
    size_t last[IMAP_CONFIG_BATCH_MAX] = {0};
    pthread_mutex_lock(&p->lock);
    p->jobs = jobs;
    p->owner = owner;
    p->groups = 0;
    for (size_t i = 0; i < count; i++) {
        jobs[i].handed = false;
        uint64_t k = sender[i];
        size_t g = 0;
        while (g < p->groups && key[g] != k)
            g++;
        p->after[i] = SIZE_MAX;
        if (g == p->groups) {
            key[g] = k;
            p->first[g] = i;
            p->groups++;
        } else {
            p->after[last[g]] = i;
        }
        last[g] = i;
    }
    p->next_group = 0;
    p->groups_done = 0;
    pthread_cond_broadcast(&p->work);
    while (p->groups_done < p->groups)
        pthread_cond_wait(&p->finished, &p->lock);
    p->groups = 0;
    p->next_group = 0;
    p->jobs = NULL;
    pthread_mutex_unlock(&p->lock);
}

int imap_pool_busiest(const imap_pool *p)
{
    return __atomic_load_n(&p->busiest, __ATOMIC_RELAXED);
}

void imap_pool_stop(imap_pool *p)
{
    if (p == NULL)
        return;
    end_threads(p, p->threads);
}
