/* watchers.c: ten thousand event-stream subscribers on one pbemd, the
 * figures of issue #42 (item 3).
 *   watchers BASE_URL PBEMD_PID GAME COUNTS MOVES
 * A final between two players is started and PRELUDE moves played, so a
 * spectator joining it gets a log to catch up on. Then subscribers are
 * opened up to each count of COUNTS (ascending, comma-separated: "1000,
 * 10000"), in a mix of what people open:
 *   - three in four follow the final (GET /v1/matches/{id}/stream),
 *     half as Server-Sent Events, half as NDJSON, unsigned (spectators);
 *   - one in four is a player's own stream (GET /v1/players/me/stream,
 *     signed), two per player (SSE and NDJSON: a phone and a laptop), of
 *     players with no match under way, so they only hear heartbeats;
 *   - the two finalists each follow their own stream and the final's
 *     stream signed (it carries their seat's talk).
 * All connect from 127.0.0.1, the trusted proxy (PBEM_TRUSTED_PROXIES), each
 * naming its own client in X-Forwarded-For, as behind the TLS proxy of a
 * real deployment. One thread reads every socket with epoll.
 *
 * At each count, once every subscriber has its catch-up and has then read
 * a heartbeat (idle and settled), pbemd's VmRSS is read from /proc: RSS per
 * idle subscriber = (RSS now - RSS before the first stream) / count.
 *
 * Then MOVES moves of the final are played one at a time. Fan-out of a
 * move: from the moment its request is sent to the moment the last of its
 * subscribers has read its item (every stream of the final reading the
 * move's last event, and the player streams of the seat to move reading
 * their your_turn); the next move is sent once it is complete (or after
 * 10 s). p50/p99/max over the moves, and the same measured from the move's
 * answer (the commit lies between the two). "Behind": streams of the final
 * that lack its last event at the end. */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "latency.h"
#include "play.h"

#define PRELUDE 30
#define MAX_SEQ 100000
#define MAX_MOVES 1000
#define OPENING_AT_ONCE 64
#define MOVE_WAIT_SECONDS 10.0
#define IDLE_WAIT_SECONDS 90.0

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "watchers bench: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

/* pbemd's resident set, KiB. */
static long rss_kib(int pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        die("read pbemd's RSS", path);
    long kib = -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = atol(line + 6);
    fclose(f);
    return kib;
}

typedef enum kind {
    MATCH_SSE,
    MATCH_NDJSON,
    PLAYER_SSE,
    PLAYER_NDJSON,
} kind;

typedef enum phase {
    CONNECTING, /* sending the request */
    HEAD,       /* reading the status line and headers */
    BODY,
    GONE,
} phase;

typedef struct watcher {
    int fd;
    kind kind;
    phase phase;
    int finalist;  /* 0 or 1: a finalist's stream; -1: not */
    char *request; /* while connecting */
    size_t request_len, request_sent;
    /* Bytes read and not yet handled: the head, then the chunked body. */
    char *raw;
    size_t raw_len, raw_size;
    size_t chunk_left;
    int crlf_left;
    /* The decoded body not yet cut into items. */
    char *text;
    size_t text_len, text_size;
    long long seen; /* a stream of the final: the last seq read */
    int beats;      /* heartbeats read */
    int items;      /* items read */
} watcher;

typedef struct bench {
    const char *base_url;
    struct sockaddr_in server;
    char match[32];
    long long match_id;
    client_key finalists[2];
    char finalist_ids[2][32];
    client_key *players; /* the idle players */
    int player_count;
    watcher *w;
    int count, opened, opening;
    int final_streams; /* subscribers of the final */
    int epoll;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    /* Per seq of the final: streams that have read it, and when the last
     * of them did. */
    int *reached;
    double *reached_at;
    /* Per move: your_turn items read on finalists' streams, the last
     * time, how many are expected (set with the answer), its send and
     * answer times and the head it made. */
    int current;
    int turn_items[MAX_MOVES];
    double turn_at[MAX_MOVES];
    long long head[MAX_MOVES];
    int turn_expected[MAX_MOVES];
    double sent[MAX_MOVES], answered[MAX_MOVES];
    bool posted[MAX_MOVES], complete[MAX_MOVES];
    double complete_at[MAX_MOVES];
    int moves;
    bool mover_done;
    char error[256];
} bench;

