/* head.h: the rules a request's head must meet before anything in it is
 * believed (RFC 9110 section 5, RFC 9112 sections 3, 5 and 6).
 *
 * libmicrohttpd 0.9.75 reads heads leniently: of two Content-Length fields
 * it believes the first, so a proxy believing the other frames a different
 * body and a request hidden in it is answered (smuggling); it keeps
 * "Transfer-Encoding : chunked" under the name "Transfer-Encoding " that no
 * lookup finds; it takes a request without Host. A head that breaks a rule
 * here is answered 4xx and its connection closed, since where a head is
 * misread the next request's start is unknown.
 *
 * libmicrohttpd also stores each query argument in the connection's small
 * memory pool and, once it is full, never answers (issue #37): arguments
 * are counted here from the raw target before it parses them.
 *
 * One refusal is libmicrohttpd's alone: a first Content-Length that is not
 * a plain number ("-1", "2x", "", 20 digits) is answered 400 (413 for the
 * digits) while it reads the head, before any callback of ours runs, so
 * nothing here sees it. Version 0.9.75 then writes that answer's header
 * block twice (after the error, connection.c sets HEADERS_PROCESSED over
 * its state and builds the header again at START_REPLY; 1.0 checks the
 * state). It closes the connection after the one body and reads nothing
 * behind it, so no request is smuggled, but a client reads two status
 * lines. No callback runs between its read of the head and that answer
 * (the URI callback runs before the fields arrive), so only moving to
 * libmicrohttpd 1.0 or reading heads before it does would give one. */
#ifndef SERVICE_HTTP_HEAD_H
#define SERVICE_HTTP_HEAD_H

#include <stdbool.h>
#include <stddef.h>

/* The query arguments and header fields a request may carry, and the
 * longest request target: more is answered 414 or 431, well short of
 * libmicrohttpd's own limits. No route reads more than a handful of
 * arguments; browsers and HTTP libraries send a few dozen fields. */
#define HEAD_QUERY_ARGS_MAX 64
#define HEAD_FIELDS_MAX 100
#define HEAD_TARGET_MAX 8192

/* One header field line as libmicrohttpd parsed it (borrowed). */
typedef struct head_field {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
} head_field;

/* Why a head is refused: an HTTP status, an error code and a sentence
 * telling the client what to send instead (all static). */
typedef struct head_refusal {
    int status;
    const char *code;
    const char *message;
} head_refusal;

/* Whether a request of version ("HTTP/1.1", "HTTP/1.0") with these count
 * fields may be read. False with *why filled: 400 for a field name that is
 * not a token (whitespace before its colon, say), a control byte in a
 * value, Content-Length repeated, Host missing (HTTP/1.1) or repeated; 411
 * for a chunked body and 501 for another transfer coding (every body here
 * is signed whole, so it must announce its length); 431 past
 * HEAD_FIELDS_MAX fields. */
bool head_acceptable(const head_field *fields, size_t count,
                     const char *version, head_refusal *why);

/* Whether libmicrohttpd's parse of a head accounts for every byte of its
 * field lines, which it leaves in place in [start, end): the head from
 * its request line to its end (REQUEST_HEADER_SIZE bytes), each field
 * line's colon and line end turned to NUL bytes. The fields (count of
 * them, in order) must then follow each other with nothing between them
 * but the NUL of the colon, the whitespace before the value and the NULs
 * of the line end, and the last be followed by the empty line alone.
 *
 * That is how libmicrohttpd 0.9.75 hides what RFC 9112 forbids: a NUL in
 * a value ends the value it reports (the rest of the line is left out), and
 * an obs-fold continuation line is joined to the field's name in a copy
 * kept elsewhere. Both leave bytes, or a name, out of this walk. A NUL
 * right before a bare LF reads as CRLF and goes unseen; it can only end a
 * value. Nothing outside [start, end) is read. */
bool head_lines_whole(const head_field *fields, size_t count, const char *start,
                      const char *end);

/* The arguments in the query of target (a raw request target): the
 * '&'-separated pieces after its first '?', empty ones included, as
 * libmicrohttpd counts them; 0 without a query. */
size_t head_query_args(const char *target);

/* Whether target (raw, query included) may be read: false with *why
 * filled (414) when it is longer than HEAD_TARGET_MAX or its query holds
 * more than HEAD_QUERY_ARGS_MAX arguments. */
bool head_target_acceptable(const char *target, head_refusal *why);

#endif
