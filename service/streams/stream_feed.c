/* stream_feed.c */
#include "streams/stream_feed.h"

#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "notify/notify_outbox.h"
#include "play/event_log.h"
#include "play/matchstate.h"
#include "play/messages.h"
#include "play/request.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/events.h"
#include "store/match_messages.h"
#include "store/matches.h"
#include "store/player_stream.h"
#include "store/reachability.h"
#include "store/store.h"

struct stream_feed {
    streams_topic topic;
    long long id;
    long long after;   /* the last item sent (or about to be) */
    bool ndjson;
    bool waiting_due;  /* a player stream's waiting matches come first */
    char *out;         /* output not yet sent: out[sent..len) */
    size_t len, sent, size;
    /* A match stream with talk (stream_feed_with_talk): the seat it reads
     * for (-1 once its player no longer holds it), its player (whose mutes
     * apply), the match as it stood at the last event read (who sits
     * where, by name), the last message sent, and the events of the
     * current read, held to be sent among the messages. The match is
     * allocated for such a stream alone: at 1.6 KiB it was most of an idle
     * spectator's stream. */
    bool talk;
    int seat;
    long long reader;
    store_match *match;
    long long talk_after;
    json_t *held;
};

static void append(stream_feed *feed, const char *text, size_t n)
{
    if (feed->sent > 0 && feed->sent == feed->len)
        feed->sent = feed->len = 0;
    if (feed->len + n + 1 > feed->size) {
        size_t size = feed->size ? feed->size : 4096;
        while (size < feed->len + n + 1)
            size *= 2;
        char *grown = realloc(feed->out, size);
        if (grown == NULL)
            abort();
        feed->out = grown;
        feed->size = size;
    }
    memcpy(feed->out + feed->len, text, n);
    feed->len += n;
    feed->out[feed->len] = '\0';
}

static void append_text(stream_feed *feed, const char *text)
{
    append(feed, text, strlen(text));
}

/* One item: JSON text with its id (NULL: none). */
static void item_with_id(stream_feed *feed, const char *text, const char *id)
{
    if (feed->ndjson) {
        append_text(feed, text);
        append_text(feed, "\n");
        return;
    }
    if (id != NULL) {
        append_text(feed, "id: ");
        append_text(feed, id);
        append_text(feed, "\n");
    }
    /* Compact JSON holds no newline, so one data line holds it. */
    append_text(feed, "data: ");
    append_text(feed, text);
    append_text(feed, "\n\n");
}

/* One item: JSON text with its id, or with none when id < 0. */
static void item_text(stream_feed *feed, const char *text, long long id)
{
    char head[24];
    snprintf(head, sizeof head, "%lld", id);
    item_with_id(feed, text, id >= 0 ? head : NULL);
}

/* A match event: sent at once, or held to go among the messages of a
 * stream with talk (talk_items). */
static void event_item(stream_feed *feed, const char *text, long long seq)
{
    if (!feed->talk) {
        item_text(feed, text, seq);
        return;
    }
    json_t *pair = json_pack("{s:I,s:s}", "seq", (json_int_t)seq, "text", text);
    if (pair == NULL)
        abort();
    json_array_append_new(feed->held, pair);
}

static char *json_text(const json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS);
    if (text == NULL)
        abort();
    return text;
}

/* One item: value (borrowed) with its id, or with none when id < 0. A
 * player's NDJSON line carries its id as "stream_id" (a match event has
 * its seq already). */
static void item(stream_feed *feed, json_t *value, long long id)
{
    if (feed->ndjson && feed->topic == STREAMS_PLAYER && id >= 0)
        json_object_set_new(value, "stream_id", json_integer(id));
    char *text = json_text(value);
    item_text(feed, text, id);
    free(text);
}

/* One match's latest events as JSON texts in seq order, texts[i] being
 * event lo + i (none when hi < lo): every event after lo - 1 committed
 * by the time the hub stood at generation `since`. Events never change
 * once appended, so a range only grows (and is trimmed at the front). */