static void grow(char **buf, size_t *size, size_t need)
{
    if (need <= *size)
        return;
    size_t size2 = *size ? *size : 1024;
    while (size2 < need)
        size2 *= 2;
    char *grown = realloc(*buf, size2);
    if (grown == NULL)
        die("memory", "out of memory");
    *buf = grown;
    *size = size2;
}

/* The value of key at the top level of a compact JSON object, or -1: a
 * scan that skips strings and nested values, cheaper than parsing ten
 * thousand copies of each event. */
static long long top_level_number(const char *json, size_t len, const char *key)
{
    size_t key_len = strlen(key);
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        if (c == '"') {
            size_t start = i + 1, j = start;
            while (j < len && json[j] != '"')
                j += json[j] == '\\' ? 2 : 1;
            if (depth == 1 && j - start == key_len &&
                memcmp(json + start, key, key_len) == 0 && j + 1 < len &&
                json[j + 1] == ':')
                return atoll(json + j + 2);
            i = j;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
    }
    return -1;
}

/* A stream of the final read events up to seq at time now. */
static void final_read(bench *b, watcher *w, long long seq, double now)
{
    if (seq <= w->seen || seq >= MAX_SEQ)
        return;
    for (long long s = w->seen + 1; s <= seq; s++) {
        b->reached[s]++;
        b->reached_at[s] = now;
    }
    w->seen = seq;
}

/* A your_turn (or any item) on a finalist's player stream. */
static void turn_read(bench *b, double now)
{
    int k = b->current;
    if (k < 0)
        return;
    b->turn_items[k]++;
    b->turn_at[k] = now;
}

/* One item (an SSE event without its blank line, or an NDJSON line). */
static void item(bench *b, watcher *w, const char *text, size_t len, double now)
{
    bool sse = w->kind == MATCH_SSE || w->kind == PLAYER_SSE;
    bool beat = sse ? len > 0 && text[0] == ':' : len == 0;
    if (beat) {
        w->beats++;
        return;
    }
    w->items++;
    if (w->kind == PLAYER_SSE || w->kind == PLAYER_NDJSON) {
        if (w->finalist >= 0)
            turn_read(b, now);
        return;
    }
    long long seq = -1;
    if (sse) {
        if (len > 4 && strncmp(text, "id: ", 4) == 0)
            seq = atoll(text + 4); /* "seq" or "seq:message" */
    } else {
        /* A talk item carries the seq of the event it follows. */
        if (memmem(text, len, "\"match.message\"", 15) == NULL)
            seq = top_level_number(text, len, "seq");
    }
    if (seq > 0)
        final_read(b, w, seq, now);
}

/* Cuts the decoded body into items. */
static void items(bench *b, watcher *w, double now)
{
    bool sse = w->kind == MATCH_SSE || w->kind == PLAYER_SSE;
    const char *sep = sse ? "\n\n" : "\n";
    size_t sep_len = sse ? 2 : 1, at = 0;
    for (;;) {
        char *end = memmem(w->text + at, w->text_len - at, sep, sep_len);
        if (end == NULL)
            break;
        item(b, w, w->text + at, (size_t)(end - (w->text + at)), now);
        at = (size_t)(end - w->text) + sep_len;
    }
    memmove(w->text, w->text + at, w->text_len - at);
    w->text_len -= at;
}

/* Decodes the chunked body in raw into text. False at its end. */
static bool dechunk(watcher *w)
{
    size_t at = 0;
    bool going = true;
    while (at < w->raw_len && going) {
        if (w->crlf_left > 0) {
            at++;
            w->crlf_left--;
        } else if (w->chunk_left > 0) {
            size_t n = w->raw_len - at;
            if (n > w->chunk_left)
                n = w->chunk_left;
            grow(&w->text, &w->text_size, w->text_len + n + 1);
            memcpy(w->text + w->text_len, w->raw + at, n);
            w->text_len += n;
            at += n;
            w->chunk_left -= n;
            if (w->chunk_left == 0)
                w->crlf_left = 2;
        } else {
            char *eol = memmem(w->raw + at, w->raw_len - at, "\r\n", 2);
            if (eol == NULL)
                break;
            w->chunk_left = strtoul(w->raw + at, NULL, 16);
            at = (size_t)(eol - w->raw) + 2;
            going = w->chunk_left > 0;
        }
    }
    memmove(w->raw, w->raw + at, w->raw_len - at);
    w->raw_len -= at;
    return going;
}

