/* messages.h: talk at the table. A seated player writes to everyone at
 * the table or privately to one seat (POST /v1/matches/{id}/messages);
 * each reader gets what they may read (GET …/messages): a seat the public
 * messages and the private ones it wrote or was written, a spectator the
 * public ones of a finished match only, nobody what a player they muted
 * wrote. Messages are not events: they do not join the hash chain, and
 * are kept beside the log with the head they were written at
 * (migrations/019_match_messages.sql).
 *
 * A message is 1 to MESSAGES_MAX_CHARS characters of UTF-8 once white
 * space at either end is dropped; line breaks and tabs are its only
 * control characters, and it carries no bidi control (which would make a
 * line read otherwise than it is). A seat writes at most
 * PBEM_MESSAGES_PER_HOUR messages an hour. A refusal stores nothing.
 *
 * Each message goes at once to the event streams (stream_feed.h) of the
 * players who may read it, as a "match.message" item, and to the signed
 * match streams of the seats that may read it (which read it from the
 * table, woken by migrations/025_match_stream_talk.sql); the players' mail
 * carries it in their next mail about the match (notify/table_talk.h). */
#ifndef SERVICE_PLAY_MESSAGES_H
#define SERVICE_PLAY_MESSAGES_H

#include <jansson.h>
#include <stdbool.h>

#include "auth/caller.h"
#include "core/apierr.h"
#include "store/matches.h"

#define MESSAGES_MAX_CHARS 1000
/* The most a read returns at a time. */
#define MESSAGES_PAGE_MAX 200

/* Stores the message body asks for ({"text": "...", "to": seat}, "to"
 * optional) from who's seat and commits it with who's nonce (retry.h).
 * {"message": {...}} (new reference), or NULL with err filled: 400 bad
 * body, 403 not seated, 404 no match, 409 the match is over, 422 the text
 * or the seat refused, 429 too many messages (with retry_after). */
json_t *messages_post(const caller *who, long long match_id, const json_t *body,
                      apierr *err);

/* {"messages": [...], "last": id} (new reference): up to limit messages
 * after id after as who (NULL: a spectator) may read them; NULL with err
 * filled: 404, 403 a spectator while the match is not over. */
json_t *messages_read(const caller *who, long long match_id, long long after,
                      int limit, apierr *err);

/* Up to limit messages of match (borrowed) after id after, oldest first,
 * as the reader at seat (-1: a spectator) may read them, none written by a
 * player reader (0: nobody) muted: a new array of messages as GET
 * …/messages gives them, with the last one's id in *last (after when
 * none). NULL with err filled. Who may read at all is the caller's
 * question (messages_match_over). */
json_t *messages_readable(PGconn *conn, const store_match *match, int seat,
                          long long reader, long long after, int limit,
                          long long *last, apierr *err);

/* One message (borrowed, as messages_readable gives it) of match as an
 * item of an event stream (a MessageStreamItem: {"type": "match.message",
 * "timestamp": its time, "data": {"type", "match", "seq", "message"}}), the
 * same on the player's stream and the match's: a new reference. */
json_t *messages_stream_item(const store_match *match, const json_t *message);

/* Whether match is over: finished, or aborted by an admin. Its table takes
 * no more messages, and its public talk is for anyone to read. */
bool messages_match_over(const store_match *match);

/* The messages to everyone of match written at head seq, as an array
 * (new reference) for a finished match's replay; NULL with err filled. */
json_t *messages_public_at(PGconn *conn, const store_match *match,
                           long long seq, apierr *err);

/* who mutes (muted true) or unmutes the player holding seat of match_id,
 * in every match: {"seat", "muted"}; NULL with err filled (403 not
 * seated, 422 no such seat or their own). */
json_t *messages_mute(const caller *who, long long match_id, int seat,
                      bool muted, apierr *err);

/* Whether text is a message people may read as it is: NULL when it is,
 * else the sentence saying why not (static). Does not trim. */
const char *messages_refusal(const char *text);

#endif
