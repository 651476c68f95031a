/* event_log.c: see event_log.h. */
#include "play/event_log.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/metrics.h"
#include "play/event_tell.h"
#include "play/matchstate.h"
#include "play/told_cache.h"
#include "store/db.h"
#include "store/event_texts.h"
#include "store/events.h"

static void names_of(const store_match *match, const char **names)
{
    for (int s = 0; s < match->seat_count && s < STORE_MAX_SEATS; s++)
        names[s] = match->seat_name[s];
}

/* Tells events (count of them, from seq first_seq on) into rows, starting
 * from state (owned, may be NULL: read when an event needs it). A rewind
 * changes the state without an action: it is read again after it. A state
 * that cannot be had (a log this build cannot replay) never stops the
 * telling, nor the append it is part of: the moves are then told by their
 * notation. */
static void tell_all(PGconn *conn, const store_match *match,
                     const rules_engine *engine, rules_state *state,
                     const json_t *const *events, int count,
                     long long first_seq, json_t *rows)
{
    const char *names[STORE_MAX_SEATS] = {0};
    names_of(match, names);
    bool stateless = engine == NULL || !matchstate_has_state(match);
    for (int i = 0; i < count; i++) {
        long long seq = first_seq + i;
        const json_t *event = events[i];
        if (state == NULL && !stateless && seq > 1 &&
            event_tell_needs_state(event)) {
            apierr err;
            state = matchstate_at(conn, match, engine, seq - 1, &err);
            if (state == NULL) {
                log_warn("match %lld: event %lld told by its notation: %s",
                         match->match_id, seq, err.message);
                stateless = true;
            }
        }
        event_tell(engine, state, event, seq, names, match->seat_count, rows);
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (state != NULL && kind != NULL && strcmp(kind, "rewound") == 0) {
            engine->destroy(state);
            state = NULL;
        }
    }
    if (state != NULL)
        engine->destroy(state);
}

bool event_log_append(PGconn *conn, const store_match *match,
                      const rules_engine *engine, const rules_state *before,
                      json_t *const *events, int count, long long first_seq,
                      apierr *err)
{
    json_t *rows = json_array();
    rules_state *state =
        before != NULL && engine != NULL ? engine->clone(before) : NULL;
    tell_all(conn, match, engine, state, (const json_t *const *)events, count,
             first_seq, rows);
    bool ok = store_event_texts_save(conn, match->match_id, rows, err);
    /* Kept for the views once the commit is known (event_log_committed). */
    if (ok && count > 0)
        told_cache_stage(match->match_id, first_seq, events, count, rows,
                         match->head_hash);
    json_decref(rows);
    return ok;
}

void event_log_committed(const store_match *match)
{
    told_cache_commit(match->match_id, match->head_seq, match->head_hash);
}

/* Tells events after < seq <= upto from the log and keeps them (those
 * kept already stay as they were). */
static bool tell_again(PGconn *conn, const store_match *match,
                       const rules_engine *engine, long long after,
                       long long upto, apierr *err)
{
    json_t *events = store_events_after(conn, match->match_id, after,
                                        (int)(upto - after), err);
    if (events == NULL)
        return false;
    size_t count = json_array_size(events);
    const json_t **list = calloc(count + 1, sizeof *list);
    if (list == NULL)
        abort();
    for (size_t i = 0; i < count; i++)
        list[i] = json_array_get(events, i);
    json_t *rows = json_array();
    tell_all(conn, match, engine, NULL, list, (int)count, after + 1, rows);
    bool ok = store_event_texts_save(conn, match->match_id, rows, err);
    json_decref(rows);
    free(list);
    json_decref(events);
    return ok;
}

/* The first seq after `after` missing from told (rows in seq order), or
 * upto + 1 when none is. */
static long long first_missing(const json_t *told, long long after,
                               long long upto)
{
    long long expect = after + 1;
    size_t i;
    const json_t *row;
    json_array_foreach(told, i, row)
    {
        if (json_integer_value(json_object_get(row, "seq")) != expect)
            return expect;
        expect++;
    }
    return expect <= upto ? expect : upto + 1;
}

/* A seat's view from what this process keeps (play/told_cache.h),
 * reading only what it lacks: the events after the last kept, or the
 * whole window when nothing near is kept. NULL when that cannot be had:
 * the caller reads as it always did. */