static void gone(bench *b, watcher *w, const char *why)
{
    if (w->phase == CONNECTING || w->phase == HEAD)
        b->opening--;
    if (w->phase != GONE && w->fd >= 0) {
        epoll_ctl(b->epoll, EPOLL_CTL_DEL, w->fd, NULL);
        close(w->fd);
    }
    w->fd = -1;
    w->phase = GONE;
    snprintf(b->error, sizeof b->error, "%s", why);
}

/* Reads what the socket has and handles it. */
static void readable(bench *b, watcher *w, double now)
{
    for (;;) {
        grow(&w->raw, &w->raw_size, w->raw_len + 16384);
        ssize_t n = recv(w->fd, w->raw + w->raw_len, 16384, 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0) {
            gone(b, w, "a stream ended");
            return;
        }
        w->raw_len += (size_t)n;
        /* Less than asked: all there was (epoll says when more comes),
         * without a second call to find EAGAIN. */
        bool all = (size_t)n < 16384;
        if (w->phase == HEAD) {
            char *end = memmem(w->raw, w->raw_len, "\r\n\r\n", 4);
            if (end == NULL)
                continue;
            if (strncmp(w->raw, "HTTP/1.1 200", 12) != 0) {
                w->raw[w->raw_len < 300 ? w->raw_len : 300] = '\0';
                fprintf(stderr, "watchers bench: a stream was refused: %s\n",
                        w->raw);
                gone(b, w, "a stream was refused");
                return;
            }
            size_t head = (size_t)(end - w->raw) + 4;
            memmove(w->raw, w->raw + head, w->raw_len - head);
            w->raw_len -= head;
            w->phase = BODY;
            b->opening--;
            b->opened++;
        }
        if (!dechunk(w)) {
            gone(b, w, "a stream ended");
            return;
        }
        items(b, w, now);
        if (all)
            break;
    }
}

static void writable(bench *b, watcher *w)
{
    while (w->request_sent < w->request_len) {
        ssize_t n = send(w->fd, w->request + w->request_sent,
                         w->request_len - w->request_sent, MSG_NOSIGNAL);
        if (n < 0 &&
            (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOTCONN))
            return;
        if (n < 0) {
            gone(b, w, "cannot send a stream's request");
            return;
        }
        w->request_sent += (size_t)n;
    }
    free(w->request);
    w->request = NULL;
    w->phase = HEAD;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = w};
    epoll_ctl(b->epoll, EPOLL_CTL_MOD, w->fd, &ev);
}

/* The request of subscriber i, signed by key when not NULL. */
static char *request_for(bench *b, int i, const char *path, kind kind,
                         const client_key *key, size_t *len)
{
    char head[8192];
    int n = snprintf(head, sizeof head,
                     "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: %s\r\n"
                     "X-Forwarded-For: 10.%d.%d.%d\r\n",
                     path, b->base_url + 7,
                     kind == MATCH_NDJSON || kind == PLAYER_NDJSON
                         ? "application/x-ndjson"
                         : "text/event-stream",
                     (i >> 16) & 255, (i >> 8) & 255, i & 255);
    if (key != NULL) {
        struct curl_slist *headers = NULL;
        char error[256];
        if (!client_sign_headers("GET", path, NULL, key, &headers, error))
            die("sign a stream's request", error);
        for (struct curl_slist *h = headers; h != NULL; h = h->next)
            n += snprintf(head + n, sizeof head - (size_t)n, "%s\r\n", h->data);
        curl_slist_free_all(headers);
    }
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    *len = (size_t)n;
    char *text = strdup(head);
    if (text == NULL)
        die("memory", "out of memory");
    return text;
}

