/* streams.c */
#include "streams.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

client_stream *streams_open(const e2e_server *server, const char *path,
                            const e2e_player *signer,
                            const char *const *extra_headers)
{
    char base[64], errbuf[256];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", server->port);
    client_stream *s =
        client_stream_open(base, path, signer ? &signer->key : NULL,
                           extra_headers, STREAM_WAIT_MS, errbuf);
    cr_assert_not_null(s, "GET %s: %s", path, errbuf);
    return s;
}

json_t *streams_sse_items(const char *body)
{
    json_t *items = json_array();
    const char *p = body;
    const char *end;
    /* Events are separated by a blank line. */
    while ((end = strstr(p, "\n\n")) != NULL) {
        json_t *id = json_null();
        json_t *data = NULL;
        const char *line = p;
        while (line < end) {
            const char *eol = memchr(line, '\n', (size_t)(end - line));
            if (eol == NULL)
                eol = end;
            if (strncmp(line, "id: ", 4) == 0)
                id = json_integer(atoll(line + 4));
            else if (strncmp(line, "data: ", 6) == 0)
                data = json_loadb(line + 6, (size_t)(eol - line - 6), 0, NULL);
            line = eol + 1;
        }
        if (data != NULL)
            e2e_record_stream_item(data);
        if (data != NULL)
            json_array_append_new(
                items, json_pack("{s:o,s:o}", "id", id, "data", data));
        else
            json_decref(id);
        p = end + 2;
    }
    return items;
}

bool streams_wait_id(client_stream *s, long long id)
{
    /* Compact JSON holds no newline, so only an id line ends this way. */
    char needle[40];
    snprintf(needle, sizeof needle, "id: %lld\n", id);
    if (!client_stream_wait_for(s, needle, 0, STREAM_WAIT_MS))
        return false;
    /* And the rest of its item, to the blank line: an item may come in
     * more than one piece. */
    const char *body = client_stream_body(s, NULL);
    size_t at = (size_t)(strstr(body, needle) - body);
    return client_stream_wait_for(s, "\n\n", at, STREAM_WAIT_MS);
}

void streams_more_descriptors(long needed)
{
    struct rlimit limit;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &limit), 0);
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < (rlim_t)needed) {
        struct rlimit raised = {(rlim_t)needed, (rlim_t)needed};
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            return;
    }
    limit.rlim_cur = limit.rlim_max;
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
    cr_assert(limit.rlim_cur == RLIM_INFINITY ||
                  limit.rlim_cur >= (rlim_t)needed,
              "open files are limited to %llu, and this test needs %ld "
              "(a descriptor a stream, here and in pbemd): raise ulimit -Hn",
              (unsigned long long)limit.rlim_cur, needed);
}
