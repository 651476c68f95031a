/* http.c: libmicrohttpd plumbing. */
#include "http/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "auth/admin.h"
#include "core/config.h"
#include "core/log.h"
#include "core/metrics.h"
#include "http/acceptor.h"
#include "http/answer.h"
#include "http/head.h"
#include "http/library_log.h"
#include "http/peers.h"
#include "http/reaper.h"
#include "http/routes.h"
#include "http/stream_routes.h"
#include "http/web_files.h"
#include "store/db.h"

struct http_server {
    struct MHD_Daemon **daemons; /* one thread each */
    int daemon_count;
    acceptor *acceptor; /* accepts, and spreads connections over them */
    int port;
    int in_flight;   /* requests the handler began, not completed (atomic) */
    reaper *reaper;  /* the deadline for receiving each request */
    peers *peers;    /* trusted proxies, connections per address */
};

/* Per-request state, created by the URI log callback (which sees the raw,
 * still percent-encoded target libmicrohttpd later decodes). */
typedef struct http_request http_request;

/* Per-connection state: the request begun on it and not yet released.
 * libmicrohttpd reports a request's completion only once the access
 * handler has seen it; a request it refuses while parsing (too many query
 * arguments, a target or headers too large for the connection's memory)
 * never reaches the handler, so its record is released when the
 * connection closes or the next request begins. */
typedef struct http_connection {
    http_request *open;
    reaper_watch *watch;
    struct sockaddr_storage peer; /* counted in peers while open */
    bool counted;
    bool over_limit; /* its address held all it may: answered 429 */
} http_connection;

struct http_request {
    char *target;
    char *body;
    size_t body_len;
    size_t body_max; /* HTTP_BODY_MAX, or more for import and mail */
    bool started;    /* the access handler has seen this request */
    /* Why the raw target is refused (head.h), found before libmicrohttpd
     * parsed its query; status 0 when it is not. */
    head_refusal target_refused;
    struct timespec began;
    /* Set aside, its connection suspended (a move waiting for its
     * commit): answered when the handler is called again, once resumed. */
    routes_later *later;
};

static double seconds_since(const struct timespec *began)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - began->tv_sec) +
           (double)(now.tv_nsec - began->tv_nsec) / 1e9;
}

/* Frees req, and counts it out of the requests in flight when the
 * handler had begun it. */
static void release(http_server *server, http_request *req)
{
    if (req->started)
        __atomic_sub_fetch(&server->in_flight, 1, __ATOMIC_ACQ_REL);
    free(req->target);
    free(req->body);
    free(req);
}

static http_connection *connection_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info != NULL ? info->socket_context : NULL;
}

/* The request on conn has been read whole (or answered early). */
static void received(http_server *server, struct MHD_Connection *conn)
{
    http_connection *c = connection_of(conn);
    if (c != NULL && c->watch != NULL)
        reaper_received(server->reaper, c->watch);
}

static void on_connection(void *cls, struct MHD_Connection *conn,
                          void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    http_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        http_connection *c = calloc(1, sizeof *c);
        if (c == NULL)
            abort();
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (info != NULL)
            c->watch = reaper_begin(server->reaper, info->connect_fd);
        info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (info != NULL && info->client_addr != NULL &&
            info->client_addr->sa_family == AF_INET) {
            memcpy(&c->peer, info->client_addr, sizeof(struct sockaddr_in));
            /* Over its address's limit, a connection is kept only to say
             * so (refuse_over_limit): closed unanswered, it looked to the
             * client like a server that had failed. */
            if (peers_admit(server->peers, (struct sockaddr *)&c->peer)) {
                peers_opened(server->peers, (struct sockaddr *)&c->peer);
                c->counted = true;
            } else {
                c->over_limit = true;
            }
        }
        *socket_context = c;
        return;
    }
    http_connection *c = *socket_context;
    if (c == NULL)
        return;
    if (c->open != NULL)
        release(server, c->open);
    /* libmicrohttpd reports the close before it closes the socket. */
    if (c->watch != NULL)
        reaper_end(server->reaper, c->watch);
    if (c->counted)
        peers_closed(server->peers, (struct sockaddr *)&c->peer);
    free(c);
    *socket_context = NULL;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_DAEMON);
    if (info != NULL)
        acceptor_connection_closed(server->acceptor, info->daemon);
}

