/* event_texts.h: a match's events told as sentences, each to the public
 * and, where it reads otherwise, to a seat (migrations/017_event_texts.sql).
 * The rows are derived from the log (play/event_log.h tells them); this
 * module only keeps and reads them. A reader names the seat it reads for
 * and gets that seat's own sentence or the public one, never another
 * seat's. */
#ifndef SERVICE_STORE_EVENT_TEXTS_H
#define SERVICE_STORE_EVENT_TEXTS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* The public reader's seat. */
#define STORE_EVENT_TEXTS_PUBLIC (-1)

/* Keeps rows (borrowed), a JSON array of {"seq", "viewer" (-1: public),
 * "seat" (who acted, or null), "text"}, for match_id; rows already kept
 * stay as they are. Queued in the caller's transaction (db_queue), run at
 * once outside one. False with err filled. */
bool store_event_texts_save(PGconn *conn, long long match_id,
                            const json_t *rows, apierr *err);

/* The sentences of match_id's events with after < seq <= upto, told to
 * viewer (a seat, or STORE_EVENT_TEXTS_PUBLIC), oldest first: a new array
 * of {"seq", "seat" (null for the service's own events), "text"}. An
 * event with no row yet is missing from it. NULL with err filled. */
json_t *store_event_texts_told(PGconn *conn, long long match_id, int viewer,
                               long long after, long long upto, apierr *err);

/* store_event_texts_told for viewer (a seat) and, in the same read,
 * *acted: the seq of that seat's own last action (a move, or its sealed
 * choice committed or revealed), 0 when it has none. A seat's view needs
 * both, and each read is a round trip that wakes a backend: two of them
 * were most of PostgreSQL's time per move (docs/benchmarks.md). */
json_t *store_event_texts_told_acted(PGconn *conn, long long match_id,
                                     int viewer, long long after,
                                     long long upto, long long *acted,
                                     apierr *err);

/* Every reader's sentences of match_id's events with after < seq <= upto,
 * for a process that keeps them for all its readers (play/told_cache.h):
 * a new array, by seq then viewer, of {"seq", "viewer" (-1: public),
 * "seat" (who acted, or null), "text", "acts": whether the event is its
 * seat's own action as store_event_texts_told_acted counts one}. With
 * seats > 0, acted[s] (s < seats) is also filled, in the same read: the
 * seq of seat s's last action at or before after, 0 when none. An event
 * with no row yet is missing from it. NULL with err filled. */
json_t *store_event_texts_window(PGconn *conn, long long match_id,
                                 long long after, long long upto, int seats,
                                 long long *acted, apierr *err);

/* What happened in match_id since seat last acted (a move, or its
 * sealed choice committed or revealed), told to seat, oldest first, at
 * most the limit latest: a PGresult of rows (seat or
 * NULL, kind, the move's notation or NULL, the sentence or NULL when none
 * is kept yet). Reveals are left out: the decision they lead to tells
 * them. The caller PQclears it; NULL with err filled. */
PGresult *store_event_texts_since_seat_acted(PGconn *conn, long long match_id,
                                             int seat, int limit, apierr *err);

#endif
