/* streams_hub.c: the registry of open streams (a list under one lock; a
 * notification looks at each stream once, which at the limit of a few
 * thousand streams costs microseconds) and the LISTEN thread. */
#include "streams/streams_hub.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/log.h"
#include "core/worker.h"
#include "store/db.h"
#include "store/player_stream.h"

struct streams_sub {
    streams_sub *prev, *next;
    streams_topic topic;
    long long id;
    char *key; /* "" for an unsigned stream */
    streams_wake_fn *wake;
    void *context;
    unsigned flags;
    unsigned long long news; /* the generation of its latest news */
    bool parked;
    unsigned slice; /* its heartbeat's slice of the period (beat_slice) */
};

/* The heartbeat period is cut into this many slices, and each stream
 * beats in its own (given in turn as streams join): a stream still gets a
 * heartbeat every period, but at ten thousand streams a beat is a
 * sixteenth of them, not all at once. All at once was ten thousand
 * writes in one burst every period, and a move told in the same moment
 * reached its last watcher twice as late (docs/benchmarks.md). */
#define HEARTBEAT_SLICES 16u

static struct {
    pthread_mutex_t lock;
    streams_sub *head;
    int count;
    unsigned long long generation;
    bool closing;
    int heartbeat_seconds;
    int per_key;
    int max;
    worker *thread;
    PGconn *listen;
    struct timespec next_beat; /* when the slice beat_slice is due */
    unsigned beat_slice;
    unsigned joined; /* streams ever joined: the next one's slice */
    int keep_hours;
    int prune_seconds;
    struct timespec next_prune;
} hub = {.lock = PTHREAD_MUTEX_INITIALIZER}; /* limits: streams_hub_start */

/* The parked streams a raise has unparked, woken once the lock is
 * released: the wake-up (libmicrohttpd's resume) takes the server's own
 * locks, which must never wait on the hub's. A parked stream cannot end
 * meanwhile (its connection is suspended), so its context stays valid. */
typedef struct wake_list {
    streams_sub **subs;
    size_t count, size;
} wake_list;

/* Raises flags on sub; a parked sub is unparked into wakes. Under the
 * lock. */
static void raise_flags(streams_sub *sub, unsigned flags, wake_list *wakes)
{
    sub->flags |= flags;
    if (flags & STREAMS_NEWS)
        sub->news = hub.generation;
    if (!sub->parked)
        return;
    sub->parked = false;
    if (wakes->count == wakes->size) {
        wakes->size = wakes->size ? 2 * wakes->size : 16;
        wakes->subs = realloc(wakes->subs, wakes->size * sizeof *wakes->subs);
        if (wakes->subs == NULL)
            abort();
    }
    wakes->subs[wakes->count++] = sub;
}

/* After the lock: wakes the streams raise_flags unparked. */
static void wake_all(wake_list *wakes)
{
    for (size_t i = 0; i < wakes->count; i++)
        wakes->subs[i]->wake(wakes->subs[i]->context);
    free(wakes->subs);
}

static void raise_all(unsigned flags)
{
    wake_list wakes = {0};
    pthread_mutex_lock(&hub.lock);
    if (flags & STREAMS_NEWS)
        __atomic_add_fetch(&hub.generation, 1, __ATOMIC_ACQ_REL);
    for (streams_sub *s = hub.head; s != NULL; s = s->next)
        raise_flags(s, flags, &wakes);
    pthread_mutex_unlock(&hub.lock);
    wake_all(&wakes);
}

/* One notification: "m<match>" or "p<player>". */
static void notified(const char *payload)
{
    streams_topic topic;
    if (payload[0] == 'm')
        topic = STREAMS_MATCH;
    else if (payload[0] == 'p')
        topic = STREAMS_PLAYER;
    else
        return;
    char *end = NULL;
    long long id = strtoll(payload + 1, &end, 10);
    if (end == payload + 1 || *end != '\0')
        return;
    wake_list wakes = {0};
    pthread_mutex_lock(&hub.lock);
    __atomic_add_fetch(&hub.generation, 1, __ATOMIC_ACQ_REL);
    for (streams_sub *s = hub.head; s != NULL; s = s->next)
        if (s->topic == topic && s->id == id)
            raise_flags(s, STREAMS_NEWS, &wakes);
    pthread_mutex_unlock(&hub.lock);
    wake_all(&wakes);
}

static long long ms_until(const struct timespec *when)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)(when->tv_sec - now.tv_sec) * 1000 +
           (when->tv_nsec - now.tv_nsec) / 1000000;
}

/* A heartbeat for the streams of one slice of the period. */
static void beat_slice(unsigned slice)
{
    wake_list wakes = {0};
    pthread_mutex_lock(&hub.lock);
    for (streams_sub *s = hub.head; s != NULL; s = s->next)
        if (s->slice == slice)
            raise_flags(s, STREAMS_HEARTBEAT, &wakes);
    pthread_mutex_unlock(&hub.lock);
    wake_all(&wakes);
}