static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    http_server *server = cls;
    http_connection *c = connection_of(conn);
    /* A request refused before the handler saw it leaves its record here
     * when the connection goes on to the next one. */
    if (c != NULL && c->open != NULL)
        release(server, c->open);
    http_request *req = calloc(1, sizeof *req);
    if (req == NULL)
        abort();
    req->target = strdup(uri);
    if (req->target == NULL)
        abort();
    clock_gettime(CLOCK_MONOTONIC, &req->began);
    if (!head_target_acceptable(uri, &req->target_refused)) {
        /* libmicrohttpd parses the query after this callback, in place,
         * storing each argument in the connection's pool; past a few
         * hundred the pool is full, and the answer it then tries never
         * goes out (the client waits for the idle timeout). Its query is
         * emptied where it lies so that none is parsed: the request is
         * refused in full (414) before anything reads it, and the
         * argument-free target is what is left to parse. */
        char *query = strchr((char *)uri, '?');
        if (query != NULL)
            query[1] = '\0';
    }
    if (c != NULL)
        c->open = req;
    return req;
}

static void on_completed(void *cls, struct MHD_Connection *conn,
                         void **con_cls, enum MHD_RequestTerminationCode code)
{
    (void)code;
    http_server *server = cls;
    http_request *req = *con_cls;
    if (req == NULL)
        return;
    http_connection *c = connection_of(conn);
    if (c != NULL && c->open == req)
        c->open = NULL;
    if (c != NULL && c->watch != NULL)
        reaper_answered(server->reaper, c->watch);
    if (req->later != NULL) {
        /* Resumed, but its client left before the handler was called
         * again: the request is finished all the same (its move is
         * committed or refused, the kept state and its rate ticket go
         * where they go), and its answer dropped. */
        answer out = {0};
        routes_resume(req->later, &out);
        req->later = NULL;
        free(out.body);
        if (out.stream_free != NULL)
            out.stream_free(out.stream);
    }
    release(server, req);
    *con_cls = NULL;
}

static const char api_csp[] = "default-src 'none'; form-action 'self'; "
                              "frame-ancestors 'none'; base-uri 'none'";

/* The copy buffer libmicrohttpd allocates (and zeroes) with each streamed
 * answer. It uses it only for an HTTP/1.0 client, which cannot take
 * chunks; over HTTP/1.1 chunks are written in the connection's pool. At
 * 64 KiB it was most of what an idle event stream held. */
#define STREAM_BLOCK 256

static enum MHD_Result send_answer(struct MHD_Connection *conn,
                                   answer *out)
{
    struct MHD_Response *response;
    if (out->stream_read != NULL) {
        /* Chunked: the length is not known until the end. */
        response = MHD_create_response_from_callback(
            MHD_SIZE_UNKNOWN, STREAM_BLOCK, out->stream_read, out->stream,
            out->stream_free);
    } else {
        size_t len = strlen(out->body);
        response = MHD_create_response_from_buffer(len, out->body,
                                                   MHD_RESPMEM_MUST_FREE);
        out->body = NULL;
    }
    if (response == NULL)
        abort();
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
                            out->content_type);
    MHD_add_response_header(response, "Cache-Control", "no-store");
    /* The API's answers are data, never a page: a browser led to one
     * (a link, a frame, a guess at its type) runs and loads nothing from
     * it. The unsubscribe page's form posts back to its own origin. */
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(response, "Content-Security-Policy", api_csp);
    MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
    if (out->retry_after > 0) {
        char seconds[24];
        snprintf(seconds, sizeof seconds, "%lld", out->retry_after);
        MHD_add_response_header(response, "Retry-After", seconds);
    }
    if (out->close)
        MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
    if (out->ratelimit[0] != '\0') {
        MHD_add_response_header(response, "RateLimit-Policy",
                                out->ratelimit_policy);
        MHD_add_response_header(response, "RateLimit", out->ratelimit);
    }
    if (out->preference_applied != NULL)
        MHD_add_response_header(response, "Preference-Applied",
                                out->preference_applied);
    enum MHD_Result result =
        MHD_queue_response(conn, (unsigned)out->status, response);
    MHD_destroy_response(response);
    return result;
}

