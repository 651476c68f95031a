/* imap_wire.c: tagged commands and their responses over
 * curl_easy_send/curl_easy_recv. */
#include "mailin/imap_wire.h"

#include <curl/curl.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

/* A response's text (its lines, without the literals) longer than this is
 * not one pbemd asked for: the SEARCH of a mailbox with a few hundred
 * thousand unseen messages still fits. */
#define TEXT_MAX ((size_t)4 << 20)
#define READ_CHUNK 65536

typedef struct buffer {
    char *data;
    size_t len, cap;
} buffer;

struct imap_wire {
    CURL *easy;
    curl_socket_t socket;
    int timeout_ms;
    int stop_fd;
    size_t literal_max;
    unsigned tag;
    unsigned commands;
    char idle_tag[16]; /* "" unless idling */
    bool broken;
    /* Bytes read and not yet used: in.data[start, in.len). */
    buffer in;
    size_t start;
    /* The response being read. */
    buffer text;
    buffer literal;
    bool has_literal;
    char said[320];
    char curl_error[CURL_ERROR_SIZE];
};

static void reserve(buffer *b, size_t more)
{
    if (b->cap - b->len > more)
        return;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap - b->len <= more)
        cap *= 2;
    char *data = realloc(b->data, cap);
    if (data == NULL)
        abort();
    b->data = data;
    b->cap = cap;
}

static void append(buffer *b, const char *bytes, size_t len)
{
    reserve(b, len);
    memcpy(b->data + b->len, bytes, len);
    b->len += len;
    b->data[b->len] = '\0';
}

static bool fail(imap_wire *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Marks the session broken and keeps why; always false. */
static bool fail(imap_wire *w, const char *fmt, ...)
{
    /* The first cause is the one worth telling. */
    if (!w->broken) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(w->said, sizeof w->said, fmt, args);
        va_end(args);
    }
    w->broken = true;
    return false;
}

/* Waits until the socket is ready for events; false (the session broken)
 * on timeout or when poll fails. A stop request does not cut this short:
 * the command in progress (marking a handled message, say) gets its
 * answer, within the timeout. */
static bool wait_socket(imap_wire *w, short events)
{
    struct pollfd fd = {.fd = (int)w->socket, .events = events};
    int ready;
    do
        ready = poll(&fd, 1, w->timeout_ms);
    while (ready < 0 && errno == EINTR);
    if (ready < 0)
        return fail(w, "poll failed: %s", strerror(errno));
    if (ready == 0)
        return fail(w, "the server sent nothing for %d s",
                    w->timeout_ms / 1000);
    return true;
}

static bool send_all(imap_wire *w, const char *bytes, size_t len)
{
    while (len > 0) {
        size_t sent = 0;
        CURLcode rc = curl_easy_send(w->easy, bytes, len, &sent);
        if (rc == CURLE_AGAIN) {
            if (!wait_socket(w, POLLOUT))
                return false;
            continue;
        }
        if (rc != CURLE_OK)
            return fail(w, "writing to the server failed: %s",
                        curl_easy_strerror(rc));
        bytes += sent;
        len -= sent;
    }
    return true;
}

/* Reads what the connection has (at least one byte) into in. */
static bool fill(imap_wire *w)
{
    if (w->start > 0) {
        memmove(w->in.data, w->in.data + w->start, w->in.len - w->start);
        w->in.len -= w->start;
        w->start = 0;
    }
    reserve(&w->in, READ_CHUNK);
    for (;;) {
        size_t got = 0;
        CURLcode rc = curl_easy_recv(w->easy, w->in.data + w->in.len,
                                     w->in.cap - w->in.len - 1, &got);
        if (rc == CURLE_AGAIN) {
            if (!wait_socket(w, POLLIN))
                return false;
            continue;
        }
        if (rc != CURLE_OK)
            return fail(w, "reading from the server failed: %s",
                        curl_easy_strerror(rc));
        if (got == 0)
            return fail(w, "the server closed the connection");
        w->in.len += got;
        return true;
    }
}

