/* told_cache.c: see told_cache.h. */
#include "play/told_cache.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/ways.h"

#define SETS (TOLD_CACHE_MATCHES / WAYS_PER_SET)

/* Batches set aside for their commit: one per append in flight, and a
 * few lost ones (a lost race, a failed commit) until they give way. */
#define PENDING 256

/* At most this many events in one append (play/append.h). */
#define BATCH_MAX (2 * STORE_MAX_SEATS + 4)

/* One event: who acted, whether it is that seat's own action, and its
 * sentences in one block: the public one, then one per seat of own (a bit
 * per seat), in seat order, each ending in '\0'. */
typedef struct told_event {
    long long seq;
    int actor; /* -1: the service's own */
    bool acts;
    uint32_t own;
    char *texts;
} told_event;

typedef struct told_match {
    long long upto; /* the last seq kept */
    int held;       /* events kept: seqs upto - held + 1 to upto */
    long long acted[STORE_MAX_SEATS]; /* each seat's last action <= upto */
    long long hash_seq;               /* the seq whose hash is known, or 0 */
    uint8_t hash[STORE_HASH_BYTES];
    told_event ring[TOLD_CACHE_KEPT]; /* seq s at s % TOLD_CACHE_KEPT */
} told_match;

typedef struct told_set {
    pthread_mutex_t lock;
    unsigned long long clock;
    ways_tag tags[WAYS_PER_SET];
    told_match *ways[WAYS_PER_SET];
} told_set;

typedef struct told_batch {
    long long match_id; /* 0: free */
    long long first;
    int count;
    uint8_t hash[STORE_HASH_BYTES];
    told_event events[BATCH_MAX];
} told_batch;

static told_set sets[SETS];
static pthread_once_t sets_once = PTHREAD_ONCE_INIT;

static told_batch pending[PENDING];
static int pending_next;
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;

static void init_sets(void)
{
    for (int s = 0; s < SETS; s++)
        pthread_mutex_init(&sets[s].lock, NULL);
}

static told_set *set_of(long long match_id)
{
    pthread_once(&sets_once, init_sets);
    return &sets[ways_set((unsigned long long)match_id, SETS)];
}

static void event_free(told_event *event)
{
    free(event->texts);
    memset(event, 0, sizeof *event);
}

static void match_clear(told_match *match)
{
    for (int i = 0; i < TOLD_CACHE_KEPT; i++)
        event_free(&match->ring[i]);
    memset(match, 0, sizeof *match);
}

/* match_id's entry in set (lock held), or NULL. */
static told_match *find(told_set *set, long long match_id)
{
    int way = ways_find(set->tags, (unsigned long long)match_id, &set->clock);
    return way >= 0 ? set->ways[way] : NULL;
}

/* match_id's entry in set (lock held), emptied: a new one, or the one
 * used longest ago. */
static told_match *place(told_set *set, long long match_id)
{
    int way = ways_place(set->tags, (unsigned long long)match_id, &set->clock);
    if (set->ways[way] == NULL) {
        set->ways[way] = calloc(1, sizeof *set->ways[way]);
        if (set->ways[way] == NULL)
            abort();
    } else {
        match_clear(set->ways[way]);
    }
    return set->ways[way];
}

/* Forgets match_id in set (lock held). */
static void drop(told_set *set, long long match_id)
{
    int way = ways_find(set->tags, (unsigned long long)match_id, &set->clock);
    if (way < 0)
        return;
    match_clear(set->ways[way]);
    memset(&set->tags[way], 0, sizeof set->tags[way]);
}

/* The sentence of event told to viewer (a seat, or -1): its own, else
 * the public one. */
static const char *text_for(const told_event *event, int viewer)
{
    const char *text = event->texts;
    if (viewer < 0 || viewer >= 32 || !(event->own & (1u << viewer)))
        return text;
    for (int s = 0; s <= viewer; s++) {
        if (!(event->own & (1u << s)))
            continue;
        text += strlen(text) + 1;
    }
    return text;
}

/* The sentences of one seq from rows (borrowed; rows of that seq, any
 * order) into event's block. */
static void event_texts(told_event *event, const json_t *rows)
{
    const char *public = "";
    const char *own[STORE_MAX_SEATS] = {0};
    size_t size = 1;
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row)
    {
        int viewer = (int)json_integer_value(json_object_get(row, "viewer"));
        const char *text = json_string_value(json_object_get(row, "text"));
        if (text == NULL)
            continue;
        if (viewer < 0)
        public = text;
        else if (viewer < STORE_MAX_SEATS) own[viewer] = text;
    }
    size += strlen(public);
    for (int s = 0; s < STORE_MAX_SEATS; s++)
        if (own[s] != NULL) {
            event->own |= 1u << s;
            size += strlen(own[s]) + 1;
        }
    char *block = malloc(size);
    if (block == NULL)
        abort();
    char *at = stpcpy(block, public) + 1;
    for (int s = 0; s < STORE_MAX_SEATS; s++)
        if (own[s] != NULL)
            at = stpcpy(at, own[s]) + 1;
    event->texts = block;
}

