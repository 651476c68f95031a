/* store.h: what the service keeps in PostgreSQL.
 *
 * Every match is an append-only, hash-chained event log: event N's hash is
 * BLAKE2b-256(hash of event N-1 || canonical bytes of event N), the first
 * event chaining from 32 zero bytes. An append names the head it expects:
 * the match row's head moves in the same transaction, so of two concurrent
 * writers exactly one wins each sequence number and the other gets a
 * conflict (409), never a gap or a duplicate.
 *
 * Functions take the caller's connection so a use case can compose several
 * of them in one transaction (store_begin … store_commit). All return false
 * with err filled on failure.
 */
#ifndef SERVICE_STORE_H
#define SERVICE_STORE_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "ledger/chain.h"
#include "ledger/seal.h"

#define STORE_MAX_SEATS CHAIN_MAX_SEATS
#define STORE_HASH_BYTES CHAIN_HASH_BYTES

typedef struct store_match {
    long long match_id;
    char game[64];
    int engine_version;
    json_t *options;             /* owned */
    int seat_count;
    char status[16];             /* open | active | finished */
    long long head_seq;
    uint8_t head_hash[STORE_HASH_BYTES];
    uint8_t sealed_seed[SEAL_SEED_BYTES + SEAL_OVERHEAD];
    long long created_by;
    long long seat_player[STORE_MAX_SEATS];  /* 0 = empty seat */
    char seat_name[STORE_MAX_SEATS][81];
    /* Who can be notified, read with the match so that a move costs no
     * extra round trip for it: bit s set when seat s's player has an email
     * address / an enabled player webhook and has not turned that channel
     * off (notification_settings), or has opened an event stream
     * (streams/); relay_webhooks when the match has an
     * enabled relay webhook. */
    uint32_t seat_has_email;
    uint32_t seat_has_webhook;
    bool relay_webhooks;
    /* Set on a copy from the process's cache (matchstate_recall): the
     * three fields above are not known until store_load_reachability. */
    bool reachability_unknown;
    /* When they were read (store_reachability_current): the monotonic
     * clock in ms, the process's count of changes to who can be notified
     * then, and the seats' players then. */
    long long reachability_read_ms;
    unsigned long reachability_changes;
    long long reachability_seat_player[STORE_MAX_SEATS];
} store_match;

/* Called after this process changed who can be notified (an email
 * setting, a webhook, a first event stream): every reading of it taken
 * before is out of date. */
void store_reachability_changed(void);

/* Whether match's reading of who can be notified may still be used: read
 * less than max_age_ms ago, since when this process changed none of it,
 * for the same players in the same seats. Another process's change is
 * seen once the reading is max_age_ms old. */
bool store_reachability_current(const store_match *match, long long max_age_ms);

bool store_begin(PGconn *conn, apierr *err);
/* A transaction on match_id that may share its commit with others (db.h,
 * "shared commits"): what it writes shows at store_commit, and a read
 * inside it makes it an ordinary one. */
bool store_begin_shared(PGconn *conn, long long match_id, apierr *err);
bool store_commit(PGconn *conn, apierr *err);
void store_rollback(PGconn *conn);

/* Public ids: "m_<n>" for matches, "p_<n>" for players. Each id has one
 * spelling: parsing returns 0 for a sign, space, leading zero, anything
 * after the digits, or a number too large for a bigint. */
void store_match_ref(long long match_id, char out[32]);
long long store_parse_match_ref(const char *text);
void store_player_ref(long long player_id, char out[32]);
long long store_parse_player_ref(const char *text);

/* Inserts a new match row with head 0 (its first events come by append). */
bool store_insert_match(PGconn *conn, const store_match *match, apierr *err);

/* Reads a match and its seats. 404 when there is no such match. The caller
 * frees with store_match_free. */
bool store_load_match(PGconn *conn, long long match_id, store_match *match,
                      apierr *err);
/* Reads who can be notified (seat_has_email, seat_has_webhook,
 * relay_webhooks) for a match struct made or changed by hand: an import,
 * a replaced seat. store_load_match reads them already. */
bool store_load_reachability(PGconn *conn, store_match *match, apierr *err);

void store_match_free(store_match *match);

/* The match's head sequence number and the engine version it is played
 * under (may be NULL), a cheap read; 404 when there is no such match. */