/* The next line without its line end, copied to the end of text. */
static bool read_line(imap_wire *w, const char **line, size_t *len)
{
    size_t scanned = 0;
    for (;;) {
        char *from = w->in.data + w->start;
        size_t have = w->in.len - w->start;
        char *lf = have > scanned ? memchr(from + scanned, '\n', have - scanned)
                                  : NULL;
        if (lf != NULL) {
            size_t n = (size_t)(lf - from);
            *len = n > 0 && from[n - 1] == '\r' ? n - 1 : n;
            if (w->text.len + *len > TEXT_MAX)
                return fail(w, "the server's answer is longer than %zu bytes",
                            TEXT_MAX);
            size_t at = w->text.len;
            append(&w->text, from, *len);
            *line = w->text.data + at;
            w->start += n + 1;
            return true;
        }
        scanned = have;
        if (w->text.len + scanned > TEXT_MAX)
            return fail(w, "the server's answer is longer than %zu bytes",
                        TEXT_MAX);
        if (!fill(w))
            return false;
    }
}

/* The size of the literal a line announces at its end ("{n}" or the
 * non-synchronising "{n+}"); false when it announces none. */
static bool literal_size(const char *line, size_t len, size_t *size)
{
    if (len < 3 || line[len - 1] != '}')
        return false;
    size_t end = len - 1;
    if (line[end - 1] == '+')
        end--;
    size_t open = end;
    while (open > 0 && line[open - 1] >= '0' && line[open - 1] <= '9')
        open--;
    if (open == 0 || open == end || line[open - 1] != '{' || end - open > 12)
        return false;
    *size = (size_t)strtoull(line + open, NULL, 10);
    return true;
}

/* One whole response: a line, and for each literal it announces the
 * literal's bytes and the line that continues it. */
static bool read_response(imap_wire *w)
{
    w->text.len = 0;
    w->literal.len = 0;
    w->has_literal = false;
    reserve(&w->text, 0);
    w->text.data[0] = '\0';
    for (;;) {
        const char *line = NULL;
        size_t len = 0, size = 0;
        if (!read_line(w, &line, &len))
            return false;
        if (!literal_size(line, len, &size))
            return true;
        if (size > w->literal_max)
            return fail(w,
                        "the server sent %zu bytes where at most %zu were "
                        "asked for",
                        size, w->literal_max);
        while (w->in.len - w->start < size) {
            if (!fill(w))
                return false;
        }
        /* Only the first literal is kept: no command here asks for two. */
        if (!w->has_literal) {
            append(&w->literal, w->in.data + w->start, size);
            w->has_literal = true;
        }
        w->start += size;
    }
}

static bool starts_with_word(const char *text, const char *word)
{
    size_t len = strlen(word);
    return strncasecmp(text, word, len) == 0 &&
           (text[len] == ' ' || text[len] == '\0');
}

/* Reads responses up to the one tagged tag. */
static imap_wire_status read_until_tagged(imap_wire *w, const char *tag,
                                          imap_wire_untagged on_untagged,
                                          void *context)
{
    size_t tag_len = strlen(tag);
    for (;;) {
        if (!read_response(w))
            return IMAP_WIRE_BROKEN;
        const char *text = w->text.data;
        if (strncmp(text, "* ", 2) == 0) {
            if (on_untagged != NULL)
                on_untagged(context, text + 2,
                            w->has_literal ? w->literal.data : NULL,
                            w->literal.len);
            continue;
        }
        if (strncmp(text, tag, tag_len) != 0 || text[tag_len] != ' ') {
            fail(w, "the server wrote \"%.60s\" where an answer was expected",
                 text);
            return IMAP_WIRE_BROKEN;
        }
        const char *status = text + tag_len + 1;
        const char *words = strchr(status, ' ');
        snprintf(w->said, sizeof w->said, "%s", words ? words + 1 : "");
        if (starts_with_word(status, "OK"))
            return IMAP_WIRE_OK;
        if (starts_with_word(status, "NO"))
            return IMAP_WIRE_NO;
        return IMAP_WIRE_BAD;
    }
}