/* Subscriber i of the mix: what it follows and how. */
static void describe(bench *b, int i, char *path, size_t size, kind *kind,
                     const client_key **key, int *finalist)
{
    *finalist = -1;
    *key = NULL;
    if (i < 4) {
        /* The finalists: their own streams, and the final's signed. */
        *finalist = i & 1;
        *key = &b->finalists[i & 1];
        if (i < 2) {
            snprintf(path, size, "/v1/players/me/stream");
            *kind = i == 0 ? PLAYER_SSE : PLAYER_NDJSON;
        } else {
            snprintf(path, size, "/v1/matches/%s/stream", b->match);
            *kind = i == 2 ? MATCH_NDJSON : MATCH_SSE;
        }
        return;
    }
    if (i % 4 == 3) {
        int player = (i / 8) % b->player_count;
        *key = &b->players[player];
        snprintf(path, size, "/v1/players/me/stream");
        *kind = (i / 4) % 2 ? PLAYER_NDJSON : PLAYER_SSE;
        return;
    }
    snprintf(path, size, "/v1/matches/%s/stream", b->match);
    *kind = i % 2 ? MATCH_NDJSON : MATCH_SSE;
}

static bool follows_final(const watcher *w)
{
    return w->kind == MATCH_SSE || w->kind == MATCH_NDJSON;
}

static void start_one(bench *b, int i)
{
    watcher *w = &b->w[i];
    char path[96];
    const client_key *key;
    describe(b, i, path, sizeof path, &w->kind, &key, &w->finalist);
    w->request = request_for(b, i, path, w->kind, key, &w->request_len);
    w->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (w->fd < 0)
        die("socket", strerror(errno));
    if (connect(w->fd, (struct sockaddr *)&b->server, sizeof b->server) != 0 &&
        errno != EINPROGRESS)
        die("connect", strerror(errno));
    w->phase = CONNECTING;
    if (follows_final(w))
        b->final_streams++;
    b->opening++;
    struct epoll_event ev = {.events = EPOLLOUT, .data.ptr = w};
    if (epoll_ctl(b->epoll, EPOLL_CTL_ADD, w->fd, &ev) != 0)
        die("epoll_ctl", strerror(errno));
}

/* One round of epoll: handles what is ready. */
static void pump(bench *b, int timeout_ms)
{
    struct epoll_event events[1024];
    int n = epoll_wait(b->epoll, events, 1024, timeout_ms);
    if (n <= 0)
        return;
    pthread_mutex_lock(&b->lock);
    for (int i = 0; i < n; i++) {
        watcher *w = events[i].data.ptr;
        if (w->phase == CONNECTING)
            writable(b, w);
        else if (w->phase != GONE)
            readable(b, w, bench_now());
    }
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
}

/* Opens subscribers up to count, OPENING_AT_ONCE at a time. */
static void open_up_to(bench *b, int count)
{
    int next = b->count;
    double deadline = bench_now() + 120;
    while (next < count || b->opening > 0) {
        while (next < count && b->opening < OPENING_AT_ONCE)
            start_one(b, next++);
        pump(b, 100);
        if (b->error[0] != '\0')
            die("open the streams", b->error);
        if (bench_now() > deadline)
            die("open the streams", "not all opened within 120 s");
    }
    b->count = count;
}

/* Reads until every subscriber has read a heartbeat after its catch-up
 * (the final's log, a finalist's waiting match): idle and settled. */
static void settle(bench *b, long long head)
{
    for (int i = 0; i < b->count; i++)
        b->w[i].beats = 0;
    double deadline = bench_now() + IDLE_WAIT_SECONDS;
    for (;;) {
        int waiting = 0;
        for (int i = 0; i < b->count; i++) {
            const watcher *w = &b->w[i];
            bool caught_up = !follows_final(w) || w->seen >= head;
            if (!caught_up || w->beats == 0)
                waiting++;
        }
        if (waiting == 0)
            return;
        if (bench_now() > deadline) {
            char what[96];
            snprintf(what, sizeof what,
                     "%d of %d streams had no heartbeat after %.0f s", waiting,
                     b->count, IDLE_WAIT_SECONDS);
            die("settle", what);
        }
        pump(b, 200);
        if (b->error[0] != '\0')
            die("settle", b->error);
    }
}

static json_t *get(client *c, const char *path, const client_key *key)
{
    client_response r;
    char error[256];
    if (!bench_call(c, "GET", path, NULL, key, 200, &r, error))
        die("GET", error);
    json_t *json = json_incref(r.json);
    client_response_free(&r);
    return json;
}

/* One move of the final by whoever must move (*seat); its answer (the
 * new state), or NULL when the match is over. */
