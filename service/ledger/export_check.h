/* export_check.h: reads and checks a match export (JSON Lines, format
 * "pbem-export/1"). Pure: no database, no clock. Shared by POST
 * /v1/admin/matches/import and `pbem verify --export`.
 *
 * An export is, per match, a header line
 *   {"format": "pbem-export/1", "match", "game", "engine_version",
 *    "options", "seat_count", "status", "seed_commitment", "sealed_seed",
 *    "seats": [{"seat", "player", "name", "email", "public_key", "key_id"}],
 *    "replacements": [{"player", "name", "email", "public_key", "key_id"}],
 *    "sealed_choices": [{"decision", "seat", "mode", "commitment",
 *                        "sealed", "revealed"}],
 *    "delegates": [{"delegate", "player", "key_id", "name", "public_key",
 *                   "scope", "matches", "expires", "revoked", "request"}]}
 * then every event as GET /v1/matches/{id}/events returns them. "seats"
 * are the seats as they were joined; "replacements" the players an admin
 * seated since (seat_replaced events); "sealed_choices" the service's
 * sealed-choice rows (server-sealed choices still encrypted with the
 * service key); "delegates" the grants under which bots' keys made events
 * (data.delegate), each with the player's signed grant request. The last
 * three may be absent (older exports, or no bot acted).
 *
 * The check: the header's shape; every event belongs to the header's match
 * (or, before an `imported` event, to the match it was copied from); the
 * seats agree with the joined events; verify_events (hash chain, sealed
 * commitments, rewinds, and a replay once the seed is revealed); the
 * created event agrees with the header; every signed request (data.request)
 * was signed, per RFC 9421 over @method, @path and Content-Digest, by the
 * right key: a move by its seat's player at that point of the log (the
 * header's seat, or whoever a seat_replaced event put there since; a
 * rewind does not undo a replacement), an admin event (rewound,
 * seat_replaced, aborted, imported) by the admin key it records; and each
 * request asked for exactly what its event records (a move's target and
 * "seq", and its action, or its text once the match is replayed; an admin
 * request's reason and arguments); an event a bot's key made for a player
 * (data.delegate) under a grant the header carries, signed by that
 * player's key, saying what the header says, in force at the event's
 * time (not expired, not revoked) and covering its match and kind, with
 * the bot's own request signed by the granted key and covering its
 * Pbem-On-Behalf-Of; the sealed choices match the log's
 * commitments and cover the decision in progress, if any. */
#ifndef SERVICE_LEDGER_EXPORT_CHECK_H
#define SERVICE_LEDGER_EXPORT_CHECK_H

#include <jansson.h>
#include <stddef.h>

#include "ledger/verify.h"

#define EXPORT_FORMAT "pbem-export/1"

/* One match of an export: its header and its events (new references). */
typedef struct export_match {
    json_t *header;
    json_t *events; /* array, oldest first */
} export_match;

/* Splits text (len bytes) into matches: each header line starts a match,
 * the event lines after it belong to it. Returns the number of matches
 * (*out malloc'd, free with export_matches_free), or -1 with report filled
 * (bad_seq = the line number, reason) when a line is not a JSON object or
 * events come before any header. */
int export_parse(const char *text, size_t len, export_match **out,
                 verify_report *report);
void export_matches_free(export_match *matches, int count);

/* Checks one match; fills *report (bad_seq: the first bad event, 0 for a
 * bad header). */
void export_check(const export_match *match, verify_report *report);

#endif
