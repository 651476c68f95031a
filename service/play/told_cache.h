/* told_cache.h: the sentences of a match's latest events, for every
 * reader (the public and each seat), kept in this process so that a
 * seat's view reads back only what it does not hold (play/event_log.h):
 * usually nothing, since this process told them at the append a moment
 * before. Beside them, each seat's last action (a move, or its sealed
 * choice committed or revealed), which starts "since your last turn".
 *
 * Sentences once kept are never changed (store/event_texts.h),
 * and a rewind appends an event without changing those before it
 * (ledger/replay.h), so a kept sentence never goes stale: what another
 * process appended since is only missing, read from the database and
 * added. Nothing enters unless committed: an append's sentences are set
 * aside (told_cache_stage) until its commit is known to have succeeded
 * (told_cache_commit); a read is kept only when made outside a
 * transaction. A match whose head at a kept seq has another hash than the
 * one kept (a database restored under a running process) is forgotten.
 *
 * Bounded: at most TOLD_CACHE_KEPT events per match (a view tells no
 * more), TOLD_CACHE_MATCHES matches, the least recently used of four
 * giving way (core/ways.h). An event costs 32 bytes and its sentences
 * (in bench/moves_loop's Antiquity Quest, 87 bytes of text over 2 rows an
 * event on average): about 28 KiB for a match's 200, 28 MiB for 1,024
 * matches. Safe to call from any thread. */
#ifndef SERVICE_PLAY_TOLD_CACHE_H
#define SERVICE_PLAY_TOLD_CACHE_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"

/* Events kept per match: as many as a seat's view tells. */
#define TOLD_CACHE_KEPT 200

/* Matches kept: 256 sets of WAYS_PER_SET. */
#define TOLD_CACHE_MATCHES 1024

/* Sets aside the sentences of match_id's events just appended (count of
 * them, borrowed, from seq first on, the last hashed hash): rows
 * (borrowed) as play/event_tell.h tells them. They are kept only when
 * told_cache_commit names the same last seq and hash; a batch never
 * named gives way to newer ones. */
void told_cache_stage(long long match_id, long long first,
                      json_t *const *events, int count, const json_t *rows,
                      const uint8_t hash[STORE_HASH_BYTES]);

/* match_id's events up to head, hashed hash, are committed: the batch set
 * aside for them is kept, when it follows what is kept (or starts the
 * match). */
void told_cache_commit(long long match_id, long long head,
                       const uint8_t hash[STORE_HASH_BYTES]);

/* The last seq kept of match_id, or -1 when none is. */
long long told_cache_upto(long long match_id);

/* Keeps rows (borrowed) read from the database outside a transaction, as
 * store_event_texts_window gives them for after < seq <= upto, where upto
 * is the head the reader saw, hashed hash. With acted (seats of them:
 * each seat's last action at or before after), what was kept of the
 * match is replaced; without, the rows extend what is kept, which must
 * reach after. Rows stop being kept at the first seq missing. */
void told_cache_put(long long match_id, long long after, long long upto,
                    const uint8_t hash[STORE_HASH_BYTES], const json_t *rows,
                    int seats, const long long *acted);

/* The sentences of match_id's events after < seq <= head told to seat,
 * oldest first, as event_log_told_acted gives them (a new array of
 * {"seq", "seat", "text"}), and *acted: seat's last action at or before
 * head. NULL when they are not all kept (nothing is read). head's hash
 * is hash: a kept one that differs forgets the match. */
json_t *told_cache_told(long long match_id, long long head,
                        const uint8_t hash[STORE_HASH_BYTES], int seat,
                        long long after, long long *acted);

/* Forgets every match and every batch set aside. */
void told_cache_forget_all(void);

#endif
