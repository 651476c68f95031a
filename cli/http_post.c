/* http_post.c: see http_post.h. */
#include "http_post.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ledger/httpsig.h"

typedef struct target {
    char host[256];      /* without brackets */
    char port[8];        /* "80" when the URL names none */
    char authority[270]; /* host[:port] as the URL wrote it */
    char base[512];      /* the URL's path, "" when none */
} target;

static bool fail(char *error, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool fail(char *error, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(error, 256, fmt, args);
    va_end(args);
    return false;
}

bool http_post_takes(const char *url)
{
    return url != NULL && strncasecmp(url, "http://", 7) == 0;
}

/* "http://host[:port][/base]", host a name, an IPv4 address or an IPv6
 * one in brackets. */
static bool parse(const char *url, target *t)
{
    memset(t, 0, sizeof *t);
    const char *p = url + 7;
    size_t authority = strcspn(p, "/?#");
    if (authority == 0 || authority >= sizeof t->authority)
        return false;
    memcpy(t->authority, p, authority);
    const char *rest = p + authority;
    if (*rest == '/') {
        size_t base = strcspn(rest, "?#");
        while (base > 0 && rest[base - 1] == '/')
            base--;
        if (base >= sizeof t->base)
            return false;
        memcpy(t->base, rest, base);
    }
    const char *host = t->authority, *colon;
    size_t host_len;
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (close == NULL)
            return false;
        host++;
        host_len = (size_t)(close - host);
        colon = close[1] == ':' ? close + 1 : NULL;
        if (close[1] != '\0' && colon == NULL)
            return false;
    } else {
        colon = strrchr(host, ':');
        host_len = colon ? (size_t)(colon - host) : strlen(host);
    }
    if (host_len == 0 || host_len >= sizeof t->host)
        return false;
    memcpy(t->host, host, host_len);
    const char *port = colon ? colon + 1 : "80";
    if (strlen(port) == 0 || strlen(port) >= sizeof t->port ||
        strspn(port, "0123456789") != strlen(port))
        return false;
    snprintf(t->port, sizeof t->port, "%s", port);
    return true;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits for events on fd until the deadline; false when it passed. */
static bool wait_for(int fd, short events, double deadline)
{
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = fd, .events = events};
        int ready = poll(&p, 1, (int)(left * 1000) + 1);
        if (ready > 0)
            return true;
        if (ready < 0 && errno != EINTR)
            return false;
    }
}

/* A connected non-blocking socket to t, or -1 with error filled. */
static int connect_to(const target *t, double deadline, char *error)
{
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_ADDRCONFIG};
    struct addrinfo *found = NULL;
    int rc = getaddrinfo(t->host, t->port, &hints, &found);
    if (rc != 0) {
        fail(error, "cannot resolve %s: %s", t->host, gai_strerror(rc));
        return -1;
    }
    int fd = -1, why = 0;
    for (struct addrinfo *a = found; a != NULL && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    a->ai_protocol);
        if (fd < 0) {
            why = errno;
            continue;
        }
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
            break;
        int err = errno;
        socklen_t len = sizeof err;
        if (err == EINPROGRESS && wait_for(fd, POLLOUT, deadline) &&
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
            break;
        why = err == EINPROGRESS ? ETIMEDOUT : err;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(found);
    if (fd < 0)
        fail(error, "cannot connect to %s: %s", t->authority, strerror(why));
    return fd;
}

static bool send_all(int fd, const char *bytes, size_t length, double deadline,
                     char *error)
{
    while (length > 0) {
        ssize_t sent = send(fd, bytes, length, MSG_NOSIGNAL);
        if (sent > 0) {
            bytes += sent;
            length -= (size_t)sent;
            continue;
        }
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
            wait_for(fd, POLLOUT, deadline))
            continue;
        return fail(error, "sending to the server failed: %s",
                    sent < 0 && errno != EAGAIN ? strerror(errno)
                                                : "no progress in time");
    }
    return true;
}

/* Reads until the server closes (the request said Connection: close), at
 * most HTTP_POST_ANSWER_MAX bytes; *got the bytes read. */
static char *read_answer(int fd, double deadline, size_t *got, char *error)
{
    char *in = malloc(HTTP_POST_ANSWER_MAX + 1);
    if (in == NULL)
        abort();
    size_t used = 0;
    for (;;) {
        if (used == HTTP_POST_ANSWER_MAX) {
            free(in);
            fail(error, "the server's answer is longer than %d bytes",
                 HTTP_POST_ANSWER_MAX);
            return NULL;
        }
        ssize_t n = recv(fd, in + used, HTTP_POST_ANSWER_MAX - used, 0);
        if (n > 0) {
            used += (size_t)n;
            continue;
        }
        if (n == 0)
            break;
        if (errno == EINTR)
            continue;
        if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
            wait_for(fd, POLLIN, deadline))
            continue;
        /* A reset after a whole answer (the server closed without reading
         * all of a refused body) still leaves that answer. */
        if (errno == ECONNRESET && used > 0)
            break;
        fail(error, "reading the server's answer failed: %s",
             errno == EAGAIN ? "no answer in time" : strerror(errno));
        free(in);
        return NULL;
    }
    in[used] = '\0';
    *got = used;
    return in;
}

