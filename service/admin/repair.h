/* repair.h: an admin repairs a match without rewriting its history. Each
 * action is itself an event appended to the match's hash-chained log, whose
 * data records who (by "admin", the admin's public key and signed request)
 * and why (the required "reason", 1 to 500 characters):
 *
 *   rewound {"to_seq": N}  the match goes back to its state right after
 *       event N (replay.h says which N are allowed: not before the start,
 *       not inside a sealed decision, not in a finished match, whose seed
 *       is revealed). Play continues from there. Sealed choices committed
 *       after N are dropped, never revealed; choices revealed after N stay
 *       public in the log, and a decision the rewind reopens is decided
 *       afresh. Whoever must act at N is notified. A player's request
 *       applied after N and retried later gets 409 "rewound", never a
 *       second application (matches.h).
 *   seat_replaced {"player", "replaces", "public_key", "key_id"} on the
 *       event's seat: from then on that player's signed requests act for
 *       the seat and the previous player's get 403. A rewind does not undo
 *       a replacement. The new player is notified if the seat must act.
 *   aborted {"seed", "result"?}  the match accepts nothing more (409
 *       "aborted"); its seed is revealed so anyone can replay it; every
 *       seated player and relay webhook is notified.
 *
 * Each function takes the admin caller (its nonce is stored with the
 * answer, so a retry gets the first answer and is never applied twice) and
 * a JSON body, and returns {"seq", "hash", "match"} (new reference) or NULL
 * with err filled: 400 a bad body, 404 no such match, seat or player, 409
 * the match's status forbids it, 422 a rewind target that is not
 * allowed. */
#ifndef SERVICE_ADMIN_REPAIR_H
#define SERVICE_ADMIN_REPAIR_H

#include <jansson.h>

#include "core/apierr.h"
#include "auth/caller.h"

/* body: {"to_seq": N, "reason": "…"} */
json_t *repair_rewind(const caller *who, long long match_id, const json_t *body,
                      apierr *err);

/* body: {"player": "p_…", "reason": "…"} */
json_t *repair_replace_seat(const caller *who, long long match_id, int seat,
                            const json_t *body, apierr *err);

/* body: {"reason": "…"} */
json_t *repair_abort(const caller *who, long long match_id, const json_t *body,
                     apierr *err);

#endif