/* Moves when by one slice of the heartbeat period. */
static void add_slice(struct timespec *when)
{
    long long ns =
        (long long)hub.heartbeat_seconds * 1000000000LL / HEARTBEAT_SLICES;
    when->tv_sec += ns / 1000000000LL;
    when->tv_nsec += ns % 1000000000LL;
    if (when->tv_nsec >= 1000000000L) {
        when->tv_sec++;
        when->tv_nsec -= 1000000000L;
    }
}

/* Beats the slices that are due, each in turn. A round that came late
 * (the process stopped, the machine busy) beats at most one period's
 * slices, then starts the schedule again from now rather than beating
 * the same streams twice to catch up. */
static void beat_due_slices(void)
{
    for (unsigned n = 0; ms_until(&hub.next_beat) <= 0; n++) {
        if (n == HEARTBEAT_SLICES) {
            clock_gettime(CLOCK_MONOTONIC, &hub.next_beat);
            add_slice(&hub.next_beat);
            return;
        }
        beat_slice(hub.beat_slice);
        hub.beat_slice = (hub.beat_slice + 1) % HEARTBEAT_SLICES;
        add_slice(&hub.next_beat);
    }
}

/* The stream items one statement of a prune deletes at most: few enough
 * that no statement holds many locks long. */
#define PRUNE_BATCH 10000

/* Deletes players' stream items older than keep_hours, a batch at a
 * time. */
static void prune(void)
{
    apierr err;
    PGconn *conn = db_conn(&err);
    if (conn == NULL)
        return;
    for (int batch = 0; batch < 100; batch++) {
        int deleted =
            store_player_stream_prune(conn, hub.keep_hours, PRUNE_BATCH, &err);
        if (deleted < 0) {
            log_warn("streams: pruning old stream items failed: %s",
                     err.message);
            return;
        }
        if (deleted < PRUNE_BATCH)
            return;
    }
}

static void round_once(worker *self, void *context, worker_pause *pause)
{
    (void)self;
    (void)context;
    if (hub.listen != NULL &&
        (PQconsumeInput(hub.listen) == 0 ||
         PQstatus(hub.listen) != CONNECTION_OK)) {
        log_warn("streams: the LISTEN connection was lost; reconnecting");
        PQfinish(hub.listen);
        hub.listen = NULL;
    }
    if (hub.listen == NULL) {
        apierr err;
        hub.listen = db_listen("pbem_stream", &err);
        /* Whatever was notified meanwhile is read from the database. */
        if (hub.listen != NULL)
            raise_all(STREAMS_NEWS);
    }
    if (hub.listen != NULL) {
        PGnotify *note;
        while ((note = PQnotifies(hub.listen)) != NULL) {
            notified(note->extra);
            PQfreemem(note);
        }
    }
    if (ms_until(&hub.next_prune) <= 0) {
        prune();
        clock_gettime(CLOCK_MONOTONIC, &hub.next_prune);
        hub.next_prune.tv_sec += hub.prune_seconds;
    }
    beat_due_slices();
    long long beat = ms_until(&hub.next_beat);
    if (beat < 0)
        beat = 0;
    long long due = ms_until(&hub.next_prune);
    if (due < beat)
        beat = due > 0 ? due : 0;
    /* Without a connection, try again within a second. */
    pause->ms = hub.listen != NULL ? beat : (beat < 1000 ? beat : 1000);
    pause->fd = hub.listen != NULL ? PQsocket(hub.listen) : -1;
}

static void end(void *context)
{
    (void)context;
    if (hub.listen != NULL)
        PQfinish(hub.listen);
    hub.listen = NULL;
    db_close_thread();
}

bool streams_hub_start(apierr *err)
{
    hub.heartbeat_seconds = (int)config_whole(CONFIG_STREAM_HEARTBEAT_SECONDS);
    hub.per_key = (int)config_whole(CONFIG_STREAMS_PER_KEY);
    hub.max = (int)config_whole(CONFIG_STREAMS_MAX);
    hub.keep_hours = (int)config_whole(CONFIG_STREAM_KEEP_HOURS);
    hub.prune_seconds = (int)config_whole(CONFIG_STREAM_PRUNE_SECONDS);
    /* The first pass a little after start, not in its rush. */
    clock_gettime(CLOCK_MONOTONIC, &hub.next_prune);
    hub.next_prune.tv_sec += hub.prune_seconds < 60 ? hub.prune_seconds : 60;
    hub.closing = false;
    clock_gettime(CLOCK_MONOTONIC, &hub.next_beat);
    add_slice(&hub.next_beat);
    hub.beat_slice = 0;
    worker_spec spec = {
        .name = "streams",
        .what = "stream listener",
        .error_code = "streams",
        .poll_ms = hub.heartbeat_seconds * 1000,
        .round = round_once,
        .end = end,
    };
    hub.thread = worker_start(&spec, err);
    return hub.thread != NULL;
}

