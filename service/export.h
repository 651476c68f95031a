/* export.h: admin export and import (restore) of matches from their event
 * logs, in the JSON Lines format export_check.h describes. Answers are
 * built in memory. */
#ifndef SERVICE_EXPORT_H
#define SERVICE_EXPORT_H

#include <stddef.h>

#include "apierr.h"

/* The export of one match: header line then one line per event, each
 * ending in LF. malloc'd text, or NULL with err filled (404 no such
 * match). */
char *export_match_text(long long match_id, apierr *err);

/* Every match with that status (NULL: all), one export after the other. */
char *export_bulk_text(const char *status, apierr *err);

/* Checks then restores every match of an export in one transaction, with
 * the same ids, players, keys, seats and event bytes. Returns the JSON
 * answer text {"imported": [{"match", "events"}...]} (malloc'd) or NULL
 * with err filled: 400 unreadable, 422 a check failed (message names the
 * match and the first bad event), 409 the match is already here or a
 * player id or key belongs to someone else. */
char *export_import_text(const char *text, size_t len, apierr *err);

#endif
