/* stream_routes.h: the two event streams over HTTP, as long-lived answers
 * that hold no server thread while idle.
 *
 * A stream's answer is read by libmicrohttpd through a callback. When
 * the feed (streams/stream_feed.h) has nothing to send, the callback
 * parks the stream in the hub (streams/streams_hub.h), which suspends the
 * connection (MHD_suspend_connection); the hub's wake-up (news from
 * LISTEN, a heartbeat, the shutdown) resumes it. So a thousand idle
 * streams cost a thousand sockets and a few kilobytes each, and the
 * server's threads keep serving moves.
 *
 * The format is Server-Sent Events, or NDJSON when Accept names
 * application/x-ndjson. A stream resumes after the id of its Last-Event-ID
 * header (or ?after=): a number, or "seq:message" on a match stream that
 * carries talk. */
#ifndef SERVICE_HTTP_STREAM_ROUTES_H
#define SERVICE_HTTP_STREAM_ROUTES_H

#include "http/route_call.h"

/* GET /v1/players/me/stream (signed). */
void stream_routes_player(const route_call *call, answer *out);

/* GET /v1/matches/{id}/stream (anyone; signed by a seat's player, or a
 * bot with view on the match acting for them, it carries that seat's
 * talk too: streams/stream_feed.h). */
void stream_routes_match(const route_call *call, answer *out);

/* Ends every open stream promptly (SIGTERM): each sends what it has and
 * finishes its answer, so a graceful stop need not wait for them. */
void stream_routes_close_all(void);

#endif