void streams_hub_stop(void)
{
    if (hub.thread == NULL)
        return;
    worker_stop(hub.thread);
    hub.thread = NULL;
}

streams_sub *streams_hub_join(streams_topic topic, long long id,
                              const char *key, streams_wake_fn *wake,
                              void *context, apierr *err)
{
    wake_list wakes = {0};
    pthread_mutex_lock(&hub.lock);
    int same_key = 0;
    for (streams_sub *s = hub.head; key != NULL && s != NULL; s = s->next)
        if (strcmp(s->key, key) == 0)
            same_key++;
    streams_sub *sub = NULL;
    if (hub.closing) {
        apierr_set(err, 503, "shutting_down",
                   "the server is stopping; open the stream again in a "
                   "moment");
    } else if (key != NULL && same_key >= hub.per_key) {
        apierr_set(err, 429, "too_many_streams",
                   "key %s already holds %d open streams, the most one key "
                   "may hold; close one before opening another",
                   key, hub.per_key);
        /* Some may belong to a client that left (a reconnecting bot's
         * old stream): woken, they find it out at once and end. */
        for (streams_sub *s = hub.head; s != NULL; s = s->next)
            if (strcmp(s->key, key) == 0)
                raise_flags(s, STREAMS_HEARTBEAT, &wakes);
    } else if (hub.count >= hub.max) {
        apierr_set(err, 503, "streams_full",
                   "this server holds its limit of %d open streams; try "
                   "again later",
                   hub.max);
    } else {
        sub = calloc(1, sizeof *sub);
        if (sub == NULL)
            abort();
        sub->topic = topic;
        sub->id = id;
        /* Its own copy, sized to fit: one per stream, and a key id is a
         * few dozen bytes of the 256 a caller's buffer holds. */
        sub->key = strdup(key ? key : "");
        if (sub->key == NULL)
            abort();
        sub->wake = wake;
        sub->context = context;
        sub->flags = STREAMS_NEWS;
        sub->news = hub.generation;
        sub->slice = hub.joined++ % HEARTBEAT_SLICES;
        sub->next = hub.head;
        if (hub.head != NULL)
            hub.head->prev = sub;
        hub.head = sub;
        hub.count++;
    }
    pthread_mutex_unlock(&hub.lock);
    wake_all(&wakes);
    if (sub == NULL)
        err->retry_after = err->status == 429 ? STREAMS_KEY_RETRY_AFTER
                                              : STREAMS_RETRY_AFTER;
    return sub;
}

void streams_hub_leave(streams_sub *sub)
{
    if (sub == NULL)
        return;
    pthread_mutex_lock(&hub.lock);
    if (sub->prev != NULL)
        sub->prev->next = sub->next;
    else
        hub.head = sub->next;
    if (sub->next != NULL)
        sub->next->prev = sub->prev;
    hub.count--;
    pthread_mutex_unlock(&hub.lock);
    free(sub->key);
    free(sub);
}

unsigned long long streams_hub_generation(void)
{
    return __atomic_load_n(&hub.generation, __ATOMIC_ACQUIRE);
}

unsigned streams_hub_take(streams_sub *sub, unsigned long long *news)
{
    pthread_mutex_lock(&hub.lock);
    unsigned flags = sub->flags;
    if (news != NULL)
        *news = sub->news;
    sub->flags = 0;
    if (hub.closing)
        flags |= STREAMS_CLOSING;
    pthread_mutex_unlock(&hub.lock);
    return flags;
}

void streams_hub_more(streams_sub *sub)
{
    pthread_mutex_lock(&hub.lock);
    sub->flags |= STREAMS_NEWS;
    pthread_mutex_unlock(&hub.lock);
}

bool streams_hub_park(streams_sub *sub, void (*park)(void *context),
                      void *context)
{
    pthread_mutex_lock(&hub.lock);
    bool parked = sub->flags == 0 && !hub.closing;
    if (parked) {
        park(context);
        sub->parked = true;
    }
    pthread_mutex_unlock(&hub.lock);
    return parked;
}

void streams_hub_close_all(void)
{
    wake_list wakes = {0};
    pthread_mutex_lock(&hub.lock);
    hub.closing = true;
    for (streams_sub *s = hub.head; s != NULL; s = s->next)
        raise_flags(s, STREAMS_CLOSING, &wakes);
    pthread_mutex_unlock(&hub.lock);
    wake_all(&wakes);
}

int streams_hub_count(void)
{
    pthread_mutex_lock(&hub.lock);
    int count = hub.count;
    pthread_mutex_unlock(&hub.lock);
    return count;
}