/* Fills out from the raw answer: the status line's code, and the body
 * after the headers (Content-Length bytes of it when given). */
static bool parse_answer(const char *raw, size_t length, client_response *out,
                         char *error)
{
    int status = 0;
    if (sscanf(raw, "HTTP/1.%*[01] %3d", &status) != 1 || status < 100 ||
        status > 599)
        return fail(error, "the server did not answer in HTTP");
    const char *end = strstr(raw, "\r\n\r\n");
    if (end == NULL)
        return fail(error, "the server's answer ended in its headers");
    const char *body = end + 4;
    size_t body_len = length - (size_t)(body - raw);
    for (const char *line = strstr(raw, "\r\n"); line != NULL && line < end;
         line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "Content-Length:", 15) == 0) {
            unsigned long long said = strtoull(line + 17, NULL, 10);
            if (said < body_len)
                body_len = (size_t)said;
        }
    }
    out->status = status;
    if (body_len > 0) {
        out->body = malloc(body_len + 1);
        if (out->body == NULL)
            abort();
        memcpy(out->body, body, body_len);
        out->body[body_len] = '\0';
        out->json = json_loadb(out->body, body_len, 0, NULL);
    }
    return true;
}

/* The request's head: the line, Host, the type and length, the
 * signature's fields. NULL with error filled when it cannot be signed. */
static char *head_of(const target *t, const char *path, const char *body,
                     size_t length, const char *content_type,
                     const client_key *signer, char *error)
{
    uint8_t bytes[16];
    char nonce[33];
    randombytes_buf(bytes, sizeof bytes);
    sodium_bin2hex(nonce, sizeof nonce, bytes, sizeof bytes);
    const char *components[] = {"@method", "@path", "content-digest"};
    httpsig_request req = {.method = "POST",
                           .target = path,
                           .scheme = "http",
                           .body = (const unsigned char *)body,
                           .body_len = length};
    httpsig_headers signed_headers;
    httpsig_error err;
    if (!httpsig_sign(&req, components, 3, signer->key_id, nonce,
                      (int64_t)time(NULL), NULL, signer->secret_key,
                      &signed_headers, &err)) {
        fail(error, "cannot sign: %.200s", err.message);
        return NULL;
    }
    char *head = NULL;
    int n = asprintf(&head,
                     "POST %s%s HTTP/1.0\r\nHost: %s\r\n"
                     "Content-Type: %s\r\nContent-Length: %zu\r\n"
                     "Signature-Input: %s\r\nSignature: %s\r\n"
                     "Content-Digest: %s\r\nConnection: close\r\n\r\n",
                     t->base, path, t->authority, content_type, length,
                     signed_headers.signature_input, signed_headers.signature,
                     signed_headers.content_digest);
    httpsig_headers_free(&signed_headers);
    if (n < 0)
        abort();
    return head;
}

bool http_post_send(const char *url, const char *path, const char *body,
                    size_t length, const char *content_type,
                    const client_key *signer, client_response *out, char *error)
{
    memset(out, 0, sizeof *out);
    target t;
    if (!http_post_takes(url) || !parse(url, &t))
        return fail(error, "%.200s is not an http://host[:port] URL", url);
    double deadline = now_s() + HTTP_POST_TIMEOUT_S;
    char *head = head_of(&t, path, body, length, content_type, signer, error);
    if (head == NULL)
        return false;
    int fd = connect_to(&t, deadline, error);
    bool ok = fd >= 0 && send_all(fd, head, strlen(head), deadline, error);
    free(head);
    /* A refusal at the headers (413) may come while the body is still on
     * its way: the answer is read all the same. */
    char send_error[256] = "";
    bool body_sent = ok && send_all(fd, body, length, deadline, send_error);
    size_t got = 0;
    char *raw = ok ? read_answer(fd, deadline, &got, error) : NULL;
    if (fd >= 0)
        close(fd);
    if (raw == NULL) {
        if (ok && !body_sent)
            snprintf(error, 256, "%s", send_error);
        return false;
    }
    ok = parse_answer(raw, got, out, error);
    free(raw);
    return ok;
}
