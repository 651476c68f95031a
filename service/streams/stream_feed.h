/* stream_feed.h: what an event stream sends, read from the database from
 * where the stream stands, and written as Server-Sent Events or as
 * newline-delimited JSON.
 *
 * - A match stream sends the match's public events after seq `after`, in
 *   the shape GET /v1/matches/{id}/events gives them; an item's id is its
 *   seq. A match stream with talk (stream_feed_with_talk: signed by a
 *   seat's player, or a bot acting for them) also sends the messages that
 *   seat may read (play/messages.h: to everyone, and to or from the seat;
 *   none written by a player its player muted) as "match.message" items,
 *   each right after the event it was written after; its items' ids are
 *   "seq:message", the last event and the last message sent, so a resume
 *   loses and repeats neither.
 * - A player stream sends the notifications the player would get by
 *   webhook, as the body of a delivery: {"type", "timestamp", "data": the
 *   payload} (type match.your_turn, match.over, match.aborted,
 *   match.nudge, match.deadline_reminder), numbered per player in
 *   player_stream (migrations/012_streams.sql). A stream opened
 *   without a Last-Event-ID starts with a your_turn payload for every
 *   match now waiting for the player; these carry no id but the last of
 *   them, whose id is where the live part starts, so a client that drops
 *   in the middle of them and reconnects gets them again.
 *
 * SSE: "id: N\ndata: <json>\n\n"; a heartbeat is ": ping\n\n".
 * NDJSON: one JSON object a line; a player stream's lines carry their id
 * as "stream_id"; a heartbeat is an empty line. */
#ifndef SERVICE_STREAMS_STREAM_FEED_H
#define SERVICE_STREAMS_STREAM_FEED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"
#include "streams/streams_hub.h"

/* At most this many items are read at a time. */
#define STREAM_FEED_BATCH 100
#define STREAM_FEED_CACHED 64
#define STREAM_FEED_CACHED_EVENTS 256
/* A player stream starts with at most this many waiting matches. */
#define STREAM_FEED_WAITING_MAX 200

typedef struct stream_feed stream_feed;

/* Opens a feed of topic's id (a match or a player id) after item `after`
 * (-1: from the start: a match's first event, or a player's waiting
 * matches then what comes next). ndjson picks the format. 404 when there
 * is no such match; 400 when after is past the last item there is; 410
 * when a player's items after it have been pruned (streams_hub.h). */
stream_feed *stream_feed_open(streams_topic topic, long long id,
                              long long after, bool ndjson, apierr *err);

/* Makes a match feed carry the talk reader may read, when reader (a
 * player id) holds a seat of the match; otherwise the feed stays as it is,
 * the public events alone. talk_after is the message id the resume point
 * named ("seq:message"), or NULL: then the talk resumes after the messages
 * written before event `after` (stream_feed_open). False with err filled:
 * 400 when talk_after is not a number. */
bool stream_feed_with_talk(stream_feed *feed, long long reader,
                           const char *talk_after, apierr *err);

void stream_feed_free(stream_feed *feed);

/* Appends the next items to the feed's output (stream_feed_output), as
 * they stood at hub generation news or later (streams_hub_take); *more
 * tells whether a whole batch was read, so more may be waiting. False
 * with err filled when the database failed.
 *
 * The streams of one match all want the same new events: the latest
 * events of the busiest matches are kept in memory (STREAM_FEED_CACHED
 * matches, STREAM_FEED_CACHED_EVENTS each), with the hub generation their
 * read began at, so one read of the database serves every stream woken by
 * the same news. */
bool stream_feed_read(stream_feed *feed, unsigned long long news, bool *more,
                      apierr *err);

/* Appends a heartbeat to the output. */
void stream_feed_heartbeat(stream_feed *feed);

/* The output not yet sent, and its length. */
const char *stream_feed_output(const stream_feed *feed, size_t *len);

/* Marks n bytes of the output as sent. */
void stream_feed_sent(stream_feed *feed, size_t n);

#endif
