/* head.c: fuzzes the request-head rules (http/head.h) that stand between
 * libmicrohttpd's lenient parse and everything that believes a header:
 * the framing (one Content-Length, no transfer coding), the Host, the
 * field names and values, and the query's argument count.
 *
 * Input: a version line ("HTTP/1.1"), a request target line, then one
 * header field per line, its name up to the first ':' and its value after
 * it, as libmicrohttpd would hand them over. NUL bytes stay in the fields
 * (lengths are kept), as they may in a parse. An accepted head must keep
 * every rule: each name a token, no control byte in a value but tab, at
 * most one Content-Length, exactly one Host for HTTP/1.1 and at most one
 * for any, no Transfer-Encoding, at most HEAD_FIELDS_MAX fields; an
 * accepted target is at most HEAD_TARGET_MAX bytes with at most
 * HEAD_QUERY_ARGS_MAX arguments. A refusal names a 4xx or 501. The walk
 * over the head libmicrohttpd parsed in place (head_lines_whole) reads
 * nothing outside the buffer it is given. */
#include <stdbool.h>
#include <strings.h>

#include "fuzz.h"
#include "http/head.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

/* The next line of [*at, end) (without its LF): its start and length. */
static const char *next_line(const char **at, const char *end, size_t *len)
{
    const char *line = *at;
    const char *lf = memchr(line, '\n', (size_t)(end - line));
    *len = (size_t)((lf != NULL ? lf : end) - line);
    *at = lf != NULL ? lf + 1 : end;
    return line;
}

static bool is_named(const head_field *f, const char *name)
{
    return f->name_len == strlen(name) &&
           strncasecmp(f->name, name, f->name_len) == 0;
}

static void expect_kept(const head_field *fields, size_t count,
                        const char *version)
{
    if (count > HEAD_FIELDS_MAX)
        abort();
    size_t lengths = 0, hosts = 0;
    for (size_t i = 0; i < count; i++) {
        const head_field *f = &fields[i];
        if (f->name_len == 0)
            abort();
        for (size_t j = 0; j < f->name_len; j++) {
            unsigned char c = (unsigned char)f->name[j];
            if (c <= ' ' || c >= 0x7f || strchr("\"(),/:;<=>?@[\\]{}", c))
                abort();
        }
        for (size_t j = 0; j < f->value_len; j++) {
            unsigned char c = (unsigned char)f->value[j];
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                abort();
        }
        lengths += is_named(f, "Content-Length");
        hosts += is_named(f, "Host");
        if (is_named(f, "Transfer-Encoding"))
            abort();
    }
    if (lengths > 1 || hosts > 1 ||
        (hosts == 0 && strcmp(version, "HTTP/1.1") == 0))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *at = (const char *)data;
    const char *end = at + size;
    size_t len;
    const char *line = next_line(&at, end, &len);
    char *version = fuzz_text((const uint8_t *)line, len);
    line = next_line(&at, end, &len);
    char *target = fuzz_text((const uint8_t *)line, len);
    head_field fields[HEAD_FIELDS_MAX + 8] = {{0}};
    size_t count = 0;
    while (at < end && count < sizeof fields / sizeof *fields) {
        line = next_line(&at, end, &len);
        const char *colon = memchr(line, ':', len);
        size_t name_len = colon != NULL ? (size_t)(colon - line) : len;
        fields[count++] =
            (head_field){line, name_len, colon != NULL ? colon + 1 : line + len,
                         colon != NULL ? len - name_len - 1 : 0};
    }
    /* The walk reads nothing outside the buffer it is given, whatever
     * the fields point at within it. */
    (void)head_lines_whole(fields, count, (const char *)data,
                           (const char *)data + size);
    head_refusal why;
    if (head_acceptable(fields, count, version, &why))
        expect_kept(fields, count, version);
    else if (why.status < 400 || why.status > 501 || why.code == NULL ||
             why.message == NULL)
        abort();
    if (head_target_acceptable(target, &why)) {
        if (strlen(target) > HEAD_TARGET_MAX ||
            head_query_args(target) > HEAD_QUERY_ARGS_MAX)
            abort();
    } else if (why.status != 414) {
        abort();
    }
    free(version);
    free(target);
    return 0;
}
