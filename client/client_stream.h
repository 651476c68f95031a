/* client_stream.h: reading a long-lived answer (an event stream) as it
 * arrives, over a plain socket: one GET, signed per RFC 9421 like every
 * client request (or not, for a public stream), whose status and headers
 * are read at once and whose body (chunked or not) is read on demand,
 * each read bounded by a timeout. For tests and benchmarks that hold many
 * streams open at once (a socket each, no thread). */
#ifndef CLIENT_CLIENT_STREAM_H
#define CLIENT_CLIENT_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "client.h"

typedef struct client_stream client_stream;

/* Connects to base_url ("http://127.0.0.1:8080"), sends GET path signed by
 * signer (NULL: unsigned) with extra_headers (NULL-terminated "Name:
 * value" strings, may be NULL), and reads the status line and headers
 * within timeout_ms. NULL with errbuf (256 bytes) filled when that fails. */
client_stream *client_stream_open(const char *base_url, const char *path,
                                  const client_key *signer,
                                  const char *const *extra_headers,
                                  int timeout_ms, char *errbuf);

/* The same, signed by a delegate's key acting for on_behalf_of (a player
 * id, sent in Pbem-On-Behalf-Of and covered by the signature; NULL: the
 * signer's own request). */
client_stream *client_stream_open_for(const char *base_url, const char *path,
                                      const client_key *signer,
                                      const char *on_behalf_of,
                                      const char *const *extra_headers,
                                      int timeout_ms, char *errbuf);

long client_stream_status(const client_stream *s);

/* A response header's value (name in any case), or NULL. */
const char *client_stream_header(const client_stream *s, const char *name);

/* Reads until the body (decoded) holds needle at or after offset `from`,
 * or until timeout_ms pass or the answer ends. True when found. */
bool client_stream_wait_for(client_stream *s, const char *needle, size_t from,
                            int timeout_ms);

/* Reads until the answer ends (the last chunk, the announced length, or
 * the server closing), at most timeout_ms. True when it ended. */
bool client_stream_wait_end(client_stream *s, int timeout_ms);

/* Reads whatever has arrived without waiting; false once the answer has
 * ended or the connection broke. */
bool client_stream_poll(client_stream *s);

/* The body read so far, NUL-terminated, and its length. */
const char *client_stream_body(const client_stream *s, size_t *len);

/* Forgets the first n bytes of the body read so far (a long-running
 * reader keeps only what it has not handled yet). */
void client_stream_drop(client_stream *s, size_t n);

bool client_stream_ended(const client_stream *s);

/* The socket, for poll(2) over many streams. */
int client_stream_fd(const client_stream *s);

/* Closes the connection (the client drops) and frees s. NULL does nothing. */
void client_stream_close(client_stream *s);

#endif
