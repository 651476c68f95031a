/* event_log.h: a match's events told as sentences (play/event_tell.h),
 * kept beside the log (store/event_texts.h) so that reading them costs a
 * read, not a replay. Each event is told when it is appended, from the
 * states before and after it; an event appended before sentences were
 * kept is told from the log the first time it is read. A reader gets the
 * sentences told to the public or to one seat, never another seat's. */
#ifndef SERVICE_PLAY_EVENT_LOG_H
#define SERVICE_PLAY_EVENT_LOG_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "rules.h"
#include "store/matches.h"

/* A seat's view tells at most this many of the latest events. */
#define EVENT_LOG_VIEW_MAX 200

/* Tells the count events (borrowed) just appended to match as seq
 * first_seq on, and queues their sentences in the caller's transaction.
 * before is the rules state before them (borrowed), or NULL: then it is
 * read at first_seq - 1 if an event needs it. engine may be NULL (a match
 * this build cannot play: moves are told by their notation). False with
 * err filled. */
bool event_log_append(PGconn *conn, const store_match *match,
                      const rules_engine *engine, const rules_state *before,
                      json_t *const *events, int count, long long first_seq,
                      apierr *err);

/* The commit of the change that moved match to its head is known to have
 * succeeded: the sentences event_log_append told for it are kept in this
 * process for the views (play/told_cache.h). Before, they are not: a
 * transaction rolled back must not be told. */
void event_log_committed(const store_match *match);

/* The sentences of match's events after < seq <= upto told to viewer (a
 * seat, or RULES_SPECTATOR), oldest first: a new array of {"seq", "seat"
 * (who acted, or null), "text"}. engine may be NULL. NULL with err
 * filled. */
json_t *event_log_told(PGconn *conn, const store_match *match,
                       const rules_engine *engine, int viewer, long long after,
                       long long upto, apierr *err);

/* event_log_told for a seat, and *acted: the seq of that seat's own last
 * action (0 when none), read in the same round trip. */
json_t *event_log_told_acted(PGconn *conn, const store_match *match,
                             const rules_engine *engine, int seat,
                             long long after, long long upto, long long *acted,
                             apierr *err);

/* Sets "text", the public sentence, on each event of events (borrowed: an
 * array as store_events_after gives it, oldest first, without gaps) of
 * match_id. Events that cannot be told now (their sentences were never
 * kept and keeping them fails) are left without. False with err filled
 * when the kept sentences cannot be read. */
bool event_log_annotate(PGconn *conn, long long match_id, json_t *events,
                        apierr *err);

#endif
