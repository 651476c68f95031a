/* verify_cache.h: GET /v1/matches/{id}/verify, computed once per finished
 * match. A finished (or aborted) match accepts nothing more, so its
 * verification, a replay of its whole log that can take a tenth of a
 * second, gives the same report every time: the report is kept, keyed by
 * the match and its head (sequence number and hash), and answered from
 * memory while the stored head is the same. Whatever changes the log
 * changes the head, so no admin action can make a kept report stale; an
 * edit of the events table behind the service's back (what verify exists
 * to catch) is seen once the entry is dropped: after
 * VERIFY_CACHE_SECONDS, or at a restart. Matches still in play are
 * verified afresh every time (their head moves). The cache holds a fixed
 * number of reports, the least recently used dropped first. */
#ifndef SERVICE_PLAY_VERIFY_CACHE_H
#define SERVICE_PLAY_VERIFY_CACHE_H

#include <jansson.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "ledger/verify.h"
#include "store/store.h"

#define VERIFY_CACHE_ENTRIES 256
#define VERIFY_CACHE_SECONDS 3600

/* The verify report of match_id as JSON (new reference), or NULL with err
 * filled (404 no such match, 5xx the database). Counted in /metrics as a
 * hit or a miss of the cache. */
json_t *verify_cache_match(long long match_id, apierr *err);

/* The cache itself, for tests: a report kept for (match_id, head_seq,
 * head_hash) at now (seconds), and the one kept for exactly that key
 * (false when none, or older than VERIFY_CACHE_SECONDS). */
void verify_cache_put(long long match_id, long long head_seq,
                      const unsigned char head_hash[STORE_HASH_BYTES],
                      const verify_report *report, long long now);
bool verify_cache_get(long long match_id, long long head_seq,
                      const unsigned char head_hash[STORE_HASH_BYTES],
                      long long now, verify_report *report);

/* Drops every kept report. */
void verify_cache_clear(void);

#endif
