/* test_head.c: the rules of http/head.h, field by field, as libmicrohttpd
 * hands a head's fields over. Pure: no server, no database. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/head.h"

#define F(name, value)                                                         \
    {                                                                          \
        name, sizeof name - 1, value, sizeof value - 1                         \
    }
#define COUNT(fields) (sizeof fields / sizeof *fields)

static head_refusal why;

Test(head, an_ordinary_request_is_read)
{
    head_field fields[] = {
        F("Host", "example.org"), F("Content-Type", "application/json"),
        F("Content-Length", "12"), F("Signature", "sig1=:abc=:")};
    cr_expect(head_acceptable(fields, COUNT(fields), "HTTP/1.1", &why));
}

Test(head, content_length_twice_is_refused_even_when_equal)
{
    head_field differ[] = {F("Host", "x"), F("Content-Length", "2"),
                           F("content-length", "40")};
    cr_expect_not(head_acceptable(differ, COUNT(differ), "HTTP/1.1", &why));
    cr_expect_eq(why.status, 400);
    cr_expect_str_eq(why.code, "bad_content_length");
    head_field equal[] = {F("Host", "x"), F("Content-Length", "2"),
                          F("Content-Length", "2")};
    cr_expect_not(head_acceptable(equal, COUNT(equal), "HTTP/1.1", &why));
    cr_expect_eq(why.status, 400);
}

/* libmicrohttpd keeps the space in the name it stores. */
Test(head, whitespace_before_a_colon_is_refused)
{
    head_field space[] = {F("Host", "x"), F("Transfer-Encoding ", "chunked")};
    cr_expect_not(head_acceptable(space, COUNT(space), "HTTP/1.1", &why));
    cr_expect_eq(why.status, 400);
    cr_expect_str_eq(why.code, "bad_header");
    head_field tab[] = {F("Host", "x"), F("Content-Length\t", "2")};
    cr_expect_not(head_acceptable(tab, COUNT(tab), "HTTP/1.1", &why));
    head_field inner[] = {F("Host", "x"), F("X A", "b")};
    cr_expect_not(head_acceptable(inner, COUNT(inner), "HTTP/1.1", &why));
    head_field empty[] = {F("Host", "x"), F("", "b")};
    cr_expect_not(head_acceptable(empty, COUNT(empty), "HTTP/1.1", &why));
}

Test(head, a_control_byte_in_a_value_is_refused_but_a_tab_is_not)
{
    head_field bell[] = {F("Host", "x"), F("X-A", "a\ab")};
    cr_expect_not(head_acceptable(bell, COUNT(bell), "HTTP/1.1", &why));
    cr_expect_eq(why.status, 400);
    head_field nul[] = {F("Host", "x"), F("X-A", "a\0b")};
    cr_expect_not(head_acceptable(nul, COUNT(nul), "HTTP/1.1", &why));
    head_field del[] = {F("Host", "x"), F("X-A", "a\x7f")};
    cr_expect_not(head_acceptable(del, COUNT(del), "HTTP/1.1", &why));
    head_field tab[] = {F("Host", "x"), F("X-A", "a\tb")};
    cr_expect(head_acceptable(tab, COUNT(tab), "HTTP/1.1", &why));
}

Test(head, http_1_1_needs_exactly_one_host)
{
    head_field none[] = {F("Accept", "*/*")};
    cr_expect_not(head_acceptable(none, COUNT(none), "HTTP/1.1", &why));
    cr_expect_eq(why.status, 400);
    cr_expect_str_eq(why.code, "bad_host");
    head_field two[] = {F("Host", "x"), F("host", "y")};
    cr_expect_not(head_acceptable(two, COUNT(two), "HTTP/1.1", &why));
    cr_expect_str_eq(why.code, "bad_host");
    /* HTTP/1.0 had no Host: one is welcome, none is fine, two are not. */
    cr_expect(head_acceptable(none, COUNT(none), "HTTP/1.0", &why));
    cr_expect_not(head_acceptable(two, COUNT(two), "HTTP/1.0", &why));
}

Test(head, a_body_must_announce_its_length)
{
    head_field chunked[] = {F("Host", "x"), F("Transfer-Encoding", "Chunked")};
    cr_expect_not(head_acceptable(chunked, COUNT(chunked), "HTTP/1.1", &why));
    cr_expect_eq(why.status, 411);
    head_field gzip[] = {F("Host", "x"),
                         F("Transfer-Encoding", "gzip, chunked")};
    cr_expect_not(head_acceptable(gzip, COUNT(gzip), "HTTP/1.1", &why));
    cr_expect_eq(why.status, 501);
}

Test(head, more_than_a_hundred_fields_are_431)
{
    head_field *many = calloc(HEAD_FIELDS_MAX + 1, sizeof *many);
    cr_assert_not_null(many);
    many[0] = (head_field)F("Host", "x");
    for (size_t i = 1; i <= HEAD_FIELDS_MAX; i++)
        many[i] = (head_field)F("X-Many", "1");
    cr_expect(head_acceptable(many, HEAD_FIELDS_MAX, "HTTP/1.1", &why));
    cr_expect_not(head_acceptable(many, HEAD_FIELDS_MAX + 1, "HTTP/1.1", &why));
    cr_expect_eq(why.status, 431);
    free(many);
}