static json_t *move(bench *b, client *c, int k, int *mover_seat)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s", b->match);
    json_t *match = get(c, path, NULL);
    bool active = strcmp(json_string_value(json_object_get(match, "status")),
                         "active") == 0;
    int seat = bench_seat_to_move(match);
    json_decref(match);
    if (!active)
        return NULL;
    *mover_seat = seat;
    snprintf(path, sizeof path, "/v1/matches/%s/view", b->match);
    json_t *view = get(c, path, &b->finalists[seat]);
    char *body = bench_random_move(view);
    json_decref(view);
    snprintf(path, sizeof path, "/v1/matches/%s/moves", b->match);
    if (k >= 0) {
        pthread_mutex_lock(&b->lock);
        b->current = k;
        b->sent[k] = bench_now();
        pthread_mutex_unlock(&b->lock);
    }
    client_response r;
    char error[256];
    if (!bench_call(c, "POST", path, body, &b->finalists[seat], 200, &r, error))
        die("move", error);
    free(body);
    json_t *answer = json_incref(r.json);
    client_response_free(&r);
    return answer;
}

typedef struct mover_args {
    bench *b;
    int moves;
} mover_args;

static void *mover(void *arg)
{
    mover_args *m = arg;
    bench *b = m->b;
    client *c = client_new(b->base_url);
    for (int k = 0; k < m->moves && k < MAX_MOVES; k++) {
        int seat;
        json_t *answer = move(b, c, k, &seat);
        if (answer == NULL)
            break;
        double answered = bench_now();
        bool over = json_is_true(json_object_get(answer, "over"));
        pthread_mutex_lock(&b->lock);
        b->answered[k] = answered;
        b->head[k] =
            (long long)json_integer_value(json_object_get(answer, "seq"));
        /* A turn passed to the other seat is told on that player's own
         * stream (one each); a seat that acts again reads it in the
         * answer. */
        b->turn_expected[k] = !over && bench_seat_to_move(answer) != seat;
        b->posted[k] = true;
        b->moves = k + 1;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)MOVE_WAIT_SECONDS;
        while (!b->complete[k] &&
               pthread_cond_timedwait(&b->changed, &b->lock, &until) == 0)
            ;
        pthread_mutex_unlock(&b->lock);
        json_decref(answer);
        if (over)
            break;
    }
    pthread_mutex_lock(&b->lock);
    b->mover_done = true;
    pthread_mutex_unlock(&b->lock);
    client_free(c);
    return NULL;
}

/* Marks the posted moves every subscriber has read. Under the lock. */
static void check_complete(bench *b)
{
    for (int k = 0; k < b->moves; k++) {
        if (!b->posted[k] || b->complete[k])
            continue;
        long long h = b->head[k];
        if (h <= 0 || h >= MAX_SEQ || b->reached[h] < b->final_streams ||
            b->turn_items[k] < b->turn_expected[k])
            continue;
        double last = b->reached_at[h];
        if (b->turn_expected[k] > 0 && b->turn_at[k] > last)
            last = b->turn_at[k];
        b->complete[k] = true;
        b->complete_at[k] = last;
        pthread_cond_broadcast(&b->changed);
    }
}

/* pbemd's CPU time so far (user and system), seconds: what a fan-out
 * costs the server, which the machine's load does not change the way it
 * changes latency. */