static const char *lookup_header(void *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

/* The most body this request may send. The import and mail routes take
 * more than everyone else, but only from a request whose signature headers
 * name the admin's or the mail server's key: otherwise anyone could make
 * the server hold megabytes per connection before authentication. The
 * signature itself covers the body's digest and is checked once the body
 * is in; the headers are all that can be looked at before reading it. */
static size_t body_max_for(struct MHD_Connection *conn, const char *method,
                           const char *url)
{
    if (strcmp(method, "POST") != 0)
        return HTTP_BODY_MAX;
    httpsig_request signed_as = {.header = lookup_header, .header_ctx = conn};
    if (strcmp(url, HTTP_IMPORT_PATH) == 0 && admin_claimed(&signed_as))
        return HTTP_IMPORT_BODY_MAX;
    if (strcmp(url, HTTP_MAIL_PATH) == 0 && admin_claimed_mail(&signed_as))
        return HTTP_MAIL_BODY_MAX;
    return HTTP_BODY_MAX;
}

/* 413 and close: the rest of the body is not read. */
static enum MHD_Result refuse_too_large(struct MHD_Connection *conn,
                                        http_request *req)
{
    answer out = {.route = "oversize", .close = true};
    char message[96];
    snprintf(message, sizeof message,
             "the request body is larger than the %zu-byte limit",
             req->body_max);
    answer_error(&out, 413, "body_too_large", message);
    metrics_request(out.route, out.status, seconds_since(&req->began));
    return send_answer(conn, &out);
}

/* 429 and close, for a request on a connection past its address's
 * limit (HTTP_PER_ADDRESS_CONNECTIONS): a client told when to come back
 * can act on it, where one whose connection is closed unanswered sees a
 * failed server. libmicrohttpd's own per-address limit closes silently
 * and cannot spare a trusted proxy, so the count is kept in peers. */
static enum MHD_Result refuse_over_limit(struct MHD_Connection *conn,
                                         http_request *req)
{
    answer out = {.route = "too_many_connections",
                  .close = true,
                  .retry_after = HTTP_PER_ADDRESS_RETRY_SECONDS};
    char message[160];
    snprintf(message, sizeof message,
             "this address holds the %u connections it may have open at "
             "once: close one, or retry after %d s",
             HTTP_PER_ADDRESS_CONNECTIONS, HTTP_PER_ADDRESS_RETRY_SECONDS);
    answer_error(&out, 429, "too_many_connections", message);
    metrics_request(out.route, out.status, seconds_since(&req->began));
    return send_answer(conn, &out);
}

/* The client's address for the log: the forwarding headers are read only
 * from a trusted proxy. */
static void client_of(http_server *server, struct MHD_Connection *conn,
                      char *out, size_t size)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    peers_client(server->peers, info != NULL ? info->client_addr : NULL,
                 lookup_header(conn, "Forwarded"),
                 lookup_header(conn, "X-Forwarded-For"), out, size);
}

/* Collects the header fields of conn into a growing array. */
typedef struct field_list {
    head_field *at;
    size_t count, cap;
} field_list;

