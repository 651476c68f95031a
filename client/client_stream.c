/* client_stream.c */
#include "client_stream.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ledger/httpsig.h"

#define HEADERS_MAX (16 * 1024)

struct client_stream {
    int fd;
    long status;
    char headers[HEADERS_MAX + 1]; /* the header block, NUL-terminated */
    /* Bytes after the headers not yet decoded. */
    char *raw;
    size_t raw_len, raw_size;
    /* The decoded body. */
    char *body;
    size_t body_len, body_size;
    bool chunked;
    long long length;   /* Content-Length, or -1 */
    size_t chunk_left;  /* data bytes left in the current chunk */
    int crlf_left;      /* bytes of the CRLF after a chunk still to skip */
    bool ended;
    bool broken;
};

static void grow(char **buf, size_t *size, size_t need)
{
    if (need <= *size)
        return;
    size_t size2 = *size ? *size : 4096;
    while (size2 < need)
        size2 *= 2;
    char *grown = realloc(*buf, size2);
    if (grown == NULL)
        abort();
    *buf = grown;
    *size = size2;
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void body_add(client_stream *s, const char *data, size_t n)
{
    grow(&s->body, &s->body_size, s->body_len + n + 1);
    memcpy(s->body + s->body_len, data, n);
    s->body_len += n;
    s->body[s->body_len] = '\0';
}

/* Moves what it can from raw to body. */
static void decode(client_stream *s)
{
    size_t at = 0;
    if (!s->chunked) {
        body_add(s, s->raw, s->raw_len);
        s->raw_len = 0;
        if (s->length >= 0 && (long long)s->body_len >= s->length)
            s->ended = true;
        return;
    }
    while (at < s->raw_len && !s->ended) {
        if (s->crlf_left > 0) {
            at++;
            s->crlf_left--;
            continue;
        }
        if (s->chunk_left > 0) {
            size_t n = s->raw_len - at;
            if (n > s->chunk_left)
                n = s->chunk_left;
            body_add(s, s->raw + at, n);
            at += n;
            s->chunk_left -= n;
            if (s->chunk_left == 0)
                s->crlf_left = 2;
            continue;
        }
        char *line_end = memmem(s->raw + at, s->raw_len - at, "\r\n", 2);
        if (line_end == NULL)
            break;
        size_t size = strtoul(s->raw + at, NULL, 16);
        at = (size_t)(line_end - s->raw) + 2;
        if (size == 0)
            s->ended = true;
        s->chunk_left = size;
    }
    memmove(s->raw, s->raw + at, s->raw_len - at);
    s->raw_len -= at;
}

/* One read of what the socket has (waiting at most timeout_ms). False
 * when nothing came in time or the connection ended. */
static bool read_some(client_stream *s, int timeout_ms)
{
    if (s->ended || s->broken)
        return false;
    struct pollfd p = {.fd = s->fd, .events = POLLIN};
    int ready = poll(&p, 1, timeout_ms < 0 ? 0 : timeout_ms);
    if (ready <= 0)
        return false;
    grow(&s->raw, &s->raw_size, s->raw_len + 65536);
    ssize_t n = recv(s->fd, s->raw + s->raw_len, 65536, 0);
    if (n <= 0) {
        s->broken = true;
        /* A body without length or chunks ends when the server closes. */
        if (!s->chunked && s->length < 0)
            s->ended = true;
        return false;
    }
    s->raw_len += (size_t)n;
    decode(s);
    return true;
}

static bool connect_to(const char *base_url, int *fd, char *host,
                       size_t host_size, char *errbuf)
{
    const char *p = strstr(base_url, "://");
    p = p ? p + 3 : base_url;
    const char *colon = strrchr(p, ':');
    if (colon == NULL || (size_t)(colon - p) >= host_size) {
        snprintf(errbuf, 256, "%.200s has no host:port", base_url);
        return false;
    }
    memcpy(host, p, (size_t)(colon - p));
    host[colon - p] = '\0';
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t)atoi(colon + 1))};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        snprintf(errbuf, 256, "%.200s is not an IPv4 address", host);
        return false;
    }
    *fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (*fd < 0 || connect(*fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        snprintf(errbuf, 256, "cannot connect to %.200s: %s", base_url,
                 strerror(errno));
        if (*fd >= 0)
            close(*fd);
        return false;
    }
    return true;
}

/* The one header a stream's signature covers: Pbem-On-Behalf-Of. */
static const char *covered_header(void *ctx, const char *name)
{
    return strcmp(name, "pbem-on-behalf-of") == 0 ? ctx : NULL;
}

/* Appends the signature headers of GET path to request (and
 * Pbem-On-Behalf-Of, covered, unless on_behalf_of is NULL). */
static bool sign(const char *path, const client_key *signer,
                 const char *on_behalf_of, char *request, size_t size,
                 char *errbuf)
{
    uint8_t bytes[16];
    char nonce[33];
    randombytes_buf(bytes, sizeof bytes);
    sodium_bin2hex(nonce, sizeof nonce, bytes, sizeof bytes);
    const char *components[4] = {"@method", "@path"};
    size_t count = 2;
    if (strchr(path, '?') != NULL)
        components[count++] = "@query";
    if (on_behalf_of != NULL)
        components[count++] = "pbem-on-behalf-of";
    httpsig_request req = {.method = "GET",
                           .target = path,
                           .scheme = "http",
                           .header = on_behalf_of ? covered_header : NULL,
                           .header_ctx = (void *)on_behalf_of};
    httpsig_headers h;
    httpsig_error err;
    if (!httpsig_sign(&req, components, count, signer->key_id, nonce,
                      (int64_t)time(NULL), NULL, signer->secret_key, &h,
                      &err)) {
        snprintf(errbuf, 256, "cannot sign: %.200s", err.message);
        return false;
    }
    size_t used = strlen(request);
    snprintf(request + used, size - used,
             "Signature-Input: %s\r\nSignature: %s\r\n", h.signature_input,
             h.signature);
    httpsig_headers_free(&h);
    if (on_behalf_of != NULL) {
        used = strlen(request);
        snprintf(request + used, size - used, "Pbem-On-Behalf-Of: %s\r\n",
                 on_behalf_of);
    }
    return true;
}

