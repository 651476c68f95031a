/* player_stream.h: players' event streams (migrations/012_streams.sql),
 * as stored: a player's stream head (player_stream_heads: the last id
 * given out, made when they open their first stream, from then on
 * bumped by the outbox's queueing, store/outbox.h) and the items
 * (player_stream), each a notification's payload under the next id.
 * streams/ reads them after a stream's last id and prunes old ones. */
#ifndef SERVICE_STORE_PLAYER_STREAM_H
#define SERVICE_STORE_PLAYER_STREAM_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* player_id's stream head, made if the player had none (from then on the
 * outbox queues their notifications into their stream): the last id given
 * out into *last (0 for a new head). False with err filled. */
bool store_player_stream_head(PGconn *conn, long long player_id,
                              long long *last, apierr *err);

/* The oldest id still kept of player_id's stream into *oldest; *any false
 * when none is. False with err filled. */
bool store_player_stream_oldest(PGconn *conn, long long player_id,
                                long long *oldest, bool *any, apierr *err);

/* The columns of store_player_stream_after's rows, in this order. */
enum {
    STORE_PLAYER_STREAM_ID,
    STORE_PLAYER_STREAM_ITEM, /* {"type", "timestamp", "data"} as JSON */
};

/* Up to limit items of player_id's stream after id after, oldest first.
 * The caller PQclears; NULL with err filled. */
PGresult *store_player_stream_after(PGconn *conn, long long player_id,
                                    long long after, int limit, apierr *err);

/* Adds payload (JSON text, with its "type": an item's data, which
 * store_player_stream_after wraps as {"type", "timestamp", "data"}) as
 * the next item of the stream of each of the count players in player_ids
 * who has a stream head, under (match_id, seq, reason), which must be
 * new for them: what is no notification and so comes through no outbox
 * (a match's message). The heads are locked in player order, as the
 * outbox locks them. False with err filled. */
bool store_player_stream_push(PGconn *conn, const long long *player_ids,
                              int count, long long match_id, long long seq,
                              const char *reason, const char *payload,
                              apierr *err);

/* Deletes up to limit items, of any player, older than keep_hours: how
 * many, or -1 with err filled. */
int store_player_stream_prune(PGconn *conn, int keep_hours, int limit,
                              apierr *err);

#endif
