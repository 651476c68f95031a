/* reachability.h: who in a match can be notified, and whether a reading
 * of it may still be used.
 *
 * A move's notifications go only to the seats whose players can be told
 * anything (an address, a player webhook, an event stream), so a match
 * nobody listens to costs no payload building and no inserts. The reading
 * comes with the match row (store_load_match_reachable, matches.h), so a
 * move costs no extra round trip for it; a process that caches the match
 * (play/matchstate.h) keeps the reading beside it while it is current:
 * read less than a given age ago, since when this process changed none of
 * it (store_reachability_changed), for the same players in the same seats.
 * Another process's change is seen once the reading is that old. */
#ifndef SERVICE_STORE_REACHABILITY_H
#define SERVICE_STORE_REACHABILITY_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "store/store.h"

typedef struct store_reachability {
    /* Bit s set when seat s's player has an email address / an enabled
     * player webhook and has not turned that channel off
     * (notification_settings), or has opened an event stream (streams/) or
     * turned Web Push on (a push subscription counts as a webhook). */
    uint32_t seat_has_email;
    uint32_t seat_has_webhook;
    /* The match has an enabled relay webhook. */
    bool relay_webhooks;
    /* Not read (a cached match whose reading went out of date): every
     * seat and relay may listen, and the outbox's statements decide. */
    bool unknown;
    /* When it was read: the monotonic clock in ms, the process's count of
     * changes to who can be notified then, and the seats' players then. */
    long long read_ms;
    unsigned long changes;
    long long seat_player[STORE_MAX_SEATS];
} store_reachability;

/* Called after this process changed who can be notified (an email
 * setting, a webhook, a first event stream): every reading of it taken
 * before is out of date. */
void store_reachability_changed(void);

/* Whether reach may still be used for a match whose seats are held by
 * seat_player: read less than max_age_ms ago, since when this process
 * changed none of it, for these players in these seats. */
bool store_reachability_current(const store_reachability *reach,
                                const long long seat_player[STORE_MAX_SEATS],
                                long long max_age_ms);

/* Makes reach an unknown reading (reach->unknown). */
void store_reachability_forget(store_reachability *reach);

/* Reads who can be notified in match_id, whose seats are held by
 * seat_player, into reach: for a match made or changed by hand (an import,
 * a replaced seat) or whose cached reading went out of date. */
bool store_reachability_load(PGconn *conn, long long match_id,
                             const long long seat_player[STORE_MAX_SEATS],
                             store_reachability *reach, apierr *err);

/* For a statement that reads it with other rows (matches.h): notes that a
 * reading starts now, before the statement is sent, so that a change
 * counted meanwhile makes it out of date; reach is cleared. */
void store_reachability_starts(store_reachability *reach);

/* Notes the seats' players the reading was for, once they are known. */
void store_reachability_read_for(store_reachability *reach,
                                 const long long seat_player[STORE_MAX_SEATS]);

#endif
