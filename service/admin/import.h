/* import.h: restoring matches from an admin export (export_check.h).
 *
 * Every match of the export is checked first (export_check); then, in one
 * transaction with the admin request's nonce, players are recreated (same
 * ids and keys; a player already present with the same key is reused,
 * another key under the same id is a 409), and each match with its seats,
 * sealed choices and events (same bytes, same hashes).
 *
 * Under its own id, a match that is already here is a 409. With new_id,
 * the match is restored beside its original under a fresh id: its log
 * starts with the original's events, unchanged (they still name the
 * original match, so their hashes and signed requests verify as they
 * were), followed by an `imported` event {"from": original id} that names
 * the new id; play continues under the new id. Its sealed seed is
 * re-encrypted for the new id. A match in the middle of a sealed decision
 * cannot be copied (409): its commitments are bound to the original id.
 *
 * An active match is replayed from its sealed seed before it is stored
 * (a 422 names an event that does not replay, or a text move whose signed
 * request asked for something else), a snapshot of its state is saved at
 * its head, and whoever must act now gets the usual "your turn"
 * notifications (seats of a sealed decision that have committed are not
 * asked again). */
#ifndef SERVICE_ADMIN_IMPORT_H
#define SERVICE_ADMIN_IMPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"
#include "auth/caller.h"

/* Restores the export text (len bytes) for the admin who. Returns the
 * answer {"imported": [{"match", "events", "from"?}]} (new reference), or
 * NULL with err filled: 400 unreadable, 422 a check failed (the message
 * names the match and the first bad event), 409 a match or player
 * conflict. */
json_t *import_matches(const caller *who, const char *text, size_t len,
                       bool new_id, apierr *err);

#endif