client_stream *client_stream_open(const char *base_url, const char *path,
                                  const client_key *signer,
                                  const char *const *extra_headers,
                                  int timeout_ms, char *errbuf)
{
    return client_stream_open_for(base_url, path, signer, NULL,
                                  extra_headers, timeout_ms, errbuf);
}

client_stream *client_stream_open_for(const char *base_url, const char *path,
                                      const client_key *signer,
                                      const char *on_behalf_of,
                                      const char *const *extra_headers,
                                      int timeout_ms, char *errbuf)
{
    int fd;
    char host[64];
    if (!connect_to(base_url, &fd, host, sizeof host, errbuf))
        return NULL;
    char request[8192];
    snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s\r\n",
             path, host);
    if (signer != NULL &&
        !sign(path, signer, on_behalf_of, request, sizeof request, errbuf)) {
        close(fd);
        return NULL;
    }
    for (int i = 0; extra_headers && extra_headers[i]; i++) {
        size_t used = strlen(request);
        snprintf(request + used, sizeof request - used, "%s\r\n",
                 extra_headers[i]);
    }
    size_t used = strlen(request);
    snprintf(request + used, sizeof request - used, "\r\n");
    size_t len = strlen(request);
    if (send(fd, request, len, MSG_NOSIGNAL) != (ssize_t)len) {
        snprintf(errbuf, 256, "cannot send the request: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    client_stream *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    s->fd = fd;
    s->length = -1;
    /* The headers: read until the blank line. */
    long long deadline = now_ms() + timeout_ms;
    char *end = NULL;
    while ((end = memmem(s->raw ? s->raw : "", s->raw_len, "\r\n\r\n", 4)) ==
           NULL) {
        long long left = deadline - now_ms();
        if (left <= 0 || s->raw_len > HEADERS_MAX) {
            snprintf(errbuf, 256, "no complete headers within %d ms",
                     timeout_ms);
            client_stream_close(s);
            return NULL;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)left) <= 0)
            continue;
        grow(&s->raw, &s->raw_size, s->raw_len + 65536);
        ssize_t n = recv(fd, s->raw + s->raw_len, 65536, 0);
        if (n <= 0) {
            snprintf(errbuf, 256, "the server closed before its headers");
            client_stream_close(s);
            return NULL;
        }
        s->raw_len += (size_t)n;
    }
    size_t head_len = (size_t)(end - s->raw) + 4;
    memcpy(s->headers, s->raw, head_len);
    s->headers[head_len] = '\0';
    memmove(s->raw, s->raw + head_len, s->raw_len - head_len);
    s->raw_len -= head_len;
    s->status = strtol(s->headers + 9, NULL, 10);
    const char *coding = client_stream_header(s, "Transfer-Encoding");
    s->chunked = coding != NULL && strncasecmp(coding, "chunked", 7) == 0;
    const char *length = client_stream_header(s, "Content-Length");
    if (!s->chunked && length != NULL)
        s->length = atoll(length);
    decode(s);
    return s;
}

long client_stream_status(const client_stream *s)
{
    return s->status;
}

const char *client_stream_header(const client_stream *s, const char *name)
{
    /* Values are returned from a static copy: one header at a time. */
    static __thread char value[1024];
    size_t n = strlen(name);
    for (const char *line = strstr(s->headers, "\r\n"); line != NULL;
         line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, n) == 0 && start[n] == ':') {
            const char *v = start + n + 1;
            while (*v == ' ')
                v++;
            const char *stop = strstr(v, "\r\n");
            size_t len = stop ? (size_t)(stop - v) : strlen(v);
            if (len >= sizeof value)
                len = sizeof value - 1;
            memcpy(value, v, len);
            value[len] = '\0';
            return value;
        }
    }
    return NULL;
}

bool client_stream_wait_for(client_stream *s, const char *needle, size_t from,
                            int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        if (s->body_len > from &&
            memmem(s->body + from, s->body_len - from, needle,
                   strlen(needle)) != NULL)
            return true;
        long long left = deadline - now_ms();
        if (left <= 0 || s->ended || s->broken)
            return false;
        read_some(s, (int)left);
    }
}

bool client_stream_wait_end(client_stream *s, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    while (!s->ended && !s->broken) {
        long long left = deadline - now_ms();
        if (left <= 0)
            break;
        read_some(s, (int)left);
    }
    return s->ended || s->broken;
}

bool client_stream_poll(client_stream *s)
{
    while (read_some(s, 0))
        ;
    return !s->ended && !s->broken;
}

const char *client_stream_body(const client_stream *s, size_t *len)
{
    if (len != NULL)
        *len = s->body_len;
    return s->body != NULL ? s->body : "";
}

void client_stream_drop(client_stream *s, size_t n)
{
    if (n > s->body_len)
        n = s->body_len;
    memmove(s->body, s->body + n, s->body_len - n);
    s->body_len -= n;
    if (s->body != NULL)
        s->body[s->body_len] = '\0';
}

bool client_stream_ended(const client_stream *s)
{
    return s->ended || s->broken;
}

int client_stream_fd(const client_stream *s)
{
    return s->fd;
}

void client_stream_close(client_stream *s)
{
    if (s == NULL)
        return;
    close(s->fd);
    free(s->raw);
    free(s->body);
    free(s);
}