typedef struct cached_match {
    long long match_id; /* 0: a free slot */
    unsigned long long since;
    long long lo, hi;
    char **texts;
    size_t size;
    unsigned long long used; /* the least recently used slot goes first */
} cached_match;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cached_match cache[STREAM_FEED_CACHED];
static unsigned long long cache_clock;

/* The slot of match_id, or NULL. Under the lock. */
static cached_match *cache_find(long long match_id)
{
    for (int i = 0; i < STREAM_FEED_CACHED; i++)
        if (cache[i].match_id == match_id)
            return &cache[i];
    return NULL;
}

static void cache_push(cached_match *c, const char *text)
{
    size_t count = (size_t)(c->hi - c->lo + 1);
    if (count + 1 > c->size) {
        size_t size = c->size ? 2 * c->size : 16;
        char **grown = realloc(c->texts, size * sizeof *grown);
        if (grown == NULL)
            abort();
        c->texts = grown;
        c->size = size;
    }
    c->texts[count] = strdup(text);
    if (c->texts[count] == NULL)
        abort();
    c->hi++;
}

/* Appends the events after feed->after from the cache, when it holds them
 * as of generation news or later. Under the lock. */
static bool from_cache(stream_feed *feed, unsigned long long news, bool *more)
{
    cached_match *c = cache_find(feed->id);
    if (c == NULL || c->since < news || feed->after + 1 < c->lo ||
        feed->after > c->hi)
        return false;
    c->used = ++cache_clock;
    int n = 0;
    while (feed->after < c->hi && n < STREAM_FEED_BATCH) {
        feed->after++;
        event_item(feed, c->texts[feed->after - c->lo], feed->after);
        n++;
    }
    *more = feed->after < c->hi;
    return true;
}

/* Keeps texts (n events from seq after + 1, every event committed when
 * the read began at generation since). Under the lock. */
static void cache_keep(long long match_id, long long after, char *const *texts,
                       int n, unsigned long long since)
{
    cached_match *c = cache_find(match_id);
    if (c == NULL || after + 1 < c->lo || after > c->hi) {
        if (c == NULL) {
            c = &cache[0];
            for (int i = 1; i < STREAM_FEED_CACHED; i++)
                if (cache[i].used < c->used)
                    c = &cache[i];
        }
        for (long long i = 0; c->match_id != 0 && i < c->hi - c->lo + 1; i++)
            free(c->texts[i]);
        c->match_id = match_id;
        c->lo = after + 1;
        c->hi = after;
        c->since = since;
    }
    for (int i = 0; i < n; i++)
        if (after + 1 + i > c->hi)
            cache_push(c, texts[i]);
    if (since > c->since)
        c->since = since;
    long long extra = c->hi - c->lo + 1 - STREAM_FEED_CACHED_EVENTS;
    if (extra > 0) {
        for (long long i = 0; i < extra; i++)
            free(c->texts[i]);
        memmove(c->texts, c->texts + extra,
                (size_t)(c->hi - c->lo + 1 - extra) * sizeof *c->texts);
        c->lo += extra;
    }
    c->used = ++cache_clock;
}

/* The player's stream head, made on the first stream: from then on the
 * outbox queues their notifications into player_stream too. */
static bool player_head(PGconn *conn, long long player_id, long long *last,
                        apierr *err)
{
    if (!store_player_stream_head(conn, player_id, last, err))
        return false;
    /* A first stream makes its player reachable. */
    store_reachability_changed();
    return true;
}

/* Whether the items after `after` are all still kept (ids run without a
 * gap, so the oldest one kept says it): 410 when some were pruned. */
static bool still_kept(PGconn *conn, long long player_id, long long after,
                       long long last, apierr *err)
{
    long long oldest;
    bool any;
    if (!store_player_stream_oldest(conn, player_id, &oldest, &any, err))
        return false;
    if (!any)
        oldest = last + 1;
    if (after + 1 < oldest)
        return apierr_set(err, 410, "stream_expired",
                          "the notifications after %lld are no longer kept "
                          "(only those of the last PBEM_STREAM_KEEP_HOURS); "
                          "open the stream without Last-Event-ID to start "
                          "from the matches waiting for you",
                          after);
    return true;
}

