/* acceptor.h: accepts connections on the listening socket and gives each
 * to whichever of the server's libmicrohttpd daemons (one thread each)
 * holds the fewest.
 *
 * Why not libmicrohttpd's own thread pool: there every worker polls the
 * listening socket, and the one that wakes first accepts up to ten
 * connections in a row and keeps them. A client opening 64 connections at
 * once left one worker with 18 of them and two with none (measured). A
 * worker serves its connections one request at a time, so those on a
 * crowded worker waited behind each other while other workers idled: that
 * was most of the p99 at 64 clients (docs/benchmarks.md).
 *
 * The connection limit is kept as before: while the server holds as many
 * connections as it allows, nothing more is accepted and new clients wait
 * in the kernel's backlog, as they did when libmicrohttpd stopped
 * listening. A connection past its address's limit is accepted all the
 * same, to be answered 429 (http.h). GET /metrics shows the connections
 * each thread holds (pbem_http_thread_connections). */
#ifndef SERVICE_HTTP_ACCEPTOR_H
#define SERVICE_HTTP_ACCEPTOR_H

#include <microhttpd.h>

typedef struct acceptor acceptor;

/* Starts the thread accepting on listen_fd (a listening socket, which the
 * acceptor now owns) for count daemons (each started with
 * MHD_USE_NO_LISTEN_SOCKET and MHD_USE_ITC), holding at most limit
 * connections over all of them. Aborts when the thread cannot start. */
acceptor *acceptor_start(int listen_fd, struct MHD_Daemon *const *daemons,
                         int count, unsigned limit);

/* A connection daemon was given has closed (libmicrohttpd's
 * MHD_CONNECTION_NOTIFY_CLOSED for a connection it had started). */
void acceptor_connection_closed(acceptor *a, const struct MHD_Daemon *daemon);

/* Stops accepting and closes the listening socket. Connections already
 * given to a daemon stay with it. */
void acceptor_stop(acceptor *a);

/* Frees a stopped acceptor, once its daemons are stopped too (their
 * closing connections still call acceptor_connection_closed until then). */
void acceptor_free(acceptor *a);

#endif
