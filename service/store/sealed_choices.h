/* sealed_choices.h: the sealed choices of a match's secret decisions, as
 * stored: a row per seat that has committed to a decision, with its
 * commitment and, for a choice the service sealed, the choice encrypted
 * with the service key until it is revealed (migrations/
 * 002_sealed_choices.sql). play/decisions.h commits and reveals them; the
 * views, nudges and deadlines read who has committed; admin/ exports,
 * imports and rewinds them. Every statement on the table is here, and
 * the one read of the match row a decision's writers hold first
 * (sealed_choices_hold_match).
 *
 * Functions take the caller's connection, so they run inside its
 * transaction when it has one. */
#ifndef SERVICE_STORE_SEALED_CHOICES_H
#define SERVICE_STORE_SEALED_CHOICES_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/apierr.h"
#include "ledger/chain.h"
#include "ledger/seal.h"

#define SEALED_CHOICES_MAX_SEATS CHAIN_MAX_SEATS

/* One seat's sealed choice in a decision, as stored. */
typedef struct sealed_choice {
    bool committed;   /* there is a row: the seat has committed */
    bool client_mode; /* its own commitment (client commit-reveal), not one
                       * the service sealed for it */
    bool revealed;
    uint8_t commitment[SEAL_HASH_BYTES];
    uint8_t *sealed; /* nonce + choice sealed by the service, until
                      * revealed (malloc'd), else NULL */
    size_t sealed_len;
} sealed_choice;

/* Reads decision's rows into seats, indexed by seat (a row whose seat is
 * out of that range is left out). seats must be zeroed, or cleared with
 * sealed_choices_free, before. False with err filled on a database
 * error. */
bool sealed_choices_load(PGconn *conn, long long match_id, const char *decision,
                         sealed_choice seats[SEALED_CHOICES_MAX_SEATS],
                         apierr *err);

/* Frees the sealed copies sealed_choices_load read into seats and clears
 * every seat. */
void sealed_choices_free(sealed_choice seats[SEALED_CHOICES_MAX_SEATS]);

/* Where decision stands, a bit per seat: *committed the seats that have
 * committed, *unrevealed those of them whose own commitment (client
 * commit-reveal) is not revealed yet. False with err filled (both 0) on a
 * database error. */
bool sealed_choices_progress(PGconn *conn, long long match_id,
                             const char *decision, uint32_t *committed,
                             uint32_t *unrevealed, apierr *err);

/* The seats that have committed to decision (a bit per seat); 0 when none
 * or on a database error. */
uint32_t sealed_choices_committed(PGconn *conn, long long match_id,
                                  const char *decision);

/* Records seat's commitment to decision: its own (client_mode, sealed
 * NULL) or one the service sealed, with the sealed choice (sealed_len
 * bytes, borrowed). False with err filled; when the seat has committed
 * already, err->code is "database:23505" (and the transaction is
 * aborted). */
bool sealed_choices_insert(PGconn *conn, long long match_id,
                           const char *decision, int seat, bool client_mode,
                           const uint8_t commitment[SEAL_HASH_BYTES],
                           const uint8_t *sealed, size_t sealed_len,
                           apierr *err);

/* Marks seat's choice in decision revealed and drops its sealed copy,
 * which keeps no secret any more. False with err filled. */
bool sealed_choices_mark_revealed(PGconn *conn, long long match_id,
                                  const char *decision, int seat, apierr *err);

/* Takes the match row (FOR UPDATE, until the caller's transaction ends)
 * before the decision's rows are touched, as every writer of a match
 * does, so that a commit racing a deadline waits instead of deadlocking;
 * *current tells whether the head is still head_seq. False with err
 * filled on a database error. */
bool sealed_choices_hold_match(PGconn *conn, long long match_id,
                               long long head_seq, bool *current, apierr *err);

/* Every sealed choice of the match, for its export: a result the caller
 * owns (PQclear), ordered by decision then seat, with the columns
 * decision, seat, mode ("client" | "server"), commitment (hex), sealed
 * (hex, or NULL once revealed or for a client commitment) and revealed
 * ("t" | "f"). NULL with err filled. */
PGresult *sealed_choices_export(PGconn *conn, long long match_id, apierr *err);

/* Restores one exported row (the text forms sealed_choices_export reads;
 * sealed_hex NULL when there is none) into the match, as imported. False
 * with err filled. */
bool sealed_choices_import(PGconn *conn, long long match_id,
                           const char *decision, long long seat,
                           const char *mode, const char *commitment_hex,
                           const char *sealed_hex, bool revealed, apierr *err);

/* Drops the match's rows of the decisions committed to after event
 * to_seq, for an admin's rewind to to_seq: server-sealed choices made
 * after it are never revealed, and a decision the rewind reopens can be
 * committed to afresh. False with err filled. */
bool sealed_choices_drop_after(PGconn *conn, long long match_id,
                               long long to_seq, apierr *err);

#endif
