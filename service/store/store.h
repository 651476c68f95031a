/* store.h: what every module of store/ shares. Each table (or close group
 * of tables) has one module owning its statements, so that a schema change
 * touches one file: matches.h (matches and seats), events.h (the
 * hash-chained event log and its snapshots), players.h, player_keys.h,
 * request_nonces.h, invitations.h, delegate_grants.h, sign_in_links.h,
 * sealed_choices.h, deadlines.h, vacations.h, outbox.h, webhooks.h,
 * notification_settings.h, nudges.h, mail_answers.h, mail_failures.h,
 * mail_messages.h, mail_confirmations.h, player_stream.h, and the reads
 * that serve one use case across tables (match_lists.h, log_marks.h,
 * match_locks.h, savepoint.h); reachability.h is who in a match can be
 * notified, migrate.h the schema's migrations,
 * bytea.h the text form bytea travels in, db.h the connections.
 *
 * Here: the transaction a use case composes their functions in, and the
 * public ids. Store functions take the caller's connection so a use case
 * can compose several of them in one transaction (store_begin …
 * store_commit); they return false (or NULL, or -1) with err filled on
 * failure. make check fails on SQL anywhere outside store/.
 */
#ifndef SERVICE_STORE_STORE_H
#define SERVICE_STORE_STORE_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/apierr.h"
#include "ledger/chain.h"

#define STORE_MAX_SEATS CHAIN_MAX_SEATS
#define STORE_HASH_BYTES CHAIN_HASH_BYTES

bool store_begin(PGconn *conn, apierr *err);
/* A transaction on match_id that may share its commit with others (db.h,
 * "shared commits"): what it writes shows at store_commit, and a read
 * inside it makes it an ordinary one. */
bool store_begin_shared(PGconn *conn, long long match_id, apierr *err);
/* A read-only transaction that sees one snapshot of the database
 * throughout (REPEATABLE READ), for a long read such as an export. */
bool store_begin_read_only(PGconn *conn, apierr *err);
bool store_commit(PGconn *conn, apierr *err);
void store_rollback(PGconn *conn);

/* Public ids: "m_<n>" for matches, "p_<n>" for players. Each id has one
 * spelling: parsing returns 0 for a sign, space, leading zero, anything
 * after the digits, or a number too large for a bigint. */
void store_match_ref(long long match_id, char out[32]);
long long store_parse_match_ref(const char *text);
void store_player_ref(long long player_id, char out[32]);
long long store_parse_player_ref(const char *text);

#endif
