/* decisions.h: simultaneous secret decisions. When the rules engine waits
 * for several seats to choose in secret, each seat commits:
 *   - server-sealed (simple clients, email): it sends its choice; the
 *     service draws a 32-byte nonce, publishes only the commitment (see
 *     seal_choice_commitment) and keeps choice and nonce encrypted with the
 *     service key until every seat has committed;
 *   - client commit-reveal (trustless): it sends a commitment it computed
 *     itself, and reveals choice and nonce once every seat has committed.
 * When all are committed the service reveals the sealed ones; when all are
 * revealed it applies the choices in seat order ("decided" event). Until
 * then no answer, event or log line holds a choice, except a seat reading
 * back its own. */
#ifndef SERVICE_PLAY_DECISIONS_H
#define SERVICE_PLAY_DECISIONS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "auth/caller.h"

/* Commits the caller's seat to decision (NULL: the open one). body is
 * {"action"|"move"} (server-sealed) or {"commitment": "<64 hex>"}. */
json_t *decisions_commit(const caller *who, long long match_id,
                         const char *decision, const json_t *body, apierr *err);

/* Reveals a client commitment: body {"action"|"move", "nonce": "<64 hex>"};
 * 422 when it does not match the commitment. */
json_t *decisions_reveal(const caller *who, long long match_id,
                         const char *decision, const json_t *body,
                         apierr *err);

/* Who has committed (not what); after the reveal everything needed to check
 * each commitment. who may be NULL; a seated caller also sees its own
 * sealed choice. */
json_t *decisions_show(const caller *who, long long match_id,
                       const char *decision, apierr *err);

/* Deadline actions on the open decision, for the deadline worker, inside
 * its transaction on conn (the worker holds the match row). */

/* seat has not committed: choice (borrowed) is committed for it, sealed by
 * the service like a plain move, after timeout (borrowed: the public
 * "timeout" event). 409 when the seat has committed. */
bool decisions_commit_default(PGconn *conn, long long match_id, int seat,
                              const json_t *choice, json_t *timeout,
                              apierr *err);

/* seat committed a commitment of its own and did not reveal it in time:
 * the commitment is void and the choice published in timeout (borrowed, a
 * "timeout" event with data.choice) stands in for it. */
bool decisions_void_reveal(PGconn *conn, long long match_id, int seat,
                           json_t *timeout, apierr *err);

#endif