stream_feed *stream_feed_open(streams_topic topic, long long id,
                              long long after, bool ndjson, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    long long last = 0;
    if (topic == STREAMS_MATCH) {
        if (!store_load_head(conn, id, &last, NULL, err))
            return NULL;
    } else if (!player_head(conn, id, &last, err)) {
        return NULL;
    }
    if (after > last)
        return apierr_set(err, 400, "bad_last_event_id",
                          "Last-Event-ID (or after) %lld is past the last "
                          "event, %lld: resume from an id this stream sent",
                          after, last),
               NULL;
    if (topic == STREAMS_PLAYER && after >= 0 && after < last &&
        !still_kept(conn, id, after, last, err))
        return NULL;
    stream_feed *feed = calloc(1, sizeof *feed);
    if (feed == NULL)
        abort();
    feed->topic = topic;
    feed->id = id;
    feed->ndjson = ndjson;
    feed->after = after >= 0 ? after : topic == STREAMS_PLAYER ? last : 0;
    feed->waiting_due = topic == STREAMS_PLAYER && after < 0;
    return feed;
}

bool stream_feed_with_talk(stream_feed *feed, long long reader,
                           const char *talk_after, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    store_match match;
    if (!store_load_match(conn, feed->id, &match, err))
        return false;
    int seat = request_seat_of(&match, reader);
    if (seat < 0) {
        /* Not at the table: the public events only, as unsigned. */
        store_match_free(&match);
        return true;
    }
    long long position = 0;
    if (talk_after != NULL) {
        char *end = NULL;
        position = strtoll(talk_after, &end, 10);
        if (*talk_after < '0' || *talk_after > '9' || *end != '\0')
            position = -1;
    } else if (feed->after > 0 &&
               !store_messages_before(conn, feed->id, feed->after, &position,
                                      err)) {
        store_match_free(&match);
        return false;
    }
    if (position < 0) {
        store_match_free(&match);
        return apierr_set(err, 400, "bad_last_event_id",
                          "Last-Event-ID (or after) must be an id this "
                          "stream sent: a seq, or seq:message");
    }
    feed->talk = true;
    feed->seat = seat;
    feed->reader = reader;
    feed->match = malloc(sizeof *feed->match);
    if (feed->match == NULL)
        abort();
    *feed->match = match;
    feed->talk_after = position;
    feed->held = json_array();
    return true;
}

void stream_feed_free(stream_feed *feed)
{
    if (feed == NULL)
        return;
    if (feed->talk) {
        store_match_free(feed->match);
        free(feed->match);
        json_decref(feed->held);
    }
    free(feed->out);
    free(feed);
}

/* The "your turn" payload of one match of the player, when it waits for
 * them (NULL otherwise, or on error with err->status set). */
static json_t *waiting_payload(PGconn *conn, long long match_id, int seat,
                               apierr *err)
{
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *payload = NULL;
    const rules_engine *engine = matchstate_engine(&match, err);
    rules_state *state =
        engine != NULL && matchstate_has_state(&match)
            ? matchstate_load(conn, &match, engine, err)
            : NULL;
    if (state != NULL) {
        rules_pending pending;
        engine->pending(state, &pending);
        if (pending.wait != RULES_WAIT_NOBODY &&
            (pending.seats & (1u << seat)))
            payload = notify_outbox_turn_payload(conn, &match, engine, state,
                                                 seat, err);
        engine->destroy(state);
    }
    store_match_free(&match);
    return payload;
}

/* A payload (stolen) in the envelope of a webhook delivery (notify.c):
 * {"type", "timestamp", "data"}, the timestamp being now. */
