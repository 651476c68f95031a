/* push_subscriptions.h: the browsers' Web Push subscriptions
 * (migrations/023_push_subscriptions.sql), as stored. notify/push.h
 * checks what a page sends, lists and removes them, and delivers; this
 * module only reads and writes the rows. Keys travel as bytea text
 * ("\x<hex>", store/bytea.h). */
#ifndef SERVICE_STORE_PUSH_SUBSCRIPTIONS_H
#define SERVICE_STORE_PUSH_SUBSCRIPTIONS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* The columns of the rows that describe subscriptions, in this order;
 * times are RFC 3339 UTC. */
enum {
    STORE_PUSH_ID,
    STORE_PUSH_ENDPOINT,
    STORE_PUSH_CREATED,
    STORE_PUSH_DISABLED_AT,     /* NULL while enabled */
    STORE_PUSH_DISABLED_REASON, /* NULL while enabled */
};

/* Subscribes player_id's browser at endpoint with its keys (bytea text):
 * a new row, or the player's row for that endpoint with the new keys and
 * enabled again (a browser that subscribes again keeps one row). The row
 * (STORE_PUSH_… columns). The caller PQclears; NULL with err filled. */
PGresult *store_push_subscriptions_put(PGconn *conn, long long player_id,
                                       const char *endpoint, const char *p256dh,
                                       const char *auth, apierr *err);

/* player_id's enabled subscriptions, oldest first (STORE_PUSH_…
 * columns). The caller PQclears; NULL with err filled. */
PGresult *store_push_subscriptions_of_player(PGconn *conn, long long player_id,
                                             apierr *err);

/* Disables subscription_id if player_id owns it and it is enabled ("turned
 * off by its owner"). 1 when it did, 0 when the player has no such
 * enabled subscription, -1 with err filled. */
int store_push_subscriptions_disable_owned(PGconn *conn,
                                           long long subscription_id,
                                           long long player_id, apierr *err);

/* The columns of store_push_subscriptions_load's row, in this order. */
enum {
    STORE_PUSH_LOAD_ENDPOINT,
    STORE_PUSH_LOAD_P256DH,   /* bytea text */
    STORE_PUSH_LOAD_AUTH,     /* bytea text */
    STORE_PUSH_LOAD_DISABLED, /* "t" or "f" */
};

/* What a delivery to subscription_id needs (no row when there is none).
 * The caller PQclears; NULL with err filled. */
PGresult *store_push_subscriptions_load(PGconn *conn, long long subscription_id,
                                        apierr *err);

/* Disables subscription_id for reason (the push service dropped it),
 * unless it is disabled already. False with err filled. */
bool store_push_subscriptions_disable(PGconn *conn, long long subscription_id,
                                      const char *reason, apierr *err);

#endif
