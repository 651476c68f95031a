/* streams_hub.c: the registry of open streams (a list under one lock; a
 * notification looks at each stream once, which at the limit of a few
 * thousand streams costs microseconds), the relays through which each
 * server thread wakes its own streams (choose_leaders), and the LISTEN
 * thread. */
#include "streams/streams_hub.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdint.h>
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
    size_t group;   /* its index in hub.groups */
    bool relayed;   /* woken, waiting in its group's relay list */
    streams_sub *relay_prev, *relay_next;
};

/* The streams of one group (one server thread: streams_hub_join), and
 * those of them woken that wait for a reader of the group to wake them
 * (relay_take). */
typedef struct relay_group {
    const void *group;
    streams_sub *relays, *relays_tail; /* in the order they were woken */
    bool leader_out; /* some of them were woken, to wake the rest */
} relay_group;

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
    relay_group *groups; /* never shrinks: one per server thread */
    size_t group_count, group_size;
} hub = {.lock = PTHREAD_MUTEX_INITIALIZER}; /* limits: streams_hub_start */

/* The parked streams a raise has unparked, woken once the lock is
 * released: the wake-up (libmicrohttpd's resume) takes the server's own
 * locks, which must never wait on the hub's. A parked stream cannot end
 * meanwhile (its connection is suspended), so its context stays valid. */
typedef struct wake_list {
    streams_sub **subs;
    size_t count, size;
} wake_list;

static void wake_list_add(wake_list *wakes, streams_sub *sub)
{
    if (wakes->count == wakes->size) {
        wakes->size = wakes->size ? 2 * wakes->size : 16;
        wakes->subs = realloc(wakes->subs, wakes->size * sizeof *wakes->subs);
        if (wakes->subs == NULL)
            abort();
    }
    wakes->subs[wakes->count++] = sub;
}

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
    wake_list_add(wakes, sub);
}

/* Under the lock: keeps in wakes one stream per group whose leader is not
 * already out, to be woken by the caller; the others wait in their
 * group's relay list, in the order they were woken, and each read of a
 * reader of the group (streams_hub_take, or streams_hub_leave when it
 * ends instead) wakes up to RELAY_BATCH of them, the leader's first.
 *
 * Why: libmicrohttpd (0.9.75) finds resumed connections by walking every
 * suspended connection of the thread, once in each round of its loop
 * that has a resume pending. Woken one by one from the hub's thread, ten
 * thousand streams on eight threads kept each thread walking its thousand
 * parked connections again after every few resumes: the walk was a fifth
 * of pbemd's CPU per event. Woken by readers in their own thread, a batch
 * at a time, they cost the thread a walk per batch (docs/benchmarks.md,
 * "Streams woken by their own thread"). */
static void choose_leaders(wake_list *wakes)
{
    size_t kept = 0;
    for (size_t i = 0; i < wakes->count; i++) {
        streams_sub *sub = wakes->subs[i];
        relay_group *g = &hub.groups[sub->group];
        if (!g->leader_out) {
            g->leader_out = true;
            wakes->subs[kept++] = sub;
            continue;
        }
        sub->relayed = true;
        sub->relay_next = NULL;
        sub->relay_prev = g->relays_tail;
        if (g->relays_tail != NULL)
            g->relays_tail->relay_next = sub;
        else
            g->relays = sub;
        g->relays_tail = sub;
    }
    wakes->count = kept;
}

/* Under the lock: takes sub out of its group's relay list. */
static void relay_unlink(relay_group *g, streams_sub *sub)
{
    if (sub->relay_prev != NULL)
        sub->relay_prev->relay_next = sub->relay_next;
    else
        g->relays = sub->relay_next;
    if (sub->relay_next != NULL)
        sub->relay_next->relay_prev = sub->relay_prev;
    else
        g->relays_tail = sub->relay_prev;
    sub->relayed = false;
    sub->relay_prev = sub->relay_next = NULL;
}

/* The streams one read wakes for its group. The leader's read wakes a
 * batch, and their reads the rest, so a thread serves a small round of
 * streams first, then the others. Woken all at once by the leader, a
 * thread's thousand streams came in one round, and the answer of a move
 * on that thread after them (its round trip p50 9.1 ms against 5.4 with
 * 7,500 watching); in batches of 64, 6.8 and 7.5 against 6.3 and 5.9 in
 * two series. One batch a round (the first of each batch waking the
 * next) walked the parked connections fifteen times an event, for more
 * CPU and no better round trip (docs/benchmarks.md). */
#define RELAY_BATCH 64

/* Under the lock: moves at most limit of the streams waiting in group g
 * to wakes. The group's leader stays out while some still wait: those
 * moved are woken, and their readers take the next ones. */
static void relay_take(relay_group *g, size_t limit, wake_list *wakes)
{
    for (size_t n = 0; g->relays != NULL && n < limit; n++) {
        streams_sub *s = g->relays;
        relay_unlink(g, s);
        wake_list_add(wakes, s);
    }
    g->leader_out = g->relays != NULL;
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
    choose_leaders(&wakes);
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
    choose_leaders(&wakes);
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
    choose_leaders(&wakes);
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

/* The index of group in hub.groups, added when new. Under the lock. */
static size_t group_index(const void *group)
{
    for (size_t i = 0; i < hub.group_count; i++)
        if (hub.groups[i].group == group)
            return i;
    if (hub.group_count == hub.group_size) {
        hub.group_size = hub.group_size ? 2 * hub.group_size : 8;
        hub.groups = realloc(hub.groups, hub.group_size * sizeof *hub.groups);
        if (hub.groups == NULL)
            abort();
    }
    hub.groups[hub.group_count] = (relay_group){.group = group};
    return hub.group_count++;
}

streams_sub *streams_hub_join(streams_topic topic, long long id,
                              const char *key, const void *group,
                              streams_wake_fn *wake, void *context, apierr *err)
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
        sub->group = group_index(group);
        sub->next = hub.head;
        if (hub.head != NULL)
            hub.head->prev = sub;
        hub.head = sub;
        hub.count++;
    }
    choose_leaders(&wakes);
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
    relay_group *g = &hub.groups[sub->group];
    if (sub->relayed)
        relay_unlink(g, sub);
    /* It may be the leader its group waits for, its connection closed
     * before its reader ran (libmicrohttpd 0.9.75 runs the reader of a
     * resumed connection even when its client has left, but a leader
     * must not count on it): it wakes the rest. */
    wake_list wakes = {0};
    relay_take(g, RELAY_BATCH, &wakes);
    pthread_mutex_unlock(&hub.lock);
    wake_all(&wakes);
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
    wake_list wakes = {0};
    relay_take(&hub.groups[sub->group], RELAY_BATCH, &wakes);
    pthread_mutex_unlock(&hub.lock);
    wake_all(&wakes);
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
    /* Every one at once, from here: the server is about to stop, and
     * must not stop with a connection still suspended. */
    for (size_t i = 0; i < hub.group_count; i++)
        relay_take(&hub.groups[i], SIZE_MAX, &wakes);
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