imap_wire_status imap_wire_command(imap_wire *w, imap_wire_untagged on_untagged,
                                   void *context, const char *fmt, ...)
{
    if (w->broken)
        return IMAP_WIRE_BROKEN;
    if (w->idle_tag[0] != '\0') {
        fail(w, "a command was sent while idling");
        return IMAP_WIRE_BROKEN;
    }
    char tag[16];
    snprintf(tag, sizeof tag, "p%u", ++w->tag);
    w->commands++;
    char line[1024];
    int head = snprintf(line, sizeof line, "%s ", tag);
    va_list args;
    va_start(args, fmt);
    int body = vsnprintf(line + head, sizeof line - (size_t)head, fmt, args);
    va_end(args);
    /* Commands are short and made here; one that does not fit is a bug. */
    if (body < 0 || (size_t)(head + body) + 3 > sizeof line)
        abort();
    memcpy(line + head + body, "\r\n", 3);
    if (!send_all(w, line, (size_t)(head + body) + 2))
        return IMAP_WIRE_BROKEN;
    return read_until_tagged(w, tag, on_untagged, context);
}

const char *imap_wire_said(const imap_wire *w)
{
    return w->said;
}

imap_wire_status imap_wire_idle_begin(imap_wire *w, bool *pending)
{
    *pending = false;
    if (w->broken)
        return IMAP_WIRE_BROKEN;
    snprintf(w->idle_tag, sizeof w->idle_tag, "p%u", ++w->tag);
    char line[32];
    int len = snprintf(line, sizeof line, "%s IDLE\r\n", w->idle_tag);
    if (!send_all(w, line, (size_t)len))
        return IMAP_WIRE_BROKEN;
    for (;;) {
        if (!read_response(w))
            return IMAP_WIRE_BROKEN;
        const char *text = w->text.data;
        if (text[0] == '+')
            break;
        if (strncmp(text, "* ", 2) == 0) {
            /* News before the go-ahead: the round has work already. */
            *pending = true;
            continue;
        }
        /* IDLE refused: its tagged answer, or nonsense. */
        size_t tag_len = strlen(w->idle_tag);
        bool tagged =
            strncmp(text, w->idle_tag, tag_len) == 0 && text[tag_len] == ' ';
        w->idle_tag[0] = '\0';
        if (!tagged) {
            fail(w, "the server wrote \"%.60s\" after IDLE", text);
            return IMAP_WIRE_BROKEN;
        }
        const char *words = strchr(text + tag_len + 1, ' ');
        snprintf(w->said, sizeof w->said, "%s", words ? words + 1 : "");
        return starts_with_word(text + tag_len + 1, "NO") ? IMAP_WIRE_NO
                                                          : IMAP_WIRE_BAD;
    }
    /* Bytes the server sent after its go-ahead may sit in our buffer, or
     * decrypted in TLS's, where poll(2) on the socket cannot see them. */
    if (w->in.len == w->start) {
        reserve(&w->in, READ_CHUNK);
        size_t got = 0;
        CURLcode rc = curl_easy_recv(w->easy, w->in.data + w->in.len,
                                     w->in.cap - w->in.len - 1, &got);
        if (rc == CURLE_OK)
            w->in.len += got; /* got 0: closed; the next read says so */
        if (rc != CURLE_AGAIN)
            *pending = true;
    }
    if (w->in.len > w->start)
        *pending = true;
    return IMAP_WIRE_OK;
}

imap_wire_status imap_wire_idle_end(imap_wire *w)
{
    if (w->broken)
        return IMAP_WIRE_BROKEN;
    if (w->idle_tag[0] == '\0')
        return IMAP_WIRE_OK;
    char tag[16];
    snprintf(tag, sizeof tag, "%s", w->idle_tag);
    w->idle_tag[0] = '\0';
    if (!send_all(w, "DONE\r\n", 6))
        return IMAP_WIRE_BROKEN;
    return read_until_tagged(w, tag, NULL, NULL);
}

unsigned imap_wire_commands(const imap_wire *w)
{
    return w->commands;
}

int imap_wire_socket(const imap_wire *w)
{
    return w->socket == CURL_SOCKET_BAD ? -1 : (int)w->socket;
}

