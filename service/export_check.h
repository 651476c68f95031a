/* export_check.h: reads and checks a match export (JSON Lines, format
 * "pbem-export/1": a header object, then every event as GET
 * /v1/matches/{id}/events returns them). Pure: no database, no clock.
 * Shared by POST /v1/admin/matches/import and `pbem verify --export`.
 *
 * The check: the header's shape; every event belongs to the header's
 * match; verify_events (hash chain, sealed commitments, and a replay once
 * the seed is revealed); the created event agrees with the header (game,
 * engine version, seed commitment); and every event that carries a signed
 * request (data.request) was signed, per RFC 9421, by the key the header
 * gives the event's seat, over exactly the recorded method, target, body
 * and Content-Digest. */
#ifndef SERVICE_EXPORT_CHECK_H
#define SERVICE_EXPORT_CHECK_H

#include <jansson.h>
#include <stddef.h>

#include "verify.h"

#define EXPORT_FORMAT "pbem-export/1"

/* One match of an export: its header and its events (new references). */
typedef struct export_match {
    json_t *header;
    json_t *events;   /* array, oldest first */
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
