/* verify_cache.c: a small table under one lock; a verification takes far
 * longer than a scan of it. */
#include "play/verify_cache.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "core/metrics.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/events.h"

#define VERIFY_EVENTS_MAX 1000000

typedef struct entry {
    long long match_id; /* 0: free */
    long long head_seq;
    unsigned char head_hash[STORE_HASH_BYTES];
    long long kept_at; /* seconds */
    unsigned long long used; /* tick of the last use */
    verify_report report;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry entries[VERIFY_CACHE_ENTRIES];
static unsigned long long ticks;

static entry *find(long long match_id, long long head_seq,
                   const unsigned char head_hash[STORE_HASH_BYTES])
{
    for (int i = 0; i < VERIFY_CACHE_ENTRIES; i++) {
        entry *e = &entries[i];
        if (e->match_id == match_id && e->head_seq == head_seq &&
            memcmp(e->head_hash, head_hash, STORE_HASH_BYTES) == 0)
            return e;
    }
    return NULL;
}

void verify_cache_put(long long match_id, long long head_seq,
                      const unsigned char head_hash[STORE_HASH_BYTES],
                      const verify_report *report, long long now)
{
    pthread_mutex_lock(&lock);
    entry *e = find(match_id, head_seq, head_hash);
    for (int i = 0; e == NULL && i < VERIFY_CACHE_ENTRIES; i++) {
        /* A match has one head: its older report goes. */
        if (entries[i].match_id == match_id)
            e = &entries[i];
    }
    for (int i = 0; e == NULL && i < VERIFY_CACHE_ENTRIES; i++) {
        if (entries[i].match_id == 0)
            e = &entries[i];
    }
    if (e == NULL) {
        e = &entries[0];
        for (int i = 1; i < VERIFY_CACHE_ENTRIES; i++)
            if (entries[i].used < e->used)
                e = &entries[i];
    }
    e->match_id = match_id;
    e->head_seq = head_seq;
    memcpy(e->head_hash, head_hash, STORE_HASH_BYTES);
    e->kept_at = now;
    e->used = ++ticks;
    e->report = *report;
    pthread_mutex_unlock(&lock);
}

bool verify_cache_get(long long match_id, long long head_seq,
                      const unsigned char head_hash[STORE_HASH_BYTES],
                      long long now, verify_report *report)
{
    pthread_mutex_lock(&lock);
    entry *e = find(match_id, head_seq, head_hash);
    bool found = e != NULL && now - e->kept_at < VERIFY_CACHE_SECONDS &&
                 now >= e->kept_at;
    if (found) {
        e->used = ++ticks;
        *report = e->report;
    } else if (e != NULL) {
        e->match_id = 0;
    }
    pthread_mutex_unlock(&lock);
    return found;
}

void verify_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    memset(entries, 0, sizeof entries);
    pthread_mutex_unlock(&lock);
}

/* Seconds on a clock that only goes forward (the cache's age is not match
 * time). */
static long long uptime(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec;
}

json_t *verify_cache_match(long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return NULL;
    long long head_seq = match.head_seq;
    unsigned char head_hash[STORE_HASH_BYTES];
    memcpy(head_hash, match.head_hash, sizeof head_hash);
    store_match_free(&match);

    verify_report report;
    long long now = uptime();
    if (verify_cache_get(match_id, head_seq, head_hash, now, &report)) {
        metrics_verify_cache(1);
        return verify_report_json(&report);
    }
    json_t *events =
        store_events_after(conn, match_id, 0, VERIFY_EVENTS_MAX, err);
    if (events == NULL)
        return NULL;
    verify_events(events, &report);
    metrics_verify_cache(0);
    /* Kept only when the events read are the ones the head names (no move
     * landed between the two reads) and the final event revealed the seed
     * (the match is over: its log can only grow by an admin's hand, which
     * moves the head). */
    json_t *last = json_array_get(events, json_array_size(events) - 1);
    bool same_head =
        json_integer_value(json_object_get(last, "seq")) == head_seq &&
        (long long)json_array_size(events) == head_seq;
    if (same_head && report.replayed)
        verify_cache_put(match_id, head_seq, head_hash, &report, now);
    json_decref(events);
    return verify_report_json(&report);
}