static json_t *envelope(json_t *payload)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm utc;
    gmtime_r(&now.tv_sec, &utc);
    char stamp[24], at[64];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
    snprintf(at, sizeof at, "%s.%06ldZ", stamp, now.tv_nsec / 1000);
    const char *type = json_string_value(json_object_get(payload, "type"));
    json_t *out = json_pack("{s:s,s:s,s:o}", "type",
                            type ? type : "match.notification", "timestamp",
                            at, "data", payload);
    if (out == NULL)
        abort();
    return out;
}

/* The matches waiting for the player, oldest change first; the last item
 * carries the id the live part starts after. */
static bool waiting(stream_feed *feed, PGconn *conn, apierr *err)
{
    store_seat_ref seats[STREAM_FEED_WAITING_MAX];
    int count = store_seats_in_play(conn, feed->id, STREAM_FEED_WAITING_MAX,
                                    seats, err);
    if (count < 0)
        return false;
    json_t *found = json_array();
    for (int i = 0; i < count; i++) {
        apierr one = {0};
        json_t *payload =
            waiting_payload(conn, seats[i].match_id, seats[i].seat, &one);
        /* A match this build cannot replay is left out, not fatal. */
        if (payload != NULL)
            json_array_append_new(found, envelope(payload));
    }
    size_t n = json_array_size(found);
    for (size_t i = 0; i < n; i++)
        item(feed, json_array_get(found, i),
             i + 1 == n ? feed->after : -1);
    json_decref(found);
    return true;
}

static bool match_events(stream_feed *feed, PGconn *conn,
                         unsigned long long news, bool *more, apierr *err)
{
    pthread_mutex_lock(&cache_lock);
    bool served = from_cache(feed, news, more);
    pthread_mutex_unlock(&cache_lock);
    if (served)
        return true;
    /* Before the read: it holds whatever was announced by then. */
    unsigned long long since = streams_hub_generation();
    long long after = feed->after;
    json_t *events = store_events_after(conn, feed->id, after,
                                        STREAM_FEED_BATCH, err);
    if (events == NULL)
        return false;
    /* Each event with its public sentence ("text"), as GET …/events. */
    if (!event_log_annotate(conn, feed->id, events, err)) {
        json_decref(events);
        return false;
    }
    size_t count = json_array_size(events);
    char **texts = calloc(count + 1, sizeof *texts);
    if (texts == NULL)
        abort();
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) {
        long long seq = (long long)json_integer_value(json_object_get(event, "seq"));
        texts[i] = json_text(event);
        event_item(feed, texts[i], seq);
        feed->after = seq;
    }
    *more = count == STREAM_FEED_BATCH;
    /* Only a read that reached the head says what there was by then. */
    if (!*more && feed->after == after + (long long)count) {
        pthread_mutex_lock(&cache_lock);
        cache_keep(feed->id, after, texts, (int)count, since);
        pthread_mutex_unlock(&cache_lock);
    }
    for (i = 0; i < count; i++)
        free(texts[i]);
    free(texts);
    json_decref(events);
    return true;
}

static bool player_items(stream_feed *feed, PGconn *conn, bool *more,
                         apierr *err)
{
    PGresult *r = store_player_stream_after(conn, feed->id, feed->after,
                                            STREAM_FEED_BATCH, err);
    if (r == NULL)
        return false;
    int rows = PQntuples(r);
    for (int i = 0; i < rows; i++) {
        long long id = atoll(PQgetvalue(r, i, STORE_PLAYER_STREAM_ID));
        json_t *payload =
            json_loads(PQgetvalue(r, i, STORE_PLAYER_STREAM_ITEM), 0, NULL);
        if (payload != NULL)
            item(feed, payload, id);
        json_decref(payload);
        feed->after = id;
    }
    PQclear(r);
    *more = rows == STREAM_FEED_BATCH;
    return true;
}

/* The id of a stream with talk's item: where it stands in the events and
 * in the talk, "seq:message". */
static void talk_item(stream_feed *feed, const char *text)
{
    char id[48];
    snprintf(id, sizeof id, "%lld:%lld", feed->after, feed->talk_after);
    item_with_id(feed, text, id);
}

