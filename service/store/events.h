/* events.h: the hash-chained event log of a match and its snapshots
 * (migrations/001_foundation.sql, 014_append_function.sql).
 *
 * Every match is an append-only, hash-chained event log: event N's hash is
 * BLAKE2b-256(hash of event N-1 || canonical bytes of event N), the first
 * event chaining from 32 zero bytes. An append names the head it expects:
 * the match row's head moves in the same transaction, so of two concurrent
 * writers exactly one wins each sequence number and the other gets a
 * conflict (409), never a gap or a duplicate. */
#ifndef SERVICE_STORE_EVENTS_H
#define SERVICE_STORE_EVENTS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"
#include "store/matches.h"

/* Appends count events after match->head_seq. Each event is an object
 * {"kind": "...", "seat": n (optional), "data": {...}} (borrowed). Sets the
 * match status to new_status when not NULL. On success match->head_seq and
 * head_hash move to the last event; on a lost race 409 "stale_seq" with
 * err->head set to the current head. */
bool store_append(PGconn *conn, store_match *match, json_t *const *events,
                  int count, const char *new_status, apierr *err);

/* Events with seq > after, at most limit, oldest first, as a new JSON array
 * of the stored event objects plus "hash" and "prev_hash" in hex, each in
 * its public form (ledger/public_event.h: no mail address). */
json_t *store_events_after(PGconn *conn, long long match_id, long long after,
                           int limit, apierr *err);

/* Checks the whole chain of a match: every hash recomputed from the stored
 * bytes, every prev_hash equal to the hash before, seqs without gaps, and
 * the match head equal to the last event. On a break, *bad_seq is the first
 * bad event and reason says what is wrong; returns false only on database
 * errors (err filled). *ok tells the verdict. */
bool store_verify_chain(PGconn *conn, long long match_id, bool *ok,
                        long long *bad_seq, char *reason, size_t reason_size,
                        apierr *err);

/* The latest snapshot at or before max_seq made by engine_version, or
 * *seq = 0 when none. *state is malloc'd (caller frees). */
bool store_find_snapshot(PGconn *conn, long long match_id, long long max_seq,
                         int engine_version, long long *seq, char **state,
                         apierr *err);
bool store_save_snapshot(PGconn *conn, long long match_id, long long seq,
                         int engine_version, const char *state, apierr *err);

/* Inserts a checked log (the objects of an export, borrowed) as events 1…n
 * of match_id: each event's canonical body without its hashes, and its
 * recorded hashes. */
bool store_import_events(PGconn *conn, long long match_id, const json_t *events,
                         apierr *err);

/* The events up to head that seated a player ("joined", and an admin's
 * "seat_replaced"), oldest first, with the player they name. The caller
 * PQclears the result: rows of kind, seat, player_id, name, email (NULL:
 * none), and the public key (standard base64) and key id the event stands
 * for ("joined": the player's oldest key; "seat_replaced": the one it
 * recorded; NULL for an email-only player). NULL with err filled. */
PGresult *store_events_seatings(PGconn *conn, long long match_id,
                                long long head, apierr *err);

/* Events with after < seq <= upto, oldest first, at most limit, as an
 * export writes them. The caller PQclears the result: rows of seq, the
 * stored canonical body, hash and prev_hash in hex. NULL with err filled. */
PGresult *store_events_export_page(PGconn *conn, long long match_id,
                                   long long after, long long upto, int limit,
                                   apierr *err);

/* The latest move of match_id at or before seq: its seat (-1: none) and
 * its text into *text (malloc'd, the caller frees; NULL when there is no
 * such move or it has no text). False with err filled. */
bool store_events_last_move(PGconn *conn, long long match_id, long long seq,
                            int *seat, char **text, apierr *err);

#endif
