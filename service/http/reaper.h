/* reaper.h: the total deadline for receiving a request, and the
 * connections whose client has gone.
 *
 * The deadline: libmicrohttpd's own timeout is an idle one: a client
 * sending a header line every few seconds keeps its connection forever,
 * and enough of them hold every connection the server has. The reaper
 * watches each connection from the moment it opens (or its last answer
 * was sent) until its request has been read whole, and shuts down any
 * that takes longer than the deadline; libmicrohttpd then sees the socket
 * end and closes the connection. A connection idle between requests is
 * closed past the deadline too.
 *
 * A client gone: libmicrohttpd 0.9.75 waits on its sockets edge-triggered
 * and, after a read shorter than its buffer, takes the socket as drained.
 * When a client sends its last bytes and closes at once, the end of the
 * stream arrives with them, is never read, and no later event comes: the
 * socket stays in CLOSE-WAIT until the deadline. A client abandoning
 * requests that way held all 200 connections its address may have
 * (issue #34). The reaper therefore waits for each client's end of stream
 * too, and when it comes shuts down the socket's reading side: nothing
 * more can arrive on it anyway, and the shutdown wakes libmicrohttpd,
 * which reads what is left and the end, and closes the connection as it
 * would have had it seen the end itself. An answer under way is still
 * written. */
#ifndef SERVICE_HTTP_REAPER_H
#define SERVICE_HTTP_REAPER_H

typedef struct reaper reaper;
typedef struct reaper_watch reaper_watch;

/* Starts the thread that enforces a deadline of seconds (>= 1) and wakes
 * libmicrohttpd for clients gone. Aborts when the thread cannot start. */
reaper *reaper_start(int seconds);

/* Stops the thread and frees r; every watch must have been ended. */
void reaper_stop(reaper *r);

/* Watches the connection on socket fd from now. The watch belongs to r
 * until reaper_end. */
reaper_watch *reaper_begin(reaper *r, int fd);

/* The request on the watched connection was read whole: no deadline until
 * its answer is sent. */
void reaper_received(reaper *r, reaper_watch *w);

/* Its answer was sent: the next request's deadline runs from now. */
void reaper_answered(reaper *r, reaper_watch *w);

/* The connection is closing: forgets it and frees w. Must be called
 * before fd is closed, so the reaper never shuts down a reused number. */
void reaper_end(reaper *r, reaper_watch *w);

#endif