static json_t *told_kept(PGconn *conn, const store_match *match, int seat,
                         long long after, long long *acted)
{
    long long id = match->match_id, head = match->head_seq;
    json_t *told =
        told_cache_told(id, head, match->head_hash, seat, after, acted);
    /* A read inside a transaction may see rows that never commit. */
    if (told != NULL || db_in_transaction(conn))
        return told;
    long long upto = told_cache_upto(id);
    bool extend = upto >= after && upto < head;
    if (upto >= head)
        return NULL;
    long long seats_acted[STORE_MAX_SEATS];
    int seats = extend ? 0 : match->seat_count;
    long long from = extend ? upto : after;
    apierr err;
    json_t *rows = store_event_texts_window(conn, id, from, head, seats,
                                            seats_acted, &err);
    if (rows == NULL)
        return NULL;
    metrics_event_texts_read((long long)json_array_size(rows));
    told_cache_put(id, from, head, match->head_hash, rows, seats,
                   extend ? NULL : seats_acted);
    json_decref(rows);
    return told_cache_told(id, head, match->head_hash, seat, after, acted);
}

/* event_log_told, and with acted non-NULL (viewer a seat) also the seat's
 * last action, read with the first sentences (event_log_told_acted). */
static json_t *told_to(PGconn *conn, const store_match *match,
                       const rules_engine *engine, int viewer, long long after,
                       long long upto, long long *acted, apierr *err)
{
    if (after < 0)
        after = 0;
    if (upto > match->head_seq)
        upto = match->head_seq;
    int reader = viewer < 0 ? STORE_EVENT_TEXTS_PUBLIC : viewer;
    if (acted != NULL && viewer >= 0 && upto == match->head_seq &&
        match->head_seq - after <= TOLD_CACHE_KEPT) {
        json_t *kept = told_kept(conn, match, viewer, after, acted);
        if (kept != NULL)
            return kept;
    }
    json_t *told = acted != NULL && viewer >= 0
                       ? store_event_texts_told_acted(conn, match->match_id,
                                                      viewer, after, upto,
                                                      acted, err)
                       : store_event_texts_told(conn, match->match_id, reader,
                                                after, upto, err);
    if (told == NULL)
        return NULL;
    metrics_event_texts_read((long long)json_array_size(told));
    long long missing = first_missing(told, after, upto);
    if (missing > upto)
        return told;
    json_decref(told);
    if (!tell_again(conn, match, engine, missing - 1, upto, err))
        return NULL;
    return store_event_texts_told(conn, match->match_id, reader, after, upto,
                                  err);
}

json_t *event_log_told(PGconn *conn, const store_match *match,
                       const rules_engine *engine, int viewer, long long after,
                       long long upto, apierr *err)
{
    return told_to(conn, match, engine, viewer, after, upto, NULL, err);
}

json_t *event_log_told_acted(PGconn *conn, const store_match *match,
                             const rules_engine *engine, int seat,
                             long long after, long long upto, long long *acted,
                             apierr *err)
{
    return told_to(conn, match, engine, seat, after, upto, acted, err);
}

bool event_log_annotate(PGconn *conn, long long match_id, json_t *events,
                        apierr *err)
{
    size_t count = json_array_size(events);
    if (count == 0)
        return true;
    long long first = (long long)json_integer_value(
        json_object_get(json_array_get(events, 0), "seq"));
    long long last = first + (long long)count - 1;
    json_t *told = store_event_texts_told(
        conn, match_id, STORE_EVENT_TEXTS_PUBLIC, first - 1, last, err);
    if (told == NULL)
        return false;
    if (first_missing(told, first - 1, last) <= last) {
        json_decref(told);
        store_match match;
        if (!store_load_match(conn, match_id, &match, err))
            return false;
        apierr ignored;
        const rules_engine *engine = matchstate_engine(&match, &ignored);
        told = event_log_told(conn, &match, engine, RULES_SPECTATOR, first - 1,
                              last, err);
        store_match_free(&match);
        /* The log itself was read: it is served, told or not. */
        if (told == NULL) {
            log_warn("match %lld: events %lld to %lld not told: %s", match_id,
                     first, last, err->message);
            return true;
        }
    }
    size_t i;
    const json_t *row;
    json_array_foreach(told, i, row)
    {
        long long seq =
            (long long)json_integer_value(json_object_get(row, "seq"));
        json_t *event = json_array_get(events, (size_t)(seq - first));
        if (event != NULL)
            json_object_set(event, "text", json_object_get(row, "text"));
    }
    json_decref(told);
    return true;
}