bool store_load_head(PGconn *conn, long long match_id, long long *head,
                     int *engine_version, apierr *err);

/* Puts player_id in an existing seat in place of its player (an admin's
 * replacement); 409 when that player already holds another seat. */
bool store_move_seat(PGconn *conn, long long match_id, int seat,
                     long long player_id, apierr *err);

/* Seats player_id at seat; 409 when the seat was taken or the player is
 * already seated in this match. */
bool store_insert_seat(PGconn *conn, long long match_id, int seat,
                       long long player_id, apierr *err);

/* Appends count events after match->head_seq. Each event is an object
 * {"kind": "...", "seat": n (optional), "data": {...}} (borrowed). Sets the
 * match status to new_status when not NULL. On success match->head_seq and
 * head_hash move to the last event; on a lost race 409 "stale_seq" with
 * err->head set to the current head. */
bool store_append(PGconn *conn, store_match *match, json_t *const *events,
                  int count, const char *new_status, apierr *err);

/* Events with seq > after, at most limit, oldest first, as a new JSON array
 * of the stored event objects plus "hash" and "prev_hash" in hex. */
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

/* Request nonces (idempotent retries): the first answer to a signed
 * request, and the match head it left behind (match_id 0 when it made no
 * event). */
typedef struct store_nonce {
    int status;
    char *response; /* malloc'd by store_find_nonce */
    long long match_id;
    long long seq;
} store_nonce;

/* 0 unseen, 1 seen for this same request (*found filled), 2 seen for a
 * different request, -1 database error. */
int store_find_nonce(PGconn *conn, const char *key_id, const char *nonce,
                     const uint8_t digest[32], store_nonce *found, apierr *err);
/* 409 "nonce_reused" when a concurrent request took the nonce first. */
bool store_save_nonce(PGconn *conn, const char *key_id, const char *nonce,
                      const uint8_t digest[32], const store_nonce *answer,
                      apierr *err);

/* Deletes up to limit request_nonces rows made more than seconds ago,
 * oldest first. Past the signature window a request can no longer be
 * sent, so its nonce neither guards against a replay nor serves a retry;
 * exports carry the signed requests in the events, not here. How many
 * rows went, or -1 with err. */
int store_prune_nonces(PGconn *conn, long long seconds, int limit,
                       apierr *err);

/* Players and keys. */
/* The key id the service gives an Ed25519 public key: "k_" and the hex of
 * its 8-byte BLAKE2b digest, so that a client can sign its registration
 * with the key id it is about to get. */
void store_key_id(const uint8_t public_key[32], char key_id[40]);
/* Inserts the player and its key inside the caller's transaction; 409
 * "key_registered" when the key is taken (the transaction is then
 * aborted). public_key NULL makes an email-only player (the email door:
 * mailbox possession is their authentication), key_id then "". */
bool store_create_player(PGconn *conn, const char *name, const char *email,
                         const uint8_t public_key[32], long long *player_id,
                         char key_id[40], apierr *err);
/* 401 when the key is unknown or revoked. */
bool store_find_key(PGconn *conn, const char *key_id, uint8_t public_key[32],
                    long long *player_id, apierr *err);

/* Import (import.h). */

/* Serialises the imports that recreate the same players: locks each of
 * ids until the transaction ends (in id order, so imports never deadlock). */
bool store_lock_players(PGconn *conn, const long long *ids, int count,
                        apierr *err);

/* Recreates a player with this id and key: reuses a player already present
 * with the same key id and key; 409 "player_conflict" when the id or the
 * key is present with something else. public_key NULL: an email-only
 * player, reused when the id is present. */
bool store_import_player(PGconn *conn, long long player_id, const char *name,
                         const char *email, const uint8_t public_key[32],
                         const char *key_id, apierr *err);

/* Inserts a match row as it was (status, head_seq and head_hash taken from
 * *match; created_at and updated_at as RFC 3339 text, NULL for now); 409
 * "match_exists" when the id is taken. */
bool store_import_match(PGconn *conn, const store_match *match,
                        const char *created_at, const char *updated_at,
                        apierr *err);

/* Inserts a checked log (the objects of an export, borrowed) as events 1…n
 * of match_id: each event's canonical body without its hashes, and its
 * recorded hashes. */
bool store_import_events(PGconn *conn, long long match_id, const json_t *events,
                         apierr *err);

#endif
