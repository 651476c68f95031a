/* streams_hub.h: the open event streams of this process and the one
 * PostgreSQL LISTEN connection that wakes them.
 *
 * A stream (a player's notifications or a match's events, stream_feed.h)
 * joins the hub naming what it follows. Its reader takes the hub's news
 * for it (streams_hub_take) and, with nothing left to send, parks
 * (streams_hub_park): the HTTP layer suspends the connection, so an idle
 * stream holds no server thread. The hub's thread LISTENs on
 * "pbem_stream", which the append's transaction NOTIFYs (a trigger on
 * events: "m<match>"; on player_stream: "p<player>", see
 * migrations/012_streams.sql), so a change made by any pbemd process wakes
 * the streams of every process. It also wakes every stream for a
 * heartbeat each PBEM_STREAM_HEARTBEAT_SECONDS (15 by default), the
 * streams spread over the period (each in its own sixteenth of it, so no
 * moment wakes them all), and all of them after the LISTEN connection was lost, since notifications may
 * have been missed (a stream then reads from where it stood: nothing is
 * lost, as streams follow ids in the database, not the notifications).
 *
 * Limits: PBEM_STREAMS_PER_KEY (4) streams per signing key, 429; and
 * PBEM_STREAMS_MAX (10000) in the whole process, 503.
 *
 * The same thread prunes players' stream items older than
 * PBEM_STREAM_KEEP_HOURS (168, a week) every PBEM_STREAM_PRUNE_SECONDS
 * (3600): a client may resume within that time (stream_feed.h). */
#ifndef SERVICE_STREAMS_STREAMS_HUB_H
#define SERVICE_STREAMS_STREAMS_HUB_H

#include <stdbool.h>

#include "core/apierr.h"

/* Retry-After of a refused stream, in seconds: a key at its limit may
 * well hold a stream its client has left, which the refusal wakes to find
 * out (streams_hub_join), so it may try again soon. */
#define STREAMS_RETRY_AFTER 30
#define STREAMS_KEY_RETRY_AFTER 2

typedef enum streams_topic {
    STREAMS_MATCH,  /* a match's public events, by match id */
    STREAMS_PLAYER, /* a player's notifications, by player id */
} streams_topic;

/* What the hub has for a stream since its reader last took it. */
enum {
    STREAMS_NEWS = 1u,      /* something may have been appended */
    STREAMS_HEARTBEAT = 2u, /* time for a heartbeat */
    STREAMS_CLOSING = 4u,   /* the process stops: end the stream */
};

typedef struct streams_sub streams_sub;

/* Wakes a parked stream (the HTTP layer resumes its connection). Called
 * once per parking, after the hub's lock is released, by the hub's
 * thread or by a reader of the stream's group (streams_hub_join); it must
 * not call back into the hub. */
typedef void streams_wake_fn(void *context);

/* Starts the LISTEN thread (its connection made by db_listen, so on
 * the database db_init named) and takes the settings above from the
 * configuration (core/config.h). False with err filled when the thread cannot
 * start; a database that cannot be reached is retried, not an error. */
bool streams_hub_start(apierr *err);

/* Stops the thread. Every stream must have left (streams_hub_close_all,
 * then the HTTP server's end). Does nothing when not started. */
void streams_hub_stop(void);

/* Registers a stream following id in topic, opened by key (the key id of
 * its signature; NULL for an unsigned stream, counted against the total
 * only). It starts with STREAMS_NEWS, so its first read reads. NULL with
 * err filled: 429 when key holds its limit (its streams then get a
 * heartbeat, so those whose client left end), 503 when the process does
 * or is stopping, both with a Retry-After.
 *
 * group names the thread that reads the stream (the HTTP layer passes
 * its server thread's daemon). Of the streams of one group that one piece
 * of news unparks, the hub wakes one; the others wait for the group's
 * readers: each call of streams_hub_take (or streams_hub_leave) wakes a
 * batch of them from that thread. So every parked stream is still woken
 * exactly once, and those of one thread are woken by it, in batches
 * (streams_hub.c says why). */
streams_sub *streams_hub_join(streams_topic topic, long long id,
                              const char *key, const void *group,
                              streams_wake_fn *wake, void *context,
                              apierr *err);

/* Forgets sub (and frees it): its wake is never called afterwards. Wakes
 * the streams waiting for a reader of its group. */
void streams_hub_leave(streams_sub *sub);

/* The STREAMS_* flags raised for sub since the last call, cleared; and in
 * *news (may be NULL) the generation of the latest news for sub: data read
 * from the database by a query begun at that generation or later
 * (streams_hub_generation) holds whatever that news announced. Called by
 * the thread of sub's group, it also wakes the streams of the group that
 * wait for a reader (streams_hub_join). */
unsigned streams_hub_take(streams_sub *sub, unsigned long long *news);

/* The hub's generation: it grows by one with every notification handled
 * (and every reconnection of the LISTEN connection) before the streams are
 * woken. A cache of database reads records it before it reads. */
unsigned long long streams_hub_generation(void);

/* Raises STREAMS_NEWS for sub itself: a reader that stopped at a full
 * batch reads again before parking. */
void streams_hub_more(streams_sub *sub);

/* Parks sub when no flag is raised: calls park(context) under the hub's
 * lock (the HTTP layer suspends the connection there, so its wake cannot
 * come before it) and returns true. False when a flag came meanwhile: the
 * reader goes on instead. A parked stream must not end before its wake
 * (a suspended connection does not). */
bool streams_hub_park(streams_sub *sub, void (*park)(void *context),
                      void *context);

/* Raises STREAMS_CLOSING on every stream and wakes the parked ones; from
 * now on joins get 503. For a prompt shutdown. */
void streams_hub_close_all(void);

/* The streams open in this process now. */
int streams_hub_count(void);

#endif