/* Splits rows (by seq, then viewer; each seq with its public row first
 * or not at all) into events, count at most: the rows of one seq, a
 * stretch without its public row ends them. Returns how many. acts_of
 * says whether the event at index i is its seat's own action, or is
 * NULL: the rows carry "acts". */
static int events_of(const json_t *rows, long long first, told_event *events,
                     int count, const bool *acts_of)
{
    int made = 0;
    size_t i = 0, n = json_array_size(rows);
    while (i < n && made < count) {
        const json_t *row = json_array_get(rows, i);
        long long seq =
            (long long)json_integer_value(json_object_get(row, "seq"));
        if (seq != first + made)
            break;
        json_t *same = json_array();
        bool has_public = false;
        size_t j = i;
        for (; j < n; j++) {
            const json_t *r = json_array_get(rows, j);
            if (json_integer_value(json_object_get(r, "seq")) != seq)
                break;
            if (json_integer_value(json_object_get(r, "viewer")) < 0)
                has_public = true;
            json_array_append(same, (json_t *)r);
        }
        if (!has_public) {
            json_decref(same);
            break;
        }
        told_event *event = &events[made];
        memset(event, 0, sizeof *event);
        event->seq = seq;
        const json_t *seat = json_object_get(row, "seat");
        event->actor =
            json_is_integer(seat) ? (int)json_integer_value(seat) : -1;
        event->acts =
            event->actor >= 0 &&
            (acts_of != NULL ? acts_of[made]
                             : json_is_true(json_object_get(row, "acts")));
        event_texts(event, same);
        json_decref(same);
        made++;
        i = j;
    }
    return made;
}

/* Keeps event (moved in: the caller's copy is emptied) as the next seq of
 * match. */
static void keep(told_match *match, told_event *event)
{
    told_event *slot = &match->ring[event->seq % TOLD_CACHE_KEPT];
    event_free(slot);
    *slot = *event;
    memset(event, 0, sizeof *event);
    match->upto = slot->seq;
    if (match->held < TOLD_CACHE_KEPT)
        match->held++;
    if (slot->acts && slot->actor < STORE_MAX_SEATS)
        match->acted[slot->actor] = slot->seq;
}

/* Keeps those of events (count of them, in seq order) that follow what
 * match holds, up to the first gap; frees the others. */
static void keep_all(told_match *match, told_event *events, int count)
{
    for (int i = 0; i < count; i++) {
        if (events[i].seq == match->upto + 1)
            keep(match, &events[i]);
        else
            event_free(&events[i]);
    }
}

static const char *const seat_acts[] = {"move", "committed", "revealed"};

static bool is_seat_act(const json_t *event)
{
    const char *kind = json_string_value(json_object_get(event, "kind"));
    for (size_t i = 0; kind != NULL && i < sizeof seat_acts / sizeof *seat_acts;
         i++)
        if (strcmp(kind, seat_acts[i]) == 0)
            return true;
    return false;
}

void told_cache_stage(long long match_id, long long first,
                      json_t *const *events, int count, const json_t *rows,
                      const uint8_t hash[STORE_HASH_BYTES])
{
    if (count <= 0 || count > BATCH_MAX)
        return;
    told_batch batch = {.match_id = match_id, .first = first};
    memcpy(batch.hash, hash, sizeof batch.hash);
    bool acts[BATCH_MAX];
    for (int i = 0; i < count; i++)
        acts[i] = is_seat_act(events[i]);
    batch.count = events_of(rows, first, batch.events, count, acts);
    if (batch.count != count) {
        for (int i = 0; i < batch.count; i++)
            event_free(&batch.events[i]);
        return;
    }
    pthread_mutex_lock(&pending_lock);
    told_batch *slot = &pending[pending_next];
    pending_next = (pending_next + 1) % PENDING;
    told_batch old = *slot;
    *slot = batch;
    pthread_mutex_unlock(&pending_lock);
    for (int i = 0; i < old.count; i++)
        event_free(&old.events[i]);
}

void told_cache_commit(long long match_id, long long head,
                       const uint8_t hash[STORE_HASH_BYTES])
{
    told_batch batch = {0};
    pthread_mutex_lock(&pending_lock);
    for (int i = 0; i < PENDING; i++) {
        told_batch *b = &pending[i];
        if (b->match_id == match_id && b->first + b->count - 1 == head &&
            memcmp(b->hash, hash, sizeof b->hash) == 0) {
            batch = *b;
            memset(b, 0, sizeof *b);
            break;
        }
    }
    pthread_mutex_unlock(&pending_lock);
    if (batch.match_id == 0)
        return;
    told_set *set = set_of(match_id);
    pthread_mutex_lock(&set->lock);
    told_match *match = find(set, match_id);
    /* A match's first events start it whole: nobody has acted before. */
    if (match == NULL && batch.first == 1)
        match = place(set, match_id);
    if (match != NULL && batch.first <= match->upto + 1 && match->upto < head) {
        keep_all(match, batch.events, batch.count);
        if (match->upto == head) {
            match->hash_seq = head;
            memcpy(match->hash, hash, sizeof match->hash);
        }
    }
    pthread_mutex_unlock(&set->lock);
    for (int i = 0; i < batch.count; i++)
        event_free(&batch.events[i]);
}

