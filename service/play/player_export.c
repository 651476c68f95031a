/* player_export.c: see player_export.h. */
#include "play/player_export.h"

#include <stdlib.h>

#include "play/event_log.h"
#include "play/matches.h"
#include "play/messages.h"
#include "play/request.h"
#include "store/db.h"
#include "store/events.h"
#include "store/matches.h"

/* Events are read this many at a time. */
#define EXPORT_EVENTS_PAGE 500

/* The public log of match up to its head (later events, appended while
 * the export is read, are left for the next one): a new array, or NULL
 * with err filled. */
static json_t *public_log(PGconn *conn, const store_match *match, apierr *err)
{
    json_t *log = json_array();
    long long after = 0;
    while (after < match->head_seq) {
        json_t *page = store_events_after(conn, match->match_id, after,
                                          EXPORT_EVENTS_PAGE, err);
        if (page == NULL ||
            !event_log_annotate(conn, match->match_id, page, err)) {
            json_decref(page);
            json_decref(log);
            return NULL;
        }
        size_t i;
        json_t *event;
        json_array_foreach(page, i, event)
        {
            long long seq =
                (long long)json_integer_value(json_object_get(event, "seq"));
            if (seq > match->head_seq)
                break;
            json_array_append(log, event);
            after = seq;
        }
        size_t count = json_array_size(page);
        json_decref(page);
        if (count < EXPORT_EVENTS_PAGE)
            break;
    }
    return log;
}

/* Every message the reader at seat (-1: a spectator) may read: a new
 * array, or NULL with err filled. */
static json_t *talk(PGconn *conn, const store_match *match, int seat,
                    long long reader, apierr *err)
{
    json_t *all = json_array();
    long long after = 0;
    for (;;) {
        long long last;
        json_t *page = messages_readable(conn, match, seat, reader, after,
                                         MESSAGES_PAGE_MAX, &last, err);
        if (page == NULL) {
            json_decref(all);
            return NULL;
        }
        size_t count = json_array_size(page);
        json_array_extend(all, page);
        json_decref(page);
        if (count < MESSAGES_PAGE_MAX)
            return all;
        after = last;
    }
}

json_t *player_export_match(const caller *who, long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    store_match match;
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    long long reader = who != NULL ? who->player_id : 0;
    int seat = reader != 0 ? request_seat_of(&match, reader) : -1;
    json_t *answer = NULL, *shown = NULL, *log = NULL, *said = NULL;
    json_t *view = NULL;
    if (seat < 0 && !messages_match_over(&match)) {
        apierr_set(err, 403, "not_seated",
                   "the match is not over: its export is for its players "
                   "until then (its public log is GET "
                   "/v1/matches/m_%lld/events)",
                   match_id);
        goto done;
    }
    shown = matches_public(match_id, err);
    if (shown != NULL)
        log = public_log(conn, &match, err);
    if (log != NULL)
        said = talk(conn, &match, seat, seat >= 0 ? reader : 0, err);
    if (said != NULL && seat >= 0)
        view = matches_seat_view(who, match_id, err);
    if (said == NULL || (seat >= 0 && view == NULL))
        goto done;
    answer = json_pack(
        "{s:s,s:O,s:o,s:I,s:O,s:O}", "format", PLAYER_EXPORT_FORMAT, "match",
        shown, "seat", seat >= 0 ? json_integer(seat) : json_null(), "head",
        (json_int_t)match.head_seq, "events", log, "messages", said);
    if (answer == NULL)
        abort();
    if (view != NULL)
        json_object_set(answer, "view", view);
done:
    json_decref(shown);
    json_decref(log);
    json_decref(said);
    json_decref(view);
    store_match_free(&match);
    return answer;
}
