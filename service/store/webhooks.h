/* webhooks.h: the rows of the endpoints players registered for
 * notifications (migrations/003_notifications.sql, 013_delegates.sql), as
 * stored. notify/webhooks.h registers, lists, seals the secrets and
 * delivers; this module only reads and writes the rows. A row's secret is
 * kept sealed (ledger/seal.h), travelling as bytea text ("\x<hex>"). */
#ifndef SERVICE_STORE_WEBHOOKS_H
#define SERVICE_STORE_WEBHOOKS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Inserts endpoint webhook_id of player_id for match_id (0: the player's
 * own, no match) at url, with its sealed secret (bytea text) and body
 * format ("standard", "slack", "discord"). Its creation time, RFC 3339
 * UTC, into created_at. False with err filled. */
bool store_webhooks_insert(PGconn *conn, long long webhook_id,
                           long long player_id, long long match_id,
                           const char *url, const char *sealed_secret,
                           const char *format, char created_at[32],
                           apierr *err);

/* The columns of the rows that describe endpoints, in this order; times
 * are RFC 3339 UTC. */
enum {
    STORE_WEBHOOKS_ID,
    STORE_WEBHOOKS_MATCH, /* 0 for a player's own */
    STORE_WEBHOOKS_URL,
    STORE_WEBHOOKS_CREATED,
    STORE_WEBHOOKS_DISABLED_AT,     /* NULL while enabled */
    STORE_WEBHOOKS_DISABLED_REASON, /* NULL while enabled */
    STORE_WEBHOOKS_FORMAT,
};

/* player_id's endpoints, oldest first (STORE_WEBHOOKS_… columns). The
 * caller PQclears; NULL with err filled. */
PGresult *store_webhooks_of_player(PGconn *conn, long long player_id,
                                   apierr *err);

/* Disables endpoint webhook_id if player_id owns it ("disabled by its
 * owner", unless it was disabled already: then it stays as it was). Its
 * row as it is now (STORE_WEBHOOKS_… columns; no row when the player has
 * no such endpoint). The caller PQclears; NULL with err filled. */
PGresult *store_webhooks_disable_owned(PGconn *conn, long long webhook_id,
                                       long long player_id, apierr *err);

/* The columns of store_webhooks_load's row, in this order. */
enum {
    STORE_WEBHOOKS_LOAD_URL,
    STORE_WEBHOOKS_LOAD_SEALED,   /* bytea text */
    STORE_WEBHOOKS_LOAD_DISABLED, /* "t" or "f" */
    STORE_WEBHOOKS_LOAD_FORMAT,
};

/* What a delivery to webhook_id needs (no row when there is no such
 * endpoint). The caller PQclears; NULL with err filled. */
PGresult *store_webhooks_load(PGconn *conn, long long webhook_id, apierr *err);

/* Disables endpoint webhook_id for reason, unless it is disabled
 * already. False with err filled. */
bool store_webhooks_disable(PGconn *conn, long long webhook_id,
                            const char *reason, apierr *err);

#endif
