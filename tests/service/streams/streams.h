/* streams.h: what the stream suites share: opening a stream on an e2e
 * server and reading its items as a client would. */
#ifndef TESTS_SERVICE_STREAMS_STREAMS_H
#define TESTS_SERVICE_STREAMS_STREAMS_H

#include <jansson.h>
#include <stdbool.h>

#include "../../support/e2e.h"
#include "client_stream.h"

/* How long a test waits for data it expects on a stream. */
#define STREAM_WAIT_MS 15000

/* Opens GET path on server (signed by signer unless NULL) with
 * extra_headers (NULL-terminated, may be NULL); fails the test when no
 * headers come back. */
client_stream *streams_open(const e2e_server *server, const char *path,
                            const e2e_player *signer,
                            const char *const *extra_headers);

/* The items of an SSE body: an array of {"id": N or null, "data": JSON}. */
json_t *streams_sse_items(const char *body);

/* Waits until the stream has sent an item with id (an "id: N" line). */
bool streams_wait_id(client_stream *s, long long id);

/* Raises this process's limit of open files (which pbemd, started after,
 * inherits) to at least needed: to the hard limit, and past it where the
 * process may (root in CI). Fails the test, naming both figures, when the
 * limit stays short: a test of many streams cannot open them. */
void streams_more_descriptors(long needed);

#endif