long long told_cache_upto(long long match_id)
{
    told_set *set = set_of(match_id);
    pthread_mutex_lock(&set->lock);
    told_match *match = find(set, match_id);
    long long upto = match != NULL ? match->upto : -1;
    pthread_mutex_unlock(&set->lock);
    return upto;
}

void told_cache_put(long long match_id, long long after, long long upto,
                    const uint8_t hash[STORE_HASH_BYTES], const json_t *rows,
                    int seats, const long long *acted)
{
    if (upto <= after || upto - after > TOLD_CACHE_KEPT)
        return;
    told_event events[TOLD_CACHE_KEPT];
    int count = events_of(rows, after + 1, events, (int)(upto - after), NULL);
    told_set *set = set_of(match_id);
    pthread_mutex_lock(&set->lock);
    told_match *match = find(set, match_id);
    if (acted != NULL) {
        match = place(set, match_id);
        match->upto = after;
        for (int s = 0; s < seats && s < STORE_MAX_SEATS; s++)
            match->acted[s] = acted[s];
    }
    if (match != NULL && match->upto >= after) {
        keep_all(match, events, count);
        if (match->upto == upto) {
            match->hash_seq = upto;
            memcpy(match->hash, hash, sizeof match->hash);
        }
    } else {
        for (int i = 0; i < count; i++)
            event_free(&events[i]);
    }
    pthread_mutex_unlock(&set->lock);
}

/* seat's last action at or before head among what match holds (lock
 * held), or -1 when that is not known. */
static long long acted_at(const told_match *match, int seat, long long head)
{
    if (seat < 0 || seat >= STORE_MAX_SEATS)
        return -1;
    if (match->acted[seat] <= head)
        return match->acted[seat];
    long long first = match->upto - match->held + 1;
    for (long long seq = head; seq >= first && seq >= 1; seq--) {
        const told_event *event = &match->ring[seq % TOLD_CACHE_KEPT];
        if (event->acts && event->actor == seat)
            return seq;
    }
    return first <= 1 ? 0 : -1;
}

/* event, at seq, as told to viewer: {"seq", "seat", "text"}, in that order.
 * Built without json_pack, whose format parsing, and the UTF-8 check of a text
 * that was a jansson string when it was kept (valid already), were half
 * the cost of a view's 200 entries: the largest of pbemd's own costs per
 * move (docs/benchmarks.md). */
static json_t *told_entry(long long seq, const told_event *event, int viewer)
{
    json_t *entry = json_object();
    json_object_set_new_nocheck(entry, "seq", json_integer(seq));
    json_object_set_new_nocheck(entry, "seat",
                                event->actor >= 0 ? json_integer(event->actor)
                                                  : json_null());
    json_object_set_new_nocheck(entry, "text",
                                json_string_nocheck(text_for(event, viewer)));
    return entry;
}

json_t *told_cache_told(long long match_id, long long head,
                        const uint8_t hash[STORE_HASH_BYTES], int seat,
                        long long after, long long *acted)
{
    if (after < 0)
        after = 0;
    told_set *set = set_of(match_id);
    json_t *told = NULL;
    pthread_mutex_lock(&set->lock);
    told_match *match = find(set, match_id);
    if (match != NULL && match->hash_seq == head &&
        memcmp(match->hash, hash, sizeof match->hash) != 0) {
        drop(set, match_id);
        match = NULL;
    }
    long long since = match != NULL ? acted_at(match, seat, head) : -1;
    if (match != NULL && head <= match->upto &&
        after >= match->upto - match->held && since >= 0) {
        told = json_array();
        for (long long seq = after + 1; seq <= head; seq++)
            json_array_append_new(
                told,
                told_entry(seq, &match->ring[seq % TOLD_CACHE_KEPT], seat));
        *acted = since;
    }
    pthread_mutex_unlock(&set->lock);
    return told;
}

void told_cache_forget_all(void)
{
    pthread_once(&sets_once, init_sets);
    for (int s = 0; s < SETS; s++) {
        told_set *set = &sets[s];
        pthread_mutex_lock(&set->lock);
        for (int w = 0; w < WAYS_PER_SET; w++) {
            if (set->ways[w] != NULL)
                match_clear(set->ways[w]);
            memset(&set->tags[w], 0, sizeof set->tags[w]);
        }
        pthread_mutex_unlock(&set->lock);
    }
    pthread_mutex_lock(&pending_lock);
    for (int i = 0; i < PENDING; i++) {
        for (int e = 0; e < pending[i].count; e++)
            event_free(&pending[i].events[e]);
        memset(&pending[i], 0, sizeof pending[i]);
    }
    pthread_mutex_unlock(&pending_lock);
}