static enum MHD_Result collect_field(void *cls, enum MHD_ValueKind kind,
                                     const char *key, size_t key_size,
                                     const char *value, size_t value_size)
{
    (void)kind;
    field_list *list = cls;
    /* One past the limit is enough to refuse the request. */
    if (list->count > HEAD_FIELDS_MAX)
        return MHD_NO;
    if (list->count == list->cap) {
        list->cap = list->cap ? list->cap * 2 : 32;
        list->at = realloc(list->at, list->cap * sizeof *list->at);
        if (list->at == NULL)
            abort();
    }
    list->at[list->count++] = (head_field){key, key_size, value, value_size};
    return MHD_YES;
}

/* A refusal of the request's head, answered before any of its body is
 * read; the connection closes, since a head misread leaves the start of
 * the next request unknown. */
static enum MHD_Result refuse_head(http_server *server,
                                   struct MHD_Connection *conn,
                                   http_request *req, const head_refusal *why)
{
    answer out = {.route = "bad_head", .close = true};
    received(server, conn);
    answer_error(&out, why->status, why->code, why->message);
    metrics_request(out.route, out.status, seconds_since(&req->began));
    return send_answer(conn, &out);
}

/* Whether the head of the request on conn keeps head.h's rules: false
 * with *why filled when not. method is libmicrohttpd's, which points at
 * the start of the head it parsed in place. */
static bool head_of_request_acceptable(struct MHD_Connection *conn,
                                       const char *method, const char *version,
                                       head_refusal *why)
{
    field_list fields = {0};
    MHD_get_connection_values_n(conn, MHD_HEADER_KIND, collect_field, &fields);
    bool acceptable = head_acceptable(fields.at, fields.count, version, why);
    const union MHD_ConnectionInfo *size =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (acceptable && size != NULL &&
        !head_lines_whole(fields.at, fields.count, method,
                          method + size->header_size)) {
        *why = (head_refusal){
            400, "bad_header",
            "a header line is malformed: a NUL byte in it, or a line folded "
            "onto the next (obs-fold); send each field on one line of "
            "printable text"};
        acceptable = false;
    }
    free(fields.at);
    return acceptable;
}

static enum MHD_Result answered(http_server *server,
                                struct MHD_Connection *conn, const char *method,
                                const char *url, http_request *req,
                                answer *out);

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    http_server *server = cls;
    http_request *req = *con_cls;
    if (req == NULL)
        return MHD_NO;
    if (!req->started) {
        /* First call: headers only. Refuse an announced oversized body at
         * once rather than reading it. */
        req->started = true;
        /* Counted only from here: a request libmicrohttpd refuses while
         * parsing it holds its connection until the idle timeout, and
         * must not hold a graceful stop that long too. */
        __atomic_add_fetch(&server->in_flight, 1, __ATOMIC_ACQ_REL);
        http_connection *c = connection_of(conn);
        if (c != NULL && c->over_limit) {
            received(server, conn);
            return refuse_over_limit(conn, req);
        }
        if (req->target_refused.status != 0)
            return refuse_head(server, conn, req, &req->target_refused);
        head_refusal why;
        if (!head_of_request_acceptable(conn, method, version, &why))
            return refuse_head(server, conn, req, &why);
        req->body_max = body_max_for(conn, method, url);
        const char *length = MHD_lookup_connection_value(
            conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (length != NULL && strtoull(length, NULL, 10) > req->body_max) {
            received(server, conn);
            return refuse_too_large(conn, req);
        }
        return MHD_YES;
    }
    if (*upload_size > 0) {
        if (req->body_len + *upload_size > req->body_max) {
            /* Not reached while libmicrohttpd holds a body to its
             * Content-Length, already checked against the cap; kept so
             * the buffer's bound never rests on that alone. */
            log_info("%s %s: body over %zu bytes, connection closed", method,
                     url, req->body_max);
            metrics_request("oversize", 413, seconds_since(&req->began));
            return MHD_NO;
        }
        char *grown = realloc(req->body, req->body_len + *upload_size + 1);
        if (grown == NULL)
            abort();
        req->body = grown;
        memcpy(req->body + req->body_len, upload, *upload_size);
        req->body_len += *upload_size;
        req->body[req->body_len] = '\0';
        *upload_size = 0;
        return MHD_YES;
    }
    answer out = {0};
    if (req->later != NULL) {
        routes_later *later = req->later;
        req->later = NULL;
        routes_resume(later, &out);
        return answered(server, conn, method, url, req, &out);
    }
    received(server, conn);
    if (web_files_wanted(method, url)) {
        int status = 0;
        enum MHD_Result sent = web_files_send(conn, url, req->target, &status);
        double seconds = seconds_since(&req->began);
        metrics_request("web", status, seconds);
        char client[64];
        client_of(server, conn, client, sizeof client);
        log_info("%s %s %s -> %d in %.1f ms", client, method, url, status,
                 seconds * 1e3);
        return sent;
    }
    req->later = routes_handle(conn, method, url, req->target, req->body,
                               req->body_len, &out);
    if (req->later != NULL)
        return MHD_YES; /* suspended; called again once resumed */
    return answered(server, conn, method, url, req, &out);
}

