/* stream_routes.c */
#include "http/stream_routes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/log.h"
#include "streams/stream_feed.h"
#include "streams/streams_hub.h"

/* One open stream: its connection, what it sends, its place in the hub. */
typedef struct open_stream {
    struct MHD_Connection *conn;
    stream_feed *feed;
    streams_sub *sub;
    bool ending;
    char *released; /* the buffer release_buffer last released, or NULL */
    bool touched;   /* written past STREAM_KEEP since */
} open_stream;

/* park runs under the hub's lock (streams_hub_park) and wake only for a
 * parked stream, so a resume never comes before its suspend; and a
 * suspended connection is not closed, so wake finds it alive. */
static void park(void *context)
{
    MHD_suspend_connection(((open_stream *)context)->conn);
}

static void wake(void *context)
{
    MHD_resume_connection(((open_stream *)context)->conn);
}

/* Whether the client has closed its end: a suspended connection is not
 * watched by libmicrohttpd, so a stream whose client left is found out
 * here, when a heartbeat wakes the stream (every
 * PBEM_STREAM_HEARTBEAT_SECONDS, and at once for the streams of a key
 * refused one more). Not at every news: that was one more system call
 * per stream and event, ten thousand of them for an event ten thousand
 * watch. A client sends nothing after its request, so end of file means
 * gone. */
static bool client_gone(const open_stream *s)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(s->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL)
        return false;
    char byte;
    ssize_t n = recv(info->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
                      errno != EINTR);
}

/* What of libmicrohttpd's buffer a parked stream keeps resident
 * (release_buffer): about what one new event takes. */
#define STREAM_KEEP 2048

/* Gives back to the system the pages of buf (max bytes, offered by
 * libmicrohttpd for the next bytes) past STREAM_KEEP. The buffer is the
 * free part of the connection's 32 KiB memory pool, which libmicrohttpd
 * zeroes as it shrinks its buffers after reading the request and writing
 * the head, and which a catch-up fills: all of it would stay resident for
 * as long as the connection lives, the larger part of an idle stream's
 * memory at ten thousand streams (docs/benchmarks.md). Those bytes are
 * ours to fill until we return (nothing in them is read before we write
 * there), so MADV_DONTNEED, which makes them read as zeros, changes
 * nothing but residence. Once per buffer, and again only after more than
 * STREAM_KEEP went out at once. Whole pages only: the rest of the page
 * around is not ours. */
static void release_buffer(open_stream *s, char *buf, size_t max)
{
    if (s->released == buf && !s->touched)
        return;
    s->released = buf;
    s->touched = false;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)buf + STREAM_KEEP + page - 1) & ~(page - 1);
    uintptr_t to = ((uintptr_t)buf + max) & ~(page - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);
}

/* libmicrohttpd asks for the next bytes: what the feed has, else what the
 * hub's news brings, else the stream parks (0 bytes, connection
 * suspended) until the hub wakes it. */
static ssize_t next_bytes(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    open_stream *s = cls;
    for (;;) {
        size_t len;
        const char *pending = stream_feed_output(s->feed, &len);
        if (len > 0) {
            size_t n = len < max ? len : max;
            memcpy(buf, pending, n);
            s->touched = s->touched || n > STREAM_KEEP;
            stream_feed_sent(s->feed, n);
            return (ssize_t)n;
        }
        if (s->ending)
            return MHD_CONTENT_READER_END_OF_STREAM;
        unsigned long long news;
        unsigned flags = streams_hub_take(s->sub, &news);
        if (flags & STREAMS_CLOSING) {
            s->ending = true;
            continue;
        }
        if ((flags & STREAMS_HEARTBEAT) && client_gone(s))
            return MHD_CONTENT_READER_END_WITH_ERROR;
        if (flags & STREAMS_NEWS) {
            bool more = false;
            apierr err;
            if (!stream_feed_read(s->feed, news, &more, &err)) {
                /* The client resumes from the last id it got. */
                log_warn("a stream ends: %s", err.message);
                return MHD_CONTENT_READER_END_WITH_ERROR;
            }
            if (more)
                streams_hub_more(s->sub);
        }
        if (flags & STREAMS_HEARTBEAT)
            stream_feed_heartbeat(s->feed);
        stream_feed_output(s->feed, &len);
        if (len > 0)
            continue;
        release_buffer(s, buf, max);
        if (streams_hub_park(s->sub, park, s))
            return 0;
    }
}