/* Sends the events held by this read and the messages the seat may read,
 * each message right after the event it was written after (its seq). A
 * message written after an event this read has not sent yet waits for
 * it; its event committed before the message was written, so the news of
 * that event comes. *more is raised when a whole page of messages went. */
static bool talk_items(stream_feed *feed, PGconn *conn, bool *more, apierr *err)
{
    long long events_after = feed->after;
    size_t n = json_array_size(feed->held);
    if (n > 0)
        events_after = (long long)json_integer_value(json_object_get(
                           json_array_get(feed->held, 0), "seq")) -
                       1;
    /* New events may have changed who sits where (an admin's seat
     * replacement): a reader no longer at the table reads no more talk. */
    if (n > 0 && feed->seat >= 0) {
        store_match now;
        if (!store_load_match(conn, feed->id, &now, err))
            return false;
        store_match_free(feed->match);
        *feed->match = now;
        feed->seat = request_seat_of(feed->match, feed->reader);
    }
    long long last;
    json_t *messages = feed->seat < 0
                           ? json_array()
                           : messages_readable(conn, feed->match, feed->seat,
                                               feed->reader, feed->talk_after,
                                               STREAM_FEED_BATCH, &last, err);
    if (messages == NULL)
        return false;
    long long upto = feed->after; /* the last event this read has */
    feed->after = events_after;
    size_t e = 0, m = 0, count = json_array_size(messages);
    for (;;) {
        const json_t *message = json_array_get(messages, m);
        long long written_at =
            m < count
                ? (long long)json_integer_value(json_object_get(message, "seq"))
                : -1;
        long long next_event =
            e < n ? (long long)json_integer_value(
                        json_object_get(json_array_get(feed->held, e), "seq"))
                  : LLONG_MAX;
        /* Its event is sent, and the next one is written after it. */
        bool message_due =
            m < count && written_at <= upto && written_at < next_event;
        if (message_due) {
            feed->talk_after =
                (long long)json_integer_value(json_object_get(message, "id"));
            json_t *item = messages_stream_item(feed->match, message);
            char *text = json_text(item);
            talk_item(feed, text);
            free(text);
            json_decref(item);
            m++;
        } else if (e < n) {
            const json_t *held = json_array_get(feed->held, e);
            feed->after =
                (long long)json_integer_value(json_object_get(held, "seq"));
            talk_item(feed, json_string_value(json_object_get(held, "text")));
            e++;
        } else {
            break;
        }
    }
    feed->after = upto;
    json_array_clear(feed->held);
    if (m == count && count == STREAM_FEED_BATCH)
        *more = true;
    json_decref(messages);
    return true;
}

bool stream_feed_read(stream_feed *feed, unsigned long long news, bool *more,
                      apierr *err)
{
    *more = false;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    if (feed->waiting_due) {
        if (!waiting(feed, conn, err))
            return false;
        feed->waiting_due = false;
    }
    if (feed->topic == STREAMS_PLAYER)
        return player_items(feed, conn, more, err);
    if (!match_events(feed, conn, news, more, err)) {
        if (feed->talk)
            json_array_clear(feed->held);
        return false;
    }
    return !feed->talk || talk_items(feed, conn, more, err);
}

void stream_feed_heartbeat(stream_feed *feed)
{
    append_text(feed, feed->ndjson ? "\n" : ": ping\n\n");
}

const char *stream_feed_output(const stream_feed *feed, size_t *len)
{
    *len = feed->len - feed->sent;
    return feed->out != NULL ? feed->out + feed->sent : "";
}

void stream_feed_sent(stream_feed *feed, size_t n)
{
    feed->sent += n;
    /* All of it sent: the buffer goes back. A stream is idle nearly all its
     * life, and kept, the buffer of its largest read (a catch-up of a
     * hundred events is tens of kilobytes) would be held by every idle
     * stream: a third of what each held at ten thousand streams. */
    if (feed->sent == feed->len) {
        free(feed->out);
        feed->out = NULL;
        feed->len = feed->sent = feed->size = 0;
    }
}
