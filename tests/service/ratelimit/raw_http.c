/* raw_http.c: libcurl, one easy handle per client. */
#include "raw_http.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct raw_client {
    CURL *curl;
    int port;
};

raw_client *raw_client_new(int port)
{
    raw_client *c = calloc(1, sizeof *c);
    if (c == NULL)
        abort();
    c->curl = curl_easy_init();
    c->port = port;
    return c;
}

void raw_client_free(raw_client *c)
{
    curl_easy_cleanup(c->curl);
    free(c);
}

/* Copies the value of "name: value" into out when line is that header. */
static void header_value(const char *line, size_t len, const char *name,
                         char *out, size_t size)
{
    size_t n = strlen(name);
    if (len <= n + 1 || strncasecmp(line, name, n) != 0 || line[n] != ':')
        return;
    const char *at = line + n + 1;
    const char *end = line + len;
    while (at < end && *at == ' ')
        at++;
    while (end > at && (end[-1] == '\r' || end[-1] == '\n'))
        end--;
    snprintf(out, size, "%.*s", (int)(end - at), at);
}

static size_t on_header(char *line, size_t size, size_t count, void *arg)
{
    raw_answer *a = arg;
    size_t len = size * count;
    header_value(line, len, "Retry-After", a->retry_after,
                 sizeof a->retry_after);
    header_value(line, len, "RateLimit-Policy", a->policy, sizeof a->policy);
    header_value(line, len, "RateLimit", a->ratelimit, sizeof a->ratelimit);
    return len;
}

static size_t on_body(char *data, size_t size, size_t count, void *arg)
{
    raw_answer *a = arg;
    size_t len = size * count;
    size_t have = strlen(a->body);
    size_t room = sizeof a->body - 1 - have;
    memcpy(a->body + have, data, len < room ? len : room);
    a->body[have + (len < room ? len : room)] = '\0';
    return len;
}

raw_answer raw_get(raw_client *c, const char *path, const char *forwarded_for)
{
    raw_answer a = {0};
    char url[512];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", c->port, path);
    struct curl_slist *headers = NULL;
    char xff[128];
    if (forwarded_for != NULL) {
        snprintf(xff, sizeof xff, "X-Forwarded-For: %s", forwarded_for);
        headers = curl_slist_append(headers, xff);
    }
    curl_easy_reset(c->curl);
    curl_easy_setopt(c->curl, CURLOPT_URL, url);
    curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c->curl, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(c->curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c->curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c->curl, CURLOPT_HEADERDATA, &a);
    curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, &a);
    if (curl_easy_perform(c->curl) == CURLE_OK)
        curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &a.status);
    curl_slist_free_all(headers);
    return a;
}
