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