static double cpu_seconds(int pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        die("read pbemd's CPU time", path);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* Fields 14 and 15, counted after the command's closing parenthesis. */
    const char *at = strrchr(text, ')');
    unsigned long long utime = 0, stime = 0;
    if (at == NULL || sscanf(at + 2,
                             "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
                             "%llu %llu",
                             &utime, &stime) != 2)
        die("read pbemd's CPU time", text);
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* This client's CPU time so far, seconds: reading ten thousand sockets
 * takes its share of the same cores. */
static double own_cpu_seconds(void)
{
    struct rusage used;
    getrusage(RUSAGE_SELF, &used);
    return (double)(used.ru_utime.tv_sec + used.ru_stime.tv_sec) +
           (double)(used.ru_utime.tv_usec + used.ru_stime.tv_usec) / 1e6;
}

static void fan_out(bench *b, int pid, int moves, int rss_line_count,
                    double per_idle)
{
    mover_args args = {b, moves};
    pthread_t thread;
    double cpu = cpu_seconds(pid), mine = own_cpu_seconds();
    pthread_create(&thread, NULL, mover, &args);
    for (;;) {
        pump(b, 50);
        pthread_mutex_lock(&b->lock);
        check_complete(b);
        bool done = b->mover_done;
        pthread_mutex_unlock(&b->lock);
        if (done)
            break;
    }
    pthread_join(thread, NULL);
    cpu = cpu_seconds(pid) - cpu;
    mine = own_cpu_seconds() - mine;
    /* What the last move left: a little longer for stragglers. */
    double until = bench_now() + 2;
    long long last = b->moves > 0 ? b->head[b->moves - 1] : 0;
    while (bench_now() < until) {
        int behind = 0;
        for (int i = 0; i < b->count; i++)
            behind += follows_final(&b->w[i]) && b->w[i].seen < last;
        if (behind == 0)
            break;
        pump(b, 50);
    }
    double *from_sent = calloc((size_t)b->moves + 1, sizeof *from_sent);
    double *from_answer = calloc((size_t)b->moves + 1, sizeof *from_answer);
    double *round_trip = calloc((size_t)b->moves + 1, sizeof *round_trip);
    long done = 0, incomplete = 0;
    double max = 0;
    for (int k = 0; k < b->moves; k++) {
        round_trip[k] = b->answered[k] - b->sent[k];
        if (!b->complete[k]) {
            long long h = b->head[k];
            fprintf(stderr,
                    "watchers bench: move %d (head %lld) incomplete: %d of "
                    "%d streams of the final read it, %d of %d turns\n",
                    k, h, h > 0 && h < MAX_SEQ ? b->reached[h] : -1,
                    b->final_streams, b->turn_items[k], b->turn_expected[k]);
            incomplete++;
            continue;
        }
        from_sent[done] = b->complete_at[k] - b->sent[k];
        double after = b->complete_at[k] - b->answered[k];
        from_answer[done] = after > 0 ? after : 0;
        if (from_sent[done] > max)
            max = from_sent[done];
        done++;
    }
    int behind = 0;
    for (int i = 0; i < b->count; i++)
        behind += follows_final(&b->w[i]) && b->w[i].seen < last;
    double p50, p99, a50, a99, r50, r99;
    bench_percentiles(from_sent, done, &p50, &p99);
    bench_percentiles(from_answer, done, &a50, &a99);
    bench_percentiles(round_trip, b->moves, &r50, &r99);
    printf("watchers %d: rss per idle subscriber %.1f KiB; fan-out p50 %.1f "
           "p99 %.1f max %.1f ms over %ld moves; behind at the end: %d\n",
           rss_line_count, per_idle, p50, p99, max * 1e3, done, behind);
    printf("  (%d follow the final; fan-out after the move's answer: p50 "
           "%.1f p99 %.1f ms; the move's own round trip p50 %.1f p99 %.1f "
           "ms; CPU per move and its fan-out: pbemd %.1f ms, this client "
           "%.1f ms; moves not complete within %.0f s: %ld)\n",
           b->final_streams, a50, a99, r50, r99,
           b->moves > 0 ? cpu * 1e3 / b->moves : 0.0,
           b->moves > 0 ? mine * 1e3 / b->moves : 0.0, MOVE_WAIT_SECONDS,
           incomplete);
    free(from_sent);
    free(from_answer);
    free(round_trip);
}

static void *register_some(void *arg)
{
    bench *b = ((void **)arg)[0];
    int from = (int)(long)((void **)arg)[1],
        step = (int)(long)((void **)arg)[2];
    client *c = client_new(b->base_url);
    char id[32], error[256], name[64];
    for (int i = from; i < b->player_count; i += step) {
        client_new_key(&b->players[i]);
        snprintf(name, sizeof name, "Watcher %d", i);
        if (!client_register(c, name, NULL, &b->players[i], id, error))
            die("register a watcher", error);
    }
    client_free(c);
    return NULL;
}

static void setup(bench *b, const char *game)
{
    client *c = client_new(b->base_url);
    char error[256];
    for (int i = 0; i < 2; i++) {
        client_new_key(&b->finalists[i]);
        if (!client_register(c, i ? "Final Second" : "Final First", NULL,
                             &b->finalists[i], b->finalist_ids[i], error))
            die("register", error);
    }
    char body[128];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":2}", game);
    client_response r;
    if (!bench_call(c, "POST", "/v1/matches", body, &b->finalists[0], 201, &r,
                    error))
        die("new match", error);
    snprintf(b->match, sizeof b->match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    client_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", b->match);
    if (!bench_call(c, "POST", path, "{}", &b->finalists[1], 200, &r, error))
        die("join", error);
    client_response_free(&r);
    for (int k = 0; k < PRELUDE; k++) {
        int seat;
        json_t *answer = move(b, c, -1, &seat);
        if (answer == NULL)
            die("prelude", "the final ended before the watchers came");
        json_decref(answer);
    }
    client_free(c);
    pthread_t threads[4];
    void *args[4][3];
    for (int t = 0; t < 4; t++) {
        args[t][0] = b;
        args[t][1] = (void *)(long)t;
        args[t][2] = (void *)(long)4;
        pthread_create(&threads[t], NULL, register_some, args[t]);
    }
    for (int t = 0; t < 4; t++)
        pthread_join(threads[t], NULL);
}

static long long final_head(bench *b)
{
    client *c = client_new(b->base_url);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s", b->match);
    json_t *match = get(c, path, NULL);
    long long head = (long long)json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    client_free(c);
    return head;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr,
                "usage: watchers BASE_URL PBEMD_PID GAME COUNTS MOVES\n");
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        die("sodium", "cannot initialise");
    bench b = {.base_url = argv[1], .current = -1};
    int pid = atoi(argv[2]);
    int counts[16], steps = 0;
    for (char *s = argv[4]; *s != '\0' && steps < 16;) {
        char *end;
        counts[steps++] = (int)strtol(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *s != '\0')
            die("COUNTS", argv[4]);
    }
    int total = counts[steps - 1];
    int moves = atoi(argv[5]);
    unsigned port = 0;
    if (strncmp(b.base_url, "http://127.0.0.1:", 17) != 0 ||
        sscanf(b.base_url + 17, "%u", &port) != 1)
        die("BASE_URL", "must be http://127.0.0.1:PORT");
    b.server = (struct sockaddr_in){.sin_family = AF_INET,
                                    .sin_port = htons((uint16_t)port)};
    b.server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    /* A socket each, and a few more. */
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);
    if (files.rlim_cur < (rlim_t)total + 64) {
        files.rlim_cur = files.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &files) != 0 ||
            files.rlim_cur < (rlim_t)total + 64)
            die("open files", "raise ulimit -n above COUNTS' last");
    }
    pthread_mutex_init(&b.lock, NULL);
    pthread_cond_init(&b.changed, NULL);
    b.player_count = total / 8 > 1 ? total / 8 : 1;
    b.players = calloc((size_t)b.player_count, sizeof *b.players);
    b.w = calloc((size_t)total, sizeof *b.w);
    b.reached = calloc(MAX_SEQ, sizeof *b.reached);
    b.reached_at = calloc(MAX_SEQ, sizeof *b.reached_at);
    b.epoll = epoll_create1(EPOLL_CLOEXEC);
    if (!b.players || !b.w || !b.reached || !b.reached_at || b.epoll < 0)
        die("memory", "out of memory");
    double began = bench_now();
    setup(&b, argv[3]);
    long long head = final_head(&b);
    long before = rss_kib(pid);
    printf("  set up in %.1f s: the final at seq %lld, %d idle players; "
           "pbemd's RSS before any stream %.1f MiB\n",
           bench_now() - began, head, b.player_count, before / 1024.0);
    double per_idle = 0;
    for (int s = 0; s < steps; s++) {
        double t = bench_now();
        open_up_to(&b, counts[s]);
        double opened = bench_now() - t;
        settle(&b, head);
        long rss = rss_kib(pid);
        per_idle = (double)(rss - before) / counts[s];
        printf("  %d subscribers (%d follow the final) opened in %.1f s, "
               "idle: pbemd's RSS %.1f MiB, %.1f KiB per idle subscriber\n",
               counts[s], b.final_streams, opened, rss / 1024.0, per_idle);
        fflush(stdout);
    }
    fan_out(&b, pid, moves, total, per_idle);
    for (int i = 0; i < b.count; i++) {
        if (b.w[i].fd >= 0)
            close(b.w[i].fd);
        free(b.w[i].raw);
        free(b.w[i].text);
        free(b.w[i].request);
    }
    free(b.w);
    free(b.players);
    free(b.reached);
    free(b.reached_at);
    curl_global_cleanup();
    return 0;
}
