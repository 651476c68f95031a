/* player_export.h: a match's export for the people who played it and for
 * those who watch it once it is over (GET /v1/matches/{id}/export), where
 * the admin's export (admin/export.h) is the service's own backup.
 *
 * One JSON document, read when it is asked for:
 * - "match": the match as GET /v1/matches/{id} shows it;
 * - "events": the whole public log up to "head", each event as GET
 *   /v1/matches/{id}/events gives it (with "hash", "prev_hash" and its
 *   public sentence "text"), so the export is checked as the log is
 *   (pbem verify, the replay page, an RFC 8785 hash-chain checker);
 * - "messages": the talk at the table the reader may read (play/
 *   messages.h): a seat's player (or a bot acting for them with view on
 *   the match) the messages to everyone and those to or from that seat,
 *   none written by a player they muted; anyone else the messages to
 *   everyone, once the match is over;
 * - "seat" (null for a spectator) and, for a seat, "view": that seat's own
 *   view as GET /v1/matches/{id}/view gives it now.
 * Nothing in it is another seat's: no private message of another pair, no
 * hidden card, no mail address, no sealed seed. */
#ifndef SERVICE_PLAY_PLAYER_EXPORT_H
#define SERVICE_PLAY_PLAYER_EXPORT_H

#include <jansson.h>

#include "auth/caller.h"
#include "core/apierr.h"

#define PLAYER_EXPORT_FORMAT "pbem-player-export/1"

/* The export of match_id as who (NULL: unsigned) may read it: a new
 * reference, or NULL with err filled: 404 no such match, 403 not_seated
 * for someone not at the table while the match is played. */
json_t *player_export_match(const caller *who, long long match_id, apierr *err);

#endif
