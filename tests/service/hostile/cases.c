#include "cases.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST "Host: x\r\n"
#define JSON_POST "POST /v1/players HTTP/1.1\r\n" HOST "Content-Type: application/json\r\n"

typedef struct list {
    hostile_case *at;
    size_t count, cap;
} list;

static hostile_case *add(list *l, const char *name, const char *bytes,
                         size_t len, hostile_expect expect, int status,
                         bool prompt)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->at = realloc(l->at, l->cap * sizeof *l->at);
        cr_assert_not_null(l->at);
    }
    hostile_case *c = &l->at[l->count++];
    *c = (hostile_case){.name = name, .len = len, .expect = expect,
                        .status = status, .prompt = prompt};
    c->bytes = malloc(len);
    cr_assert_not_null(c->bytes);
    memcpy(c->bytes, bytes, len);
    return c;
}

/* A literal, NUL bytes and all. */
#define LIT(l, name, text, expect, status, prompt) \
    add(l, name, text, sizeof text - 1, expect, status, prompt)

/* head + count copies of unit + tail. */
static void repeated(list *l, const char *name, const char *head,
                     const char *unit, size_t count, const char *tail,
                     hostile_expect expect, int status, bool prompt)
{
    size_t len = strlen(head) + strlen(unit) * count + strlen(tail);
    char *text = malloc(len + 1);
    cr_assert_not_null(text);
    char *at = stpcpy(text, head);
    for (size_t i = 0; i < count; i++)
        at = stpcpy(at, unit);
    strcpy(at, tail);
    add(l, name, text, len, expect, status, prompt);
    free(text);
}