/* Counts, logs and sends a route's answer. */
static enum MHD_Result answered(http_server *server,
                                struct MHD_Connection *conn, const char *method,
                                const char *url, http_request *req, answer *out)
{
    double seconds = seconds_since(&req->began);
    metrics_request(out->route, out->status, seconds);
    char client[64];
    client_of(server, conn, client, sizeof client);
    if (out->status >= 500)
        log_warn("%s %s %s -> %d in %.1f ms", client, method, url, out->status,
                 seconds * 1e3);
    else
        log_info("%s %s %s -> %d in %.1f ms", client, method, url, out->status,
                 seconds * 1e3);
    return send_answer(conn, out);
}

static bool parse_listen(const char *listen, struct sockaddr_in *addr)
{
    char host[64];
    const char *colon = strrchr(listen, ':');
    if (colon == NULL || (size_t)(colon - listen) >= sizeof host)
        return false;
    memcpy(host, listen, (size_t)(colon - listen));
    host[colon - listen] = '\0';
    char *end = NULL;
    long port = strtol(colon + 1, &end, 10);
    if (*end != '\0' || port < 0 || port > 65535)
        return false;
    memset(addr, 0, sizeof *addr);
    addr->sin_family = AF_INET;
    addr->sin_port = htons((uint16_t)port);
    return inet_pton(AF_INET, host[0] ? host : "0.0.0.0", &addr->sin_addr) == 1;
}

/* PBEM_HTTP_REQUEST_SECONDS: how long a request may take to arrive. */
static int request_seconds(void)
{
    return (int)config_whole(CONFIG_HTTP_REQUEST_SECONDS);
}

/* PBEM_HTTP_CONNECTIONS: the connections served at once, open event
 * streams included. */
static unsigned connection_limit(void)
{
    return (unsigned)config_whole(CONFIG_HTTP_CONNECTIONS);
}

/* Each connection is a descriptor, beside the database connections and
 * files: raise the soft limit towards the hard one when it is short. */
static void enough_descriptors(unsigned connections)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return;
    rlim_t wanted = (rlim_t)connections + 256;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
        rlim_t before = limit.rlim_cur;
        limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ||
                                 limit.rlim_max > wanted
                             ? wanted
                             : limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur < wanted)
            log_warn("open files are limited to %llu (was %llu): fewer "
                     "than the %u connections PBEM_HTTP_CONNECTIONS allows "
                     "need; raise the hard limit (ulimit -Hn)",
                     (unsigned long long)limit.rlim_cur,
                     (unsigned long long)before, connections);
    }
}

/* One daemon, one thread. The acceptor gives it connections (acceptor.h
 * says why not libmicrohttpd's thread pool); the limit is the acceptor's,
 * over all daemons, so none is refused here. Suspend/resume: an idle event
 * stream parks its connection (stream_routes.h) instead of holding the
 * thread. */
