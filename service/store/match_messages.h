/* match_messages.h: the messages players write at a match's table, the
 * mutes between players and how far each player's mail has carried a
 * match's messages (migrations/019_match_messages.sql), as stored.
 * play/messages.h decides who may write and read what; this module keeps
 * the rows and reads them for one reader. */
#ifndef SERVICE_STORE_MATCH_MESSAGES_H
#define SERVICE_STORE_MATCH_MESSAGES_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* A message to be stored; to_seat -1 is everyone at the table. */
typedef struct store_message {
    long long match_id;
    long long seq; /* the head of the log it is written at */
    int from_seat;
    long long from_player;
    int to_seat;
    const char *text;    /* borrowed */
    const char *request; /* JSON text kept with it (borrowed), or NULL */
} store_message;

/* Inserts message under the match's next message id (its row lock held
 * until the caller's transaction ends, so ids appear in order, and the
 * match's messages are written one at a time), which is written to
 * *message_id, and its time (RFC 3339, UTC) to at. False with err
 * filled. */
bool store_messages_insert(PGconn *conn, const store_message *message,
                           long long *message_id, char at[32], apierr *err);

/* How many messages seat of match_id wrote in the last seconds; -1 with
 * err filled. Also the seconds until the oldest of them leaves that
 * window, into *oldest_leaves (0 when there is none). */
int store_messages_recent(PGconn *conn, long long match_id, int seat,
                          int seconds, long long *oldest_leaves, apierr *err);

/* The columns of store_messages_read's rows, in this order. */
enum {
    STORE_MESSAGE_ID,
    STORE_MESSAGE_SEQ,
    STORE_MESSAGE_FROM_SEAT,
    STORE_MESSAGE_TO_SEAT, /* NULL: everyone */
    STORE_MESSAGE_TEXT,
    STORE_MESSAGE_CREATED, /* RFC 3339, UTC */
};

/* Up to limit messages of match_id after message id after, oldest first,
 * as reader sees them: seat -1 (a spectator) only the public ones, a seat
 * the public ones and the private ones it wrote or was written; none
 * written by a player reader_player muted (0: nobody's mutes). The caller
 * PQclears; NULL with err filled. */
PGresult *store_messages_read(PGconn *conn, long long match_id, int seat,
                              long long reader_player, long long after,
                              int limit, apierr *err);

/* Up to limit messages to everyone of match_id written at head seq (after
 * event seq, before the next), oldest first, in the columns above. The
 * caller PQclears; NULL with err filled. */
PGresult *store_messages_public_at(PGconn *conn, long long match_id,
                                   long long seq, int limit, apierr *err);

/* The id of the last message of match_id written before event seq was
 * appended (at a head below seq), 0 when none, into *message_id: where a
 * stream resumed after event seq stands in the talk. False with err
 * filled. */
bool store_messages_before(PGconn *conn, long long match_id, long long seq,
                           long long *message_id, apierr *err);

/* The same for the reader's next mail: the messages after the last one
 * mailed to reader_player about match_id, not written by seat itself. */
PGresult *store_messages_unmailed(PGconn *conn, long long match_id, int seat,
                                  long long reader_player, int limit,
                                  apierr *err);

/* Records that reader_player's mail about match_id has carried the
 * messages up to through. False with err filled. */
bool store_messages_mailed(PGconn *conn, long long match_id,
                           long long reader_player, long long through,
                           apierr *err);

/* Whether player_id has muted other into *muted. False with err filled. */
bool store_mutes_get(PGconn *conn, long long player_id, long long other,
                     bool *muted, apierr *err);

/* Mutes (muted true) or unmutes other for player_id; harmless to repeat.
 * False with err filled. */
bool store_mutes_set(PGconn *conn, long long player_id, long long other,
                     bool muted, apierr *err);

#endif
