/* replay.h: replaying a match's event log through its rules engine. Every
 * replayer (the service's state loader, the public verifier, the export
 * check, the import, the admin's rewind) answers two questions the same way:
 *
 *   - Which events count. An admin's `rewound` event {"to_seq": N} cuts the
 *     match back to what it was right after event N: the events between N
 *     and the rewind stay in the log (it is append-only) but no longer
 *     count, and play continues after the `rewound` event. A rewind goes
 *     back along the match as it stands: N must still count, come at or
 *     after the `started` event, and not fall inside a sealed decision.
 *     Nothing but an `imported` event may follow the end of a match
 *     (`finished` or `aborted`).
 *   - What a counting event does to the rules state: a `move` applies its
 *     action, a `timeout` the moves a deadline made for its seat
 *     (data.moves), a `decided` event every revealed choice in seat order;
 *     every other kind (joins, commitments, reveals, admin events) changes
 *     nothing.
 *
 * Pure: no database, no clock. Events are the objects GET
 * /v1/matches/{id}/events returns, oldest first from seq 1. */
#ifndef SERVICE_LEDGER_REPLAY_H
#define SERVICE_LEDGER_REPLAY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "rules.h"

typedef struct replay_error {
    long long seq;    /* the first bad event */
    char reason[300]; /* why, in words */
} replay_error;

/* Fills counts[i] (one per event) with whether event i+1 is part of the
 * match as it stands, checking every rewind on the way. False with err
 * filled at the first bad event. */
bool replay_history(const json_t *events, bool *counts, replay_error *err);

/* Whether a match whose log is events may be rewound to event to_seq
 * (before its last event; see above). False with err->reason filled in
 * words an admin can act on. */
bool replay_rewind_target(const json_t *events, long long to_seq,
                          replay_error *err);

/* The sealed decision in progress at the end of the counting events (a
 * seat has committed and no `decided` event has followed): its id into
 * decision and the committed seats as a bit mask; 0 when none. */
uint32_t replay_open_decision(const json_t *events, const bool *counts,
                              char decision[64]);

/* Applies one counting event to state. With check_request, a move whose
 * signed request (data.request) asked for a text move must parse, in the
 * state before it, to the recorded action. False with err filled. */
bool replay_apply(const rules_engine *engine, rules_state *state,
                  const json_t *event, bool check_request, replay_error *err);

/* Fills err and returns false, printf-style. */
bool replay_fail(replay_error *err, long long seq, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
