/* reaper.h: the total deadline for receiving a request. libmicrohttpd's
 * own timeout is an idle one: a client sending a header line every few
 * seconds keeps its connection forever, and enough of them hold every
 * connection the server has. The reaper watches each connection from the
 * moment it opens (or its last answer was sent) until its request has
 * been read whole, and shuts down any that takes longer than the deadline;
 * libmicrohttpd then sees the socket end and closes the connection. A
 * connection idle between requests is closed past the deadline too. */
#ifndef SERVICE_HTTP_REAPER_H
#define SERVICE_HTTP_REAPER_H

typedef struct reaper reaper;
typedef struct reaper_watch reaper_watch;

/* Starts the thread that enforces a deadline of seconds (>= 1). Aborts
 * when the thread cannot start. */
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
