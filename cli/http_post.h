/* http_post.h: one signed POST over plain HTTP/1.0, without libcurl, for
 * `pbem mail-in` (curl_lazy.h says why: a mail server starts one process
 * per message, and libcurl's loading was most of its cost).
 *
 * Only http:// URLs, as pbemd listens on a local or private address and
 * TLS ends at a proxy in front of it: an https:// URL goes through
 * client.h. The request is signed as client_send signs it (RFC 9421 over
 * @method, @path and content-digest), sent with Content-Length and
 * Connection: close, and its answer read up to HTTP_POST_ANSWER_MAX bytes.
 * HTTP/1.0, so that no server or proxy between may answer in chunks: the
 * answer is its bytes until the close (or Content-Length).
 * Every wait (the connect, each write and read) ends at one deadline,
 * HTTP_POST_TIMEOUT_S after the call began. */
#ifndef CLI_HTTP_POST_H
#define CLI_HTTP_POST_H

#include <stdbool.h>
#include <stddef.h>

#include "client.h"

#define HTTP_POST_TIMEOUT_S 30
#define HTTP_POST_ANSWER_MAX (256 * 1024)

/* Whether url is one http_post_send takes ("http://host[:port][/base]"). */
bool http_post_takes(const char *url);

/* POSTs body (length bytes) as content_type to url's base and path, signed
 * by signer. True once an answer came: out->status its status, out->body
 * its body (malloc'd, NUL-terminated, NULL when empty) and out->json that
 * body parsed (NULL when it is not JSON); free with client_response_free.
 * False with error (256 bytes) filled when no answer came: the address
 * does not resolve, the connection is refused, the deadline passed, or
 * what came back is not HTTP. */
bool http_post_send(const char *url, const char *path, const char *body,
                    size_t length, const char *content_type,
                    const client_key *signer, client_response *out,
                    char *error);

#endif
