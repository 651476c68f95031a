/* export.h: the admin export of matches as JSON Lines (the format
 * export_check.h describes), streamed: a header line per match, read in one
 * consistent snapshot, then its events read from PostgreSQL a page at a
 * time, so an export of any size needs no more memory than a page. Each
 * match's export stops at the head its header was read at. Reading needs
 * no open transaction between pages, so a stream can be read piecemeal on
 * the calling thread's connection (db.h) while the thread serves other
 * requests in between. */
#ifndef SERVICE_ADMIN_EXPORT_H
#define SERVICE_ADMIN_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/apierr.h"

typedef struct export_stream export_stream;

/* Which matches a bulk export holds: status NULL for any; since and until
 * (RFC 3339, already checked) NULL for no bound, on the time of the
 * match's last event: since <= last event < until. */
typedef struct export_filter {
    const char *status;
    const char *since;
    const char *until;
} export_filter;

/* The export of one match; NULL with err filled (404 no such match). */
export_stream *export_open_match(long long match_id, apierr *err);

/* Every match the filter selects, oldest first, each export after the
 * other; NULL with err filled when the database cannot be read. */
export_stream *export_open_bulk(const export_filter *filter, apierr *err);

/* Copies up to max bytes of the export to buf. Returns the number copied,
 * 0 at the end, -1 when the database failed mid-way (the export is cut
 * short; the failure is logged). */
ssize_t export_read(export_stream *stream, char *buf, size_t max);

void export_close(export_stream *stream);

/* Whether text is an RFC 3339 date-time ("2026-11-22T10:00:00Z",
 * fractions and a numeric offset allowed). */
bool export_valid_time(const char *text);

#endif