static void closed(void *cls)
{
    open_stream *s = cls;
    streams_hub_leave(s->sub);
    stream_feed_free(s->feed);
    free(s);
}

/* Where the client resumes: Last-Event-ID (sent by an SSE client that
 * reconnects), else ?after=, else -1 (from the start). A match stream with
 * talk names its place in the talk too, "seq:message": *talk then points
 * at the message part (borrowed from the request), else it is NULL. False
 * when the seq is not a number >= 0. */
static bool resume_after(const route_call *call, long long *after,
                         const char **talk)
{
    const char *text = MHD_lookup_connection_value(call->conn, MHD_HEADER_KIND,
                                                   "Last-Event-ID");
    if (text == NULL)
        text = route_query(call, "after");
    *after = -1;
    *talk = NULL;
    if (text == NULL)
        return true;
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    if (*text < '0' || *text > '9' || value < 0)
        return false;
    if (*end == ':')
        *talk = end + 1;
    else if (*end != '\0')
        return false;
    *after = value;
    return true;
}

static bool wants_ndjson(const route_call *call)
{
    const char *accept =
        MHD_lookup_connection_value(call->conn, MHD_HEADER_KIND, "Accept");
    return accept != NULL && strcasestr(accept, "application/x-ndjson") &&
           !strcasestr(accept, "text/event-stream");
}

/* reader: the player whose seat's talk a match stream carries (0: none,
 * the public events alone). */
static void open_one(const route_call *call, streams_topic topic, long long id,
                     const char *key, long long reader, answer *out)
{
    long long after;
    const char *talk;
    if (!resume_after(call, &after, &talk) ||
        (talk != NULL && topic != STREAMS_MATCH)) {
        answer_error(out, 400, "bad_last_event_id",
                     "Last-Event-ID (or after) must be an id this stream "
                     "sent: a whole number >= 0 (seq:message on a match "
                     "stream that carries talk)");
        return;
    }
    bool ndjson = wants_ndjson(call);
    apierr err;
    stream_feed *feed = stream_feed_open(topic, id, after, ndjson, &err);
    if (feed == NULL) {
        answer_apierr(out, &err);
        return;
    }
    if (reader != 0 && !stream_feed_with_talk(feed, reader, talk, &err)) {
        stream_feed_free(feed);
        answer_apierr(out, &err);
        return;
    }
    open_stream *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    s->conn = call->conn;
    s->feed = feed;
    /* Its group is the server thread that serves it (streams_hub.h). */
    const union MHD_ConnectionInfo *daemon =
        MHD_get_connection_info(call->conn, MHD_CONNECTION_INFO_DAEMON);
    s->sub = streams_hub_join(
        topic, id, key, daemon != NULL ? daemon->daemon : NULL, wake, s, &err);
    if (s->sub == NULL) {
        stream_feed_free(feed);
        free(s);
        answer_apierr(out, &err);
        return;
    }
    out->status = 200;
    out->content_type = ndjson ? "application/x-ndjson" : "text/event-stream";
    out->stream_read = next_bytes;
    out->stream_free = closed;
    out->stream = s;
}

void stream_routes_player(const route_call *call, answer *out)
{
    open_one(call, STREAMS_PLAYER, call->who->player_id, call->who->key_id, 0,
             out);
}

/* Signed by a seat's player (or a bot acting for them), the stream also
 * carries that seat's talk, and counts against the key's streams. */
void stream_routes_match(const route_call *call, answer *out)
{
    const caller *who = call->who;
    open_one(call, STREAMS_MATCH, call->params->match_id,
             who != NULL ? who->key_id : NULL, who != NULL ? who->player_id : 0,
             out);
}

void stream_routes_close_all(void)
{
    streams_hub_close_all();
}