Test(head, query_arguments_are_counted_from_the_raw_target)
{
    cr_expect_eq(head_query_args("/v1/matches/m_1/events"), 0);
    cr_expect_eq(head_query_args("/v1/matches/m_1/events?"), 1);
    cr_expect_eq(head_query_args("/v1/matches/m_1/events?after=3&limit=5"), 2);
    cr_expect_eq(head_query_args("/x?a&&b"), 3);
}

Test(head, a_target_past_the_limits_is_414)
{
    char target[HEAD_TARGET_MAX + 16];
    char *at = stpcpy(target, "/healthz?");
    for (int i = 0; i < HEAD_QUERY_ARGS_MAX - 1; i++)
        at = stpcpy(at, "a=1&");
    strcpy(at, "a=1");
    cr_expect(head_target_acceptable(target, &why), "64 arguments");
    strcat(target, "&b");
    cr_expect_not(head_target_acceptable(target, &why), "65 arguments");
    cr_expect_eq(why.status, 414);
    memset(target, 'a', sizeof target - 1);
    target[0] = '/';
    target[HEAD_TARGET_MAX] = '\0';
    cr_expect(head_target_acceptable(target, &why), "8192 bytes");
    target[HEAD_TARGET_MAX] = 'a';
    target[HEAD_TARGET_MAX + 1] = '\0';
    cr_expect_not(head_target_acceptable(target, &why), "8193 bytes");
    cr_expect_eq(why.status, 414);
}

/* A head as libmicrohttpd 0.9.75 leaves it in its buffer: bytes is the raw
 * head (request line to the empty line); each field line's colon and the
 * CR and LF of every line become NULs, the value starts after the
 * whitespace that follows the colon, and the name and value it reports end
 * at the first NUL (strlen), as it measures them. */
typedef struct parsed {
    char buffer[512];
    size_t size;
    head_field fields[8];
    size_t count;
} parsed;

static void parse_in_place(parsed *p, const char *bytes, size_t len)
{
    cr_assert_lt(len, sizeof p->buffer);
    memcpy(p->buffer, bytes, len);
    p->size = len;
    p->count = 0;
    char *at = p->buffer;
    char *end = p->buffer + len;
    bool request_line = true;
    while (at < end) {
        char *lf = memchr(at, '\n', (size_t)(end - at));
        cr_assert_not_null(lf);
        char *line = at;
        if (lf > at && lf[-1] == '\r')
            lf[-1] = '\0';
        *lf = '\0';
        at = lf + 1;
        if (request_line || line[0] == '\0') {
            request_line = false;
            continue;
        }
        char *colon = strchr(line, ':');
        cr_assert_not_null(colon);
        *colon = '\0';
        char *value = colon + 1;
        while (*value == ' ' || *value == '\t')
            value++;
        p->fields[p->count++] =
            (head_field){line, strlen(line), value, strlen(value)};
    }
}

#define PARSED(p, literal) parse_in_place(p, literal, sizeof literal - 1)

static bool whole(const parsed *p)
{
    return head_lines_whole(p->fields, p->count, p->buffer,
                            p->buffer + p->size);
}

Test(head, a_head_parsed_whole_accounts_for_every_byte)
{
    parsed p;
    PARSED(&p,
           "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A:\t b c \r\nX-B:\r\n\r\n");
    cr_expect_eq(p.count, 3);
    cr_expect(whole(&p));
    PARSED(&p, "GET /healthz HTTP/1.1\nHost: x\nX-A: b\n\n");
    cr_expect(whole(&p), "bare LF line ends");
    PARSED(&p, "GET /healthz HTTP/1.1\r\nHost: x\nX-A: b\r\n\n");
    cr_expect(whole(&p), "mixed line ends");
}

Test(head, a_nul_in_a_value_leaves_bytes_out)
{
    parsed p;
    PARSED(&p, "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\nX-B: c\r\n\r\n");
    cr_expect_not(whole(&p), "in the middle");
    PARSED(&p, "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n");
    cr_expect_not(whole(&p), "in the last field");
    PARSED(&p, "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\0\r\nX-B: c\r\n\r\n");
    cr_expect_not(whole(&p), "at the end of a value");
    PARSED(&p, "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\0 40\r\n\r\n");
    cr_expect_not(whole(&p), "in Content-Length");
}

/* libmicrohttpd joins a continuation line to the field's name, in a copy
 * it keeps elsewhere: the walk meets a name that is not where the line
 * was. */
Test(head, an_obs_fold_is_not_where_the_line_was)
{
    parsed p;
    PARSED(&p, "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\nX-B: c\r\n\r\n");
    static char copy[] = "X-Ab";
    p.fields[1].name = copy;
    p.fields[1].name_len = strlen(copy);
    cr_expect_not(whole(&p));
}

Test(head, bytes_past_the_last_line_are_not_the_empty_line)
{
    parsed p;
    PARSED(&p, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_expect(whole(&p));
    /* Two NULs may be CRLF or LF LF (an empty line after a bare LF):
     * one is a line end with no empty line after it. */
    p.size -= 3;
    cr_expect_not(whole(&p), "no empty line");
    PARSED(&p, "GET / HTTP/1.1\r\nHost: x\r\n\r\n\r\n");
    cr_expect_not(whole(&p), "two empty lines are more than the head");
}
