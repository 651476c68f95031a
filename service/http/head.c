/* head.c: see head.h. */
#include "http/head.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

/* RFC 9110 5.6.2: tchar. */
static bool token_char(unsigned char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9'))
        return true;
    return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool is_token(const char *text, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!token_char((unsigned char)text[i]))
            return false;
    return true;
}

/* RFC 9110 5.5: a field value holding NUL, CR, LF or another control
 * byte (HTAB aside) is invalid; a NUL would cut the value we read short
 * of the one a proxy or a log saw. */
static bool holds_control_byte(const char *value, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return true;
    }
    return false;
}

static bool named(const head_field *field, const char *name)
{
    return field->name_len == strlen(name) &&
           strncasecmp(field->name, name, field->name_len) == 0;
}

static bool refuse(head_refusal *why, int status, const char *code,
                   const char *message)
{
    *why = (head_refusal){status, code, message};
    return false;
}

bool head_acceptable(const head_field *fields, size_t count,
                     const char *version, head_refusal *why)
{
    if (count > HEAD_FIELDS_MAX)
        return refuse(why, 431, "too_many_header_fields",
                      "the request carries more header fields than the 100 "
                      "read: send fewer");
    size_t lengths = 0, hosts = 0;
    const head_field *coding = NULL;
    for (size_t i = 0; i < count; i++) {
        const head_field *f = &fields[i];
        /* RFC 9112 5.1: no whitespace between a field name and its
         * colon; a proxy may read "Transfer-Encoding : chunked" as the
         * coding we would not see. */
        if (!is_token(f->name, f->name_len))
            return refuse(why, 400, "bad_header",
                          "a header field name is not a token (letters, "
                          "digits and !#$%&'*+-.^_`|~, with nothing "
                          "between it and its colon)");
        if (holds_control_byte(f->value, f->value_len))
            return refuse(why, 400, "bad_header",
                          "a header value holds a control byte (NUL, CR, LF "
                          "or another below 0x20 but tab): send printable "
                          "text only");
        if (named(f, "Content-Length"))
            lengths++;
        else if (named(f, "Host"))
            hosts++;
        else if (named(f, "Transfer-Encoding") && coding == NULL)
            coding = f;
    }
    /* RFC 9112 6.3: a length a proxy may read otherwise than we do. */
    if (lengths > 1)
        return refuse(why, 400, "bad_content_length",
                      "Content-Length is given more than once: send it "
                      "once");
    /* RFC 9112 3.2. */
    if (hosts > 1)
        return refuse(why, 400, "bad_host",
                      "Host is given more than once: "
                      "send it once");
    if (hosts == 0 && version != NULL && strcmp(version, "HTTP/1.1") == 0)
        return refuse(why, 400, "bad_host",
                      "the request must carry a Host header (RFC 9112 3.2)");
    /* Every body here is signed whole (Content-Digest), so a client has
     * it all before sending and gains nothing from a chunked upload,
     * while libmicrohttpd 0.9.75 answers some malformed chunked bodies (a
     * chunk line past its buffer) with its own 500. A body must therefore
     * announce its length; any other coding libmicrohttpd would wait on
     * until the idle timeout. Both are answered before a body byte is
     * read. */
    if (coding != NULL) {
        if (coding->value_len == strlen("chunked") &&
            strncasecmp(coding->value, "chunked", coding->value_len) == 0)
            return refuse(why, 411, "length_required",
                          "send the body with a Content-Length header; "
                          "chunked transfer coding is not accepted");
        return refuse(why, 501, "unsupported_transfer_coding",
                      "transfer codings are not accepted: send the body "
                      "with a Content-Length header");
    }
    return true;
}

/* Whether p lies in [start, end). Pointers into other objects (a name
 * libmicrohttpd copied elsewhere) are compared as addresses only, never
 * read. */
static bool within(const char *p, const char *start, const char *end)
{
    return (uintptr_t)p >= (uintptr_t)start && (uintptr_t)p < (uintptr_t)end;
}

bool head_lines_whole(const head_field *fields, size_t count, const char *start,
                      const char *end)
{
    if (count == 0)
        return true;
    const char *at = fields[0].name;
    for (size_t i = 0; i < count; i++) {
        const head_field *f = &fields[i];
        /* The name where the previous line ended, then its colon. */
        if (f->name != at || !within(at, start, end) ||
            f->name_len >= (size_t)(end - at) || at[f->name_len] != '\0')
            return false;
        at += f->name_len + 1;
        /* Only the whitespace libmicrohttpd skipped before the value. */
        if (!within(f->value, at, end) && f->value != at)
            return false;
        for (; at < f->value; at++)
            if (*at != ' ' && *at != '\t')
                return false;
        if (f->value_len >= (size_t)(end - at))
            return false;
        at += f->value_len;
        if (i + 1 == count)
            break;
        /* CRLF became two NULs, a bare LF one; a line cannot begin with
         * a NUL, so a second one is a CR's. */
        if (*at != '\0')
            return false;
        at += at + 1 < end && at[1] == '\0' ? 2 : 1;
    }
    /* The last line's end and the empty line: two to four NULs (CRLF or
     * LF each), nothing else. */
    size_t rest = (size_t)(end - at);
    if (rest < 2 || rest > 4)
        return false;
    for (; at < end; at++)
        if (*at != '\0')
            return false;
    return true;
}

size_t head_query_args(const char *target)
{
    const char *query = strchr(target, '?');
    if (query == NULL)
        return 0;
    size_t args = 1;
    for (const char *p = query + 1; *p != '\0'; p++)
        if (*p == '&')
            args++;
    return args;
}

bool head_target_acceptable(const char *target, head_refusal *why)
{
    if (strlen(target) > HEAD_TARGET_MAX)
        return refuse(why, 414, "uri_too_long",
                      "the request target is longer than the 8192 bytes "
                      "read: send a shorter one");
    if (head_query_args(target) > HEAD_QUERY_ARGS_MAX)
        return refuse(why, 414, "too_many_query_arguments",
                      "the query holds more than the 64 arguments read: "
                      "send fewer");
    return true;
}