static struct MHD_Daemon *start_daemon(http_server *server,
                                       unsigned connections)
{
    /* Each option with its values on a line of its own. */
    /* clang-format off */
    return MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG |
            MHD_ALLOW_SUSPEND_RESUME | MHD_USE_NO_LISTEN_SOCKET,
        0,
        NULL, NULL,
        on_request, server,
        MHD_OPTION_EXTERNAL_LOGGER, library_log, NULL,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, server,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, server,
        MHD_OPTION_CONNECTION_LIMIT, connections,
        MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        /* Headers only: bodies are buffered by us, under HTTP_BODY_MAX. */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(32 * 1024),
        MHD_OPTION_END);
    /* clang-format on */
}

http_server *http_start(const char *address, int threads, apierr *err)
{
    struct sockaddr_in addr;
    if (!parse_listen(address, &addr)) {
        apierr_set(err, 500, "bad_listen",
                   "PBEM_LISTEN=%s is not an IPv4 address and port such as "
                   "127.0.0.1:8080",
                   address);
        return NULL;
    }
    /* Bind ourselves first, so "port in use" is one clear sentence. */
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(fd, 512) != 0) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        if (saved == EADDRINUSE)
            apierr_set(err, 500, "address_in_use",
                       "%s is already in use: stop the other server or set "
                       "PBEM_LISTEN to another address, e.g. "
                       "PBEM_LISTEN=127.0.0.1:8081",
                       address);
        else
            apierr_set(err, 500, "cannot_listen", "cannot listen on %s: %s",
                       address, strerror(saved));
        return NULL;
    }
    http_server *server = calloc(1, sizeof *server);
    if (server == NULL)
        abort();
    server->peers = peers_new(config_text(CONFIG_TRUSTED_PROXIES),
                              HTTP_PER_ADDRESS_CONNECTIONS, err);
    if (server->peers == NULL) {
        close(fd);
        free(server);
        return NULL;
    }
    server->reaper = reaper_start(request_seconds());
    unsigned connections = connection_limit();
    enough_descriptors(connections);
    server->daemon_count = threads;
    server->daemons = calloc((size_t)threads, sizeof *server->daemons);
    if (server->daemons == NULL)
        abort();
    for (int i = 0; i < threads; i++) {
        server->daemons[i] = start_daemon(server, connections);
        if (server->daemons[i] == NULL) {
            for (int j = 0; j < i; j++)
                MHD_stop_daemon(server->daemons[j]);
            free(server->daemons);
            close(fd);
            reaper_stop(server->reaper);
            peers_free(server->peers);
            free(server);
            apierr_set(err, 500, "cannot_listen",
                       "the HTTP server could not start on %s", address);
            return NULL;
        }
    }
    struct sockaddr_in bound;
    socklen_t len = sizeof bound;
    getsockname(fd, (struct sockaddr *)&bound, &len);
    server->port = ntohs(bound.sin_port);
    server->acceptor =
        acceptor_start(fd, server->daemons, threads, connections);
    return server;
}

int http_port(const http_server *server)
{
    return server->port;
}

void http_stop(http_server *server, int grace_seconds)
{
    acceptor_stop(server->acceptor);
    /* Open streams would hold the grace period to its end (and a
     * suspended connection must not outlive the daemon): they end now. */
    stream_routes_close_all();
    struct timespec tick = {0, 20 * 1000 * 1000};
    for (int waited = 0; waited < grace_seconds * 50; waited++) {
        if (__atomic_load_n(&server->in_flight, __ATOMIC_ACQUIRE) == 0)
            break;
        nanosleep(&tick, NULL);
    }
    for (int i = 0; i < server->daemon_count; i++)
        MHD_stop_daemon(server->daemons[i]);
    free(server->daemons);
    acceptor_free(server->acceptor);
    reaper_stop(server->reaper);
    peers_free(server->peers);
    free(server);
}