/* libcurl's connect and login call this while they wait: a stop request
 * abandons them rather than waiting out the timeout (a server that drops
 * packets takes that long). */
static int on_progress(void *data, curl_off_t dltotal, curl_off_t dlnow,
                       curl_off_t ultotal, curl_off_t ulnow)
{
    (void)dltotal;
    (void)dlnow;
    (void)ultotal;
    (void)ulnow;
    const imap_wire *w = data;
    if (w->stop_fd < 0)
        return 0;
    struct pollfd fd = {.fd = w->stop_fd, .events = POLLIN};
    return poll(&fd, 1, 0) > 0 ? 1 : 0;
}

imap_wire *imap_wire_open(const imap_config *config, size_t literal_max,
                          int stop_fd, char *error, size_t size)
{
    imap_wire *w = calloc(1, sizeof *w);
    if (w == NULL)
        abort();
    w->socket = CURL_SOCKET_BAD;
    w->timeout_ms = config->timeout_seconds * 1000;
    w->stop_fd = stop_fd;
    w->literal_max = literal_max;
    w->easy = curl_easy_init();
    if (w->easy == NULL)
        abort();
    long use_ssl =
        config->starttls == IMAP_CONFIG_STARTTLS_REQUIRED ? (long)CURLUSESSL_ALL
        : config->starttls == IMAP_CONFIG_STARTTLS_TRY    ? (long)CURLUSESSL_TRY
                                                       : (long)CURLUSESSL_NONE;
    long timeout = config->timeout_seconds;
    CURL *e = w->easy;
    bool set =
        curl_easy_setopt(e, CURLOPT_URL, config->server) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "imap,imaps") == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_USERNAME, config->user) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_PASSWORD, config->password) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_USE_SSL, use_ssl) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_CONNECT_ONLY, 1L) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, timeout) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_TIMEOUT, timeout) == CURLE_OK &&
        /* Also bounds the LOGOUT libcurl sends when the session ends. */
        curl_easy_setopt(e, CURLOPT_SERVER_RESPONSE_TIMEOUT, timeout) ==
            CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_ERRORBUFFER, w->curl_error) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L) == CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress) ==
            CURLE_OK &&
        curl_easy_setopt(e, CURLOPT_XFERINFODATA, w) == CURLE_OK;
    if (set && config->ca_file[0] != '\0')
        set = curl_easy_setopt(e, CURLOPT_CAINFO, config->ca_file) == CURLE_OK;
    if (!set) {
        snprintf(error, size, "libcurl lacks IMAP or TLS support");
        w->broken = true;
        imap_wire_close(w);
        return NULL;
    }
    CURLcode rc = curl_easy_perform(e);
    curl_socket_t active = CURL_SOCKET_BAD;
    if (rc == CURLE_OK &&
        curl_easy_getinfo(e, CURLINFO_ACTIVESOCKET, &active) != CURLE_OK)
        active = CURL_SOCKET_BAD;
    if (rc != CURLE_OK || active == CURL_SOCKET_BAD) {
        /* libcurl's words never hold the password; the URL shown here
         * has it replaced. */
        snprintf(error, size, "cannot log in to %s: %s%s%s", config->shown,
                 curl_easy_strerror(rc), w->curl_error[0] ? ": " : "",
                 w->curl_error);
        w->broken = true;
        imap_wire_close(w);
        return NULL;
    }
    w->socket = active;
    return w;
}

void imap_wire_close(imap_wire *w)
{
    if (w == NULL)
        return;
    if (!w->broken && w->idle_tag[0] != '\0')
        imap_wire_idle_end(w);
    /* libcurl says LOGOUT when the handle goes; on a broken session that
     * would wait for an answer that may never come, so the socket is shut
     * (not closed: libcurl closes it) and the LOGOUT fails at once. */
    if (w->broken && w->socket != CURL_SOCKET_BAD)
        shutdown((int)w->socket, SHUT_RDWR);
    curl_easy_cleanup(w->easy);
    free(w->in.data);
    free(w->text.data);
    free(w->literal.data);
    free(w);
}