hostile_case *hostile_cases(size_t *count)
{
    list l = {0};
    /* Request lines. */
    LIT(&l, "unknown method", "FOO /healthz HTTP/1.1\r\n" HOST "\r\n",
        EXPECT_REFUSED, 0, false);
    LIT(&l, "lower-case method", "get /healthz HTTP/1.1\r\n" HOST "\r\n",
        EXPECT_REFUSED, 0, false);
    LIT(&l, "no version", "GET /healthz\r\n" HOST "\r\n", EXPECT_STATUS,
        400, true);
    LIT(&l, "HTTP/0.9", "GET /healthz\r\n", EXPECT_STATUS, 400, true);
    LIT(&l, "not HTTP", "GET /healthz XTTP/1.1\r\n" HOST "\r\n",
        EXPECT_STATUS, 400, true);
    /* RFC 9110 15.6.6: 505 is the answer to a version not served. */
    LIT(&l, "HTTP/9.9", "GET /healthz HTTP/9.9\r\n" HOST "\r\n",
        EXPECT_STATUS, 505, true);
    LIT(&l, "HTTP/2 preface on the HTTP/1.1 port",
        "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\4\0\0\0\0\0", EXPECT_STATUS,
        505, true);
    LIT(&l, "TLS client hello on the plain port",
        "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\0\0\0\0\0\0\0\0",
        EXPECT_REFUSED, 0, false);
    LIT(&l, "absolute-form target",
        "GET http://x/healthz HTTP/1.1\r\n" HOST "\r\n", EXPECT_REFUSED, 0,
        false);
    LIT(&l, "absolute-form, another host",
        "GET http://evil.example/v1/players HTTP/1.1\r\n" HOST "\r\n",
        EXPECT_REFUSED, 0, false);
    LIT(&l, "asterisk-form", "OPTIONS * HTTP/1.1\r\n" HOST "\r\n",
        EXPECT_REFUSED, 0, false);
    LIT(&l, "bare CR line ends", "GET /healthz HTTP/1.1\rHost: x\r\r",
        EXPECT_REFUSED, 0, false);
    /* NUL and control bytes. */
    LIT(&l, "NUL in the path", "GET /heal\0thz HTTP/1.1\r\n" HOST "\r\n",
        EXPECT_REFUSED, 0, false);
    LIT(&l, "control byte in the path",
        "GET /heal\1thz HTTP/1.1\r\n" HOST "\r\n", EXPECT_REFUSED, 0, false);
    LIT(&l, "escaped NUL in the path",
        "GET /healthz%00 HTTP/1.1\r\n" HOST "\r\n", EXPECT_REFUSED, 0, false);
    LIT(&l, "NUL in a header name",
        "GET /healthz HTTP/1.1\r\n" HOST "X-\0A: b\r\n\r\n", EXPECT_STATUS,
        400, true);
    /* libmicrohttpd keeps a header value only up to a NUL in it; the
     * bytes it left out are found in the head it parsed. */
    LIT(&l, "NUL in a header value",
        "GET /healthz HTTP/1.1\r\n" HOST "X-A: a\0b\r\n\r\n", EXPECT_STATUS,
        400, true);
    LIT(&l, "obs-fold",
        "GET /healthz HTTP/1.1\r\n" HOST "X-A: a\r\n b\r\n\r\n",
        EXPECT_STATUS, 400, true);
    LIT(&l, "BEL in a header value",
        "GET /healthz HTTP/1.1\r\n" HOST "X-A: a\ab\r\n\r\n", EXPECT_STATUS,
        400, true);
    LIT(&l, "ESC in a signature header",
        "GET /healthz HTTP/1.1\r\n" HOST "Signature: sig1=:\x1b[2J:\r\n\r\n",
        EXPECT_STATUS, 400, true);
    LIT(&l, "header line without a colon",
        "GET /healthz HTTP/1.1\r\n" HOST "NoColon\r\n\r\n", EXPECT_STATUS,
        400, true);
    LIT(&l, "binary junk",
        "\x80\x81\x82\xff\xfe\0\0\r\n\x01\x02\x03\r\n\r\n", EXPECT_REFUSED,
        0, true);
    /* Sizes: the connection's 32 KiB buffer holds the head. */
    repeated(&l, "64 KiB URI", "GET /healthz?", "a", 64 * 1024,
             " HTTP/1.1\r\n" HOST "\r\n", EXPECT_STATUS, 414, true);
    repeated(&l, "1 MiB URI", "GET /", "a", 1024 * 1024,
             " HTTP/1.1\r\n" HOST "\r\n", EXPECT_STATUS, 414, true);
    repeated(&l, "64 KiB header", "GET /healthz HTTP/1.1\r\n" HOST "X-A: ",
             "a", 64 * 1024, "\r\n\r\n", EXPECT_STATUS, 431, true);
    repeated(&l, "4,000 headers", "GET /healthz HTTP/1.1\r\n" HOST,
             "X-Many: 1\r\n", 4000, "\r\n", EXPECT_STATUS, 431, true);
    /* Under 32 KiB, but each argument takes room in the connection's
     * pool, and libmicrohttpd gave up on the request without an answer:
     * they are counted before it parses them. */
    repeated(&l, "2,000 query arguments", "GET /healthz?", "a=1&", 2000,
             " HTTP/1.1\r\n" HOST "\r\n", EXPECT_STATUS, 414, true);
    repeated(&l, "600 query arguments", "GET /healthz?", "a=1&", 599,
             "a=1 HTTP/1.1\r\n" HOST "\r\n", EXPECT_STATUS, 414, true);
    repeated(&l, "65 query arguments", "GET /healthz?", "a=1&", 64,
             "a=1 HTTP/1.1\r\n" HOST "\r\n", EXPECT_STATUS, 414, true);
    repeated(&l, "9 KiB URI", "GET /healthz?", "a", 9 * 1024,
             " HTTP/1.1\r\n" HOST "\r\n", EXPECT_STATUS, 414, true);
    repeated(&l, "300 headers", "GET /healthz HTTP/1.1\r\n" HOST,
             "X-Many: 1\r\n", 300, "\r\n", EXPECT_STATUS, 431, true);
    /* Field lines RFC 9112 forbids. */
    LIT(&l, "whitespace before a colon",
        "GET /healthz HTTP/1.1\r\n" HOST "X-A : b\r\n\r\n", EXPECT_STATUS,
        400, true);
    LIT(&l, "no Host on HTTP/1.1", "GET /healthz HTTP/1.1\r\n\r\n",
        EXPECT_STATUS, 400, true);
    LIT(&l, "two Hosts",
        "GET /healthz HTTP/1.1\r\n" HOST "Host: y\r\n\r\n", EXPECT_STATUS,
        400, true);
    /* Framing. */
    LIT(&l, "Content-Length and Transfer-Encoding",
        JSON_POST "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                  "0\r\n\r\n",
        EXPECT_STATUS, 411, true);
    LIT(&l, "two different Content-Lengths",
        JSON_POST "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
        EXPECT_STATUS, 400, true);
    LIT(&l, "two equal Content-Lengths",
        JSON_POST "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
        EXPECT_STATUS, 400, true);
    LIT(&l, "negative Content-Length",
        JSON_POST "Content-Length: -1\r\n\r\n{}", EXPECT_STATUS, 400, true);
    LIT(&l, "overflowing Content-Length",
        JSON_POST "Content-Length: 99999999999999999999999\r\n\r\n{}",
        EXPECT_STATUS, 413, true);
    LIT(&l, "Content-Length not a number",
        JSON_POST "Content-Length: 2x\r\n\r\n{}", EXPECT_STATUS, 400, true);
    LIT(&l, "body shorter than announced",
        JSON_POST "Content-Length: 100\r\n\r\n{}", EXPECT_REFUSED, 0, false);
    /* RFC 9112 6.1: 501 is the answer to a transfer coding not served. */
    LIT(&l, "gzip before chunked",
        JSON_POST "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        EXPECT_STATUS, 501, true);
    /* Every body must announce its length (411), so a chunked one is
     * answered before a byte of it is read, however it is malformed. */
    LIT(&l, "well-formed chunked body",
        JSON_POST "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        EXPECT_STATUS, 411, true);
    LIT(&l, "chunk size not hexadecimal",
        JSON_POST "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        EXPECT_STATUS, 411, true);
    LIT(&l, "negative chunk size",
        JSON_POST "Transfer-Encoding: chunked\r\n\r\n-2\r\n{}\r\n0\r\n\r\n",
        EXPECT_STATUS, 411, true);
    LIT(&l, "overflowing chunk size",
        JSON_POST "Transfer-Encoding: chunked\r\n\r\n"
                  "ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n",
        EXPECT_STATUS, 411, true);
    LIT(&l, "chunk without its CRLF",
        JSON_POST "Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n",
        EXPECT_STATUS, 411, true);
    LIT(&l, "chunk extension",
        JSON_POST "Transfer-Encoding: chunked\r\n\r\n2;a=b\r\n{}\r\n0\r\n\r\n",
        EXPECT_STATUS, 411, true);
    /* libmicrohttpd 0.9.75 answers this one 500 itself once it parses
     * chunks; refused at the headers, it never does. */
    repeated(&l, "64 KiB chunk extension",
             JSON_POST "Transfer-Encoding: chunked\r\n\r\n2;", "a",
             64 * 1024, "\r\n{}\r\n0\r\n\r\n", EXPECT_REFUSED, 0, true);
    /* A good request, then bytes that are no request. */
    LIT(&l, "garbage pipelined after a good request",
        "GET /healthz HTTP/1.1\r\n" HOST "\r\n\0\1GARBAGE\xff\r\n\r\n",
        EXPECT_SERVED_FIRST, 0, false);
    LIT(&l, "bad request pipelined after a good one",
        "GET /healthz HTTP/1.1\r\n" HOST "\r\nGET /healthz\r\n\r\n",
        EXPECT_SERVED_FIRST, 0, false);
    *count = l.count;
    return l.at;
}

void hostile_cases_free(hostile_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(cases[i].bytes);
    free(cases);
}
