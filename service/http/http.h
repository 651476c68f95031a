/* http.h: the HTTP server (libmicrohttpd). It accepts connections and
 * spreads them over its threads (acceptor.h), captures each request's raw target (for signatures),
 * accumulates bodies under a hard limit (413 beyond it), hands complete
 * requests to routes, and answers JSON (an export: a body streamed as the
 * client reads it; an event stream, stream_routes.h). Stopping is
 * graceful: it stops accepting, ends open event streams, lets in-flight
 * requests finish, then closes. */
#ifndef SERVICE_HTTP_HTTP_H
#define SERVICE_HTTP_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"

#define HTTP_BODY_MAX (64 * 1024)
/* POST /v1/admin/matches/import alone accepts up to this much (an export
 * of a whole match). */
#define HTTP_IMPORT_BODY_MAX (8 * 1024 * 1024)
#define HTTP_IMPORT_PATH "/v1/admin/matches/import"
/* POST /v1/mail/inbound takes a whole mail, up to 1 MiB. */
#define HTTP_MAIL_BODY_MAX (1024 * 1024)
#define HTTP_MAIL_PATH "/v1/mail/inbound"

/* The connections one client address may hold at once. The proxies
 * PBEM_TRUSTED_PROXIES names (comma-separated IPv4 addresses) are exempt,
 * as every user behind them shares their address, and only their
 * Forwarded / X-Forwarded-For headers are believed about the client. A
 * request on a connection past the limit is answered 429
 * too_many_connections with Retry-After (HTTP_PER_ADDRESS_RETRY_SECONDS)
 * and its connection closed. */
#define HTTP_PER_ADDRESS_CONNECTIONS 200u
#define HTTP_PER_ADDRESS_RETRY_SECONDS 1

/* A request has PBEM_HTTP_REQUEST_SECONDS (30) to arrive, headers and
 * body: past it the connection is closed, so slow clients cannot hold
 * every connection. PBEM_HTTP_CONNECTIONS (12288) are served at once (open
 * event streams included); the process's limit of open files is raised
 * to fit at start-up when the hard limit allows (core/config.h). */

typedef struct http_server http_server;

/* Starts serving on listen ("127.0.0.1:8080"). NULL with err filled when
 * the address is malformed or already in use, or PBEM_TRUSTED_PROXIES
 * holds something that is not an address. */
http_server *http_start(const char *listen, int threads, apierr *err);

/* The port actually bound (useful with port 0). */
int http_port(const http_server *server);

/* Graceful stop: no new connections, waits up to grace_seconds for
 * in-flight requests to finish, then shuts down and frees. */
void http_stop(http_server *server, int grace_seconds);

#endif
