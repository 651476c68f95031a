/* Hostile HTTP against the real pbemd: requests libmicrohttpd refuses
 * before our handler sees them, and bodies in codings it cannot read. Each
 * must get an answer at once and leave nothing behind: no record kept, no
 * request counted in flight that would hold a shutdown for its grace. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "../../support/wire.h"

/* "GET /healthz?a0=1&a1=1…" with count arguments. */
static char *many_arguments(int count)
{
    size_t cap = (size_t)count * 16 + 128;
    char *request = malloc(cap);
    cr_assert_not_null(request);
    size_t len = (size_t)snprintf(request, cap, "GET /healthz?");
    for (int i = 0; i < count; i++)
        len += (size_t)snprintf(request + len, cap - len, "%sa%d=1",
                                i ? "&" : "", i);
    snprintf(request + len, cap - len,
             " HTTP/1.1\r\nHost: x\r\n\r\n");
    return request;
}

/* SIGTERM; the seconds until pbemd exited 0. */
static double seconds_to_stop(e2e_server *server)
{
    double began = wire_now();
    int status = e2e_stop(server);
    cr_expect_eq(status, 0, "pbemd exit status %d", status);
    return wire_now() - began;
}

Test(hostile_http, requests_refused_while_parsed_leave_nothing_in_flight,
     .timeout = 120)
{
    e2e_server server = {0};
    e2e_start(&server);
    char *arguments = many_arguments(500);
    char *target = malloc(30 * 1024 + 64);
    cr_assert_not_null(target);
    int len = snprintf(target, 64, "GET /healthz?x=");
    memset(target + len, 'a', 30 * 1024);
    strcpy(target + len + 30 * 1024, " HTTP/1.1\r\nHost: x\r\n\r\n");

    long before = wire_rss_kib(server.pid);
    for (int i = 0; i < 1000; i++) {
        int fd = wire_connect(server.port);
        if (i % 2) {
            /* libmicrohttpd runs out of room for the arguments and never
             * answers; the client gives up at once. */
            wire_send(fd, arguments, strlen(arguments));
        } else {
            wire_send(fd, target, strlen(target));
            int status = wire_status_within(fd, 5);
            cr_assert(status > 0 && status < 500,
                      "a 30 KB target got %d instead of an answer at once",
                      status);
        }
        close(fd);
    }
    long after = wire_rss_kib(server.pid);
    cr_log_info("RSS %ld KiB before, %ld KiB after 1000 hostile requests",
                before, after);
    free(arguments);
    free(target);

    e2e_response r = e2e_call(&server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    /* The grace is 30 s: a request counted in flight forever holds the
     * stop for all of it. */
    double seconds = seconds_to_stop(&server);
    cr_expect_lt(seconds, 10.0, "SIGTERM took %.1f s", seconds);
}

Test(hostile_http, an_unknown_transfer_coding_is_refused_at_once,
     .timeout = 60)
{
    e2e_server server = {0};
    e2e_start(&server);
    static const char request[] =
        "POST /v1/players HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\n"
        "Transfer-Encoding: gzip\r\n\r\n"
        "{\"name\":\"gz\"";
    int fd = wire_connect(server.port);
    wire_send(fd, request, sizeof request - 1);
    /* The connection stays open, as a client waiting for its answer
     * keeps it: the server must not wait for the end of the body. */
    int status = wire_status_within(fd, 5);
    close(fd);
    cr_expect_eq(status, 501, "got %d", status);

    e2e_response r = e2e_call(&server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    double seconds = seconds_to_stop(&server);
    cr_expect_lt(seconds, 10.0, "SIGTERM took %.1f s", seconds);
}

/* A player who signs a move over another spelling of its path would have
 * it recorded with that spelling, which no export check can rebuild: one
 * player could make every backup of the match fail to import. The server
 * reads the path as the export check does, and refuses every other
 * spelling before anything is applied. */
Test(hostile_http, a_signed_path_has_one_spelling, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_int_t seq = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    json_t *view = e2e_get(&t, "/view", &t.players[seat]);
    json_t *action = json_incref(json_array_get(
        json_object_get(json_object_get(view, "legal"), "moves"), 0));
    json_decref(view);
    json_t *body = json_pack("{s:I,s:O}", "seq", seq, "action", action);
    char *text = json_dumps(body, JSON_COMPACT);
    const char *number = t.match + 2;

    /* Dot segments are path_match's own tests: libcurl resolves them
     * before sending. */
    char spelled[4][160];
    /* Every digit of the id escaped. */
    int len = snprintf(spelled[0], sizeof spelled[0], "/v1/matches/m_");
    for (const char *d = number; *d != '\0'; d++)
        len += snprintf(spelled[0] + len, sizeof spelled[0] - (size_t)len,
                        "%%%02X", (unsigned char)*d);
    snprintf(spelled[0] + len, sizeof spelled[0] - (size_t)len, "/moves");
    snprintf(spelled[1], sizeof spelled[1], "/v1/matches/%s/moves%%00x",
             t.match);
    snprintf(spelled[2], sizeof spelled[2], "/v1/matches/%s/mov%%65s",
             t.match);
    snprintf(spelled[3], sizeof spelled[3], "/v1/%%6datches/%s/moves",
             t.match);
    for (size_t i = 0; i < sizeof spelled / sizeof *spelled; i++) {
        e2e_response r =
            e2e_call_signed(&t.server, "POST", spelled[i], text,
                            &t.players[seat], (int64_t)time(NULL), NULL,
                            NULL, false);
        cr_expect(r.status == 404 &&
                      strcmp(e2e_error_code(&r), "non_canonical_path") == 0,
                  "POST %s: %ld %s", spelled[i], r.status, r.body);
        e2e_response_free(&r);
        cr_expect_eq(e2e_head_seq(&t), seq, "POST %s moved the match",
                     spelled[i]);
    }
    /* The plain spelling still plays. */
    e2e_response r = e2e_post_move(&t, seat, seq, action);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    cr_expect_eq(e2e_head_seq(&t), seq + 1);
    free(text);
    json_decref(body);
    json_decref(action);
    e2e_stop(&t.server);
}

/* A request that announces more body than its cap is refused before any
 * of it is read, with the connection closed behind the answer. */
static int announced_body_status(int port, const char *path, size_t length,
                                 const char *extra_headers)
{
    char head[1024];
    snprintf(head, sizeof head,
             "POST %s HTTP/1.1\r\nHost: x\r\n"
             "Content-Type: application/json\r\n%s"
             "Content-Length: %zu\r\n\r\n",
             path, extra_headers, length);
    int fd = wire_connect(port);
    wire_send(fd, head, strlen(head));
    int status = wire_status_within(fd, 5);
    close(fd);
    return status;
}

/* Signature headers that name keyid but sign nothing checkable: enough
 * for a claim, never for a check. */
static void fake_signature(const char *keyid, char *out, size_t size)
{
    char zeros[89];
    memset(zeros, 'A', 86);
    strcpy(zeros + 86, "==");
    snprintf(out, size,
             "Signature-Input: sig1=(\"@method\");created=1;keyid=\"%s\";"
             "alg=\"ed25519\"\r\nSignature: sig1=:%s:\r\n",
             keyid, zeros);
}

/* The import route takes 8 MiB and the mail route 1 MiB, but only from a
 * request whose signature headers name the admin's or the mail server's
 * key: anyone else gets everyone's 64 KiB before the body is read. */
Test(hostile_http, the_large_caps_are_for_the_admin_and_the_mail_server,
     .timeout = 60)
{
    /* Any 32 bytes make a key to claim. */
    setenv("PBEM_ADMIN_KEY", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", 1);
    setenv("PBEM_MAIL_INBOUND_KEY",
           "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", 1);
    e2e_server server = {0};
    e2e_start(&server);
    char admin[512], mail[512], player[512];
    fake_signature("admin", admin, sizeof admin);
    fake_signature("mail", mail, sizeof mail);
    fake_signature("p_1", player, sizeof player);
    size_t mib = 1024 * 1024;
    struct {
        const char *path;
        const char *headers;
    } refused[] = {
        {"/v1/admin/matches/import", ""},
        {"/v1/admin/matches/import", player},
        {"/v1/admin/matches/import", mail},
        {"/v1/mail/inbound", ""},
        {"/v1/mail/inbound", admin},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        int status = announced_body_status(server.port, refused[i].path,
                                           mib / 2, refused[i].headers);
        cr_expect_eq(status, 413, "POST %s with %s: %d", refused[i].path,
                     refused[i].headers[0] ? refused[i].headers : "no signature",
                     status);
    }
    /* The claim gets the body read (then the signature fails). */
    char *body = malloc(mib / 2);
    cr_assert_not_null(body);
    memset(body, ' ', mib / 2);
    body[0] = '{';
    body[mib / 2 - 1] = '}';
    struct {
        const char *path;
        const char *headers;
    } read[] = {
        {"/v1/admin/matches/import", admin},
        {"/v1/mail/inbound", mail},
    };
    for (size_t i = 0; i < sizeof read / sizeof *read; i++) {
        char head[1024];
        snprintf(head, sizeof head,
                 "POST %s HTTP/1.1\r\nHost: x\r\n"
                 "Content-Type: application/json\r\n%s"
                 "Content-Length: %zu\r\n\r\n",
                 read[i].path, read[i].headers, mib / 2);
        int fd = wire_connect(server.port);
        wire_send(fd, head, strlen(head));
        wire_send(fd, body, mib / 2);
        int status = wire_status_within(fd, 10);
        close(fd);
        cr_expect(status == 401 || status == 400, "POST %s as claimed: %d",
                  read[i].path, status);
    }
    free(body);
    unsetenv("PBEM_ADMIN_KEY");
    unsetenv("PBEM_MAIL_INBOUND_KEY");
    e2e_stop(&server);
}

/* True when the server closed fd within limit seconds. */
static bool closed_within(int fd, double limit)
{
    double until = wire_now() + limit;
    char sink[4096];
    for (;;) {
        int left = (int)((until - wire_now()) * 1000);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, left) != 1)
            return false;
        ssize_t n = recv(fd, sink, sizeof sink, 0);
        if (n <= 0)
            return true;
    }
}

/* A chunked body has no length to check against the cap before it is
 * read, and libmicrohttpd 0.9.75 answers some malformed ones 500 itself:
 * it is refused at its headers, with the connection closed, however much
 * of it the client goes on sending. */
Test(hostile_http, a_chunked_body_is_refused_before_it_is_read,
     .timeout = 60)
{
    e2e_server server = {0};
    e2e_start(&server);
    static const char head[] =
        "POST /v1/players HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n";
    size_t chunk = 96 * 1024;
    char *text = malloc(chunk + 32);
    cr_assert_not_null(text);
    int len = snprintf(text, 32, "%zx\r\n", chunk);
    memset(text + len, ' ', chunk);
    memcpy(text + len + chunk, "\r\n", 2);
    int fd = wire_connect(server.port);
    wire_send(fd, head, sizeof head - 1);
    cr_expect_eq(wire_status_within(fd, 5), 411,
                 "a chunked body was not refused at its headers");
    /* The body does not end: the client would go on sending. */
    wire_send(fd, text, (size_t)len + chunk + 2);
    cr_expect(closed_within(fd, 5), "a refused chunked body was read on");
    close(fd);
    free(text);
    e2e_response r = e2e_call(&server, "GET", "/healthz", NULL, NULL);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    e2e_stop(&server);
}

/* The figures of the issue: 100 anonymous 8 MiB bodies sent at once to
 * the import route took RSS from 17 to 893 MB. Each is now held to the
 * normal cap: refused at its announced length, however much of it the
 * client pushes anyway. */
Test(hostile_http, anonymous_import_bodies_hold_no_memory, .timeout = 120)
{
    e2e_server server = {0};
    e2e_start(&server);
    enum { clients = 100 };
    size_t mib8 = 8u << 20, chunk = 256 * 1024;
    char head[256];
    snprintf(head, sizeof head,
             "POST /v1/admin/matches/import HTTP/1.1\r\nHost: x\r\n"
             "Content-Type: application/json\r\n"
             "Content-Length: %zu\r\n\r\n",
             mib8);
    char *text = malloc(chunk);
    cr_assert_not_null(text);
    memset(text, ' ', chunk);
    long before = wire_rss_kib(server.pid);
    int fds[clients];
    for (int i = 0; i < clients; i++) {
        fds[i] = wire_connect(server.port);
        wire_send(fds[i], head, strlen(head));
    }
    /* The answer is read before the body is pushed: bytes sent after the
     * server closed would reset the connection and could drop it. */
    int refused = 0;
    for (int i = 0; i < clients; i++)
        refused += wire_status_within(fds[i], 5) == 413;
    /* 8 MiB each, a piece to each in turn, so all are in flight at once. */
    for (size_t sent = 0; sent < mib8; sent += chunk)
        for (int i = 0; i < clients; i++)
            wire_send(fds[i], text, chunk);
    long after = wire_rss_kib(server.pid);
    for (int i = 0; i < clients; i++)
        close(fds[i]);
    free(text);
    cr_log_info("RSS %ld KiB before, %ld KiB with 100 anonymous 8 MiB "
                "imports in flight",
                before, after);
    cr_expect_eq(refused, clients, "%d of %d refused with 413", refused,
                 clients);
    cr_expect_lt(after - before, 64 * 1024,
                 "RSS grew from %ld to %ld KiB", before, after);
    e2e_stop(&server);
}

/* A socket from source address 127.0.0.<host>, not yet connected to the
 * server (non-blocking connect). -1 when the system refuses one. */
static int connect_from(int host, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in from = {.sin_family = AF_INET};
    from.sin_addr.s_addr = htonl(INADDR_LOOPBACK - 1 + (uint32_t)host);
    struct sockaddr_in to = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&from, sizeof from) != 0 ||
        (connect(fd, (struct sockaddr *)&to, sizeof to) != 0 &&
         errno != EINPROGRESS)) {
        close(fd);
        return -1;
    }
    return fd;
}

typedef struct probe {
    int port;
    volatile bool stop;
    double worst;    /* the slowest /healthz answer, seconds */
    int answered, unanswered;
} probe;

/* A normal client from 127.0.0.1: /healthz on a new connection, again and
 * again, each given 10 s. */
static void *probe_healthz(void *arg)
{
    probe *p = arg;
    static const char request[] =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    while (!p->stop) {
        double began = wire_now();
        int fd = wire_connect(p->port);
        wire_send(fd, request, sizeof request - 1);
        int status = wire_status_within(fd, 10);
        close(fd);
        double took = wire_now() - began;
        if (status == 200)
            p->answered++;
        else
            p->unanswered++;
        if (took > p->worst)
            p->worst = took;
        struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return NULL;
}

/* Slowloris: 1,000 connections, 200 from each of five addresses (the
 * per-address limit), each sending a header line every second and
 * opening again whenever the server drops it, for 8 s. With a 2 s
 * deadline for a request to arrive, a normal client's /healthz is answered
 * within 2 deadlines and a second: a slot freed by the deadline goes to
 * whoever waited first. */
Test(hostile_http, slow_clients_do_not_hold_the_server, .timeout = 120)
{
    setenv("PBEM_HTTP_REQUEST_SECONDS", "2", 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_HTTP_REQUEST_SECONDS");
    enum { hosts = 5, per_host = 200, slow = hosts * per_host };
    static const char opening[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
    static const char line[] = "X-Slow: 1\r\n";
    int fds[slow];
    bool opened[slow];
    for (int i = 0; i < slow; i++) {
        fds[i] = connect_from(2 + i / per_host, server.port);
        opened[i] = false;
    }
    probe p = {.port = server.port};
    pthread_t prober;
    cr_assert_eq(pthread_create(&prober, NULL, probe_healthz, &p), 0);
    int reopened = 0;
    double began = wire_now();
    while (wire_now() - began < 8) {
        for (int i = 0; i < slow; i++) {
            if (fds[i] < 0) {
                fds[i] = connect_from(2 + i / per_host, server.port);
                opened[i] = false;
                continue;
            }
            /* Closed by the server: open again, as an attacker would. */
            char sink[64];
            ssize_t n = recv(fds[i], sink, sizeof sink, MSG_DONTWAIT);
            bool dead = n == 0 || (n < 0 && errno != EAGAIN &&
                                   errno != EWOULDBLOCK && errno != ENOTCONN);
            const char *text = opened[i] ? line : opening;
            size_t len = opened[i] ? sizeof line - 1 : sizeof opening - 1;
            if (!dead && send(fds[i], text, len, MSG_NOSIGNAL) == (ssize_t)len)
                opened[i] = true;
            else if (dead || (errno != EAGAIN && errno != ENOTCONN &&
                              errno != EINPROGRESS)) {
                close(fds[i]);
                fds[i] = connect_from(2 + i / per_host, server.port);
                opened[i] = false;
                reopened++;
            }
        }
        struct timespec second = {1, 0};
        nanosleep(&second, NULL);
    }
    p.stop = true;
    pthread_join(prober, NULL);
    for (int i = 0; i < slow; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    cr_log_info("slowloris: %d slow connections, %d opened again; /healthz "
                "answered %d times, %d not, slowest %.2f s",
                slow, reopened, p.answered, p.unanswered, p.worst);
    cr_expect_gt(p.answered, 0);
    cr_expect_eq(p.unanswered, 0);
    cr_expect_lt(p.worst, 5.0, "the slowest /healthz took %.2f s", p.worst);
    e2e_stop(&server);
}

/* A blocking socket from 127.0.0.<host>, connected. */
static int connect_blocking_from(int host, int port)
{
    int fd = connect_from(host, port);
    cr_assert_geq(fd, 0);
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    cr_assert_eq(poll(&p, 1, 5000), 1);
    int flags = 0;
    cr_assert_eq(ioctl(fd, FIONBIO, &flags), 0);
    return fd;
}

/* "GET /healthz" from 127.0.0.<host>: its status within 5 s, 0 for none. */
static int healthz_from(int host, int port)
{
    static const char request[] =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    int fd = connect_blocking_from(host, port);
    wire_send(fd, request, sizeof request - 1);
    int status = wire_status_within(fd, 5);
    close(fd);
    return status;
}

/* Behind the TLS proxy deploy/ recommends, every user shares its address:
 * the limit of 200 connections per address must not lock them all out at
 * once. A trusted proxy is exempt; any other address still is not. */
Test(hostile_http, a_trusted_proxy_is_not_held_to_one_address_limit,
     .timeout = 60)
{
    setenv("PBEM_TRUSTED_PROXIES", "127.0.0.2", 1);
    e2e_server server = {0};
    e2e_start(&server);
    unsetenv("PBEM_TRUSTED_PROXIES");
    enum { held = 250 };
    static const char opening[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
    int proxy[held], other[held];
    for (int i = 0; i < held; i++) {
        proxy[i] = connect_blocking_from(2, server.port);
        wire_send(proxy[i], opening, sizeof opening - 1);
        other[i] = connect_blocking_from(3, server.port);
        wire_send(other[i], opening, sizeof opening - 1);
    }
    cr_expect_eq(healthz_from(2, server.port), 200,
                 "the trusted proxy was locked out");
    cr_expect_eq(healthz_from(3, server.port), 429,
                 "an untrusted address past 200 connections was not told "
                 "so");
    cr_expect_eq(healthz_from(1, server.port), 200);
    for (int i = 0; i < held; i++) {
        close(proxy[i]);
        close(other[i]);
    }
    e2e_stop(&server);
}

Test(hostile_http, a_trusted_proxy_that_is_not_an_address_stops_the_start,
     .timeout = 60)
{
    int err[2];
    cr_assert_eq(pipe(err), 0);
    char key_file[256];
    snprintf(key_file, sizeof key_file, "%s/proxies-%d.key",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(err[1], STDERR_FILENO);
        close(err[0]);
        close(err[1]);
        setenv("PBEM_TRUSTED_PROXIES", "127.0.0.2,proxy.example", 1);
        setenv("PBEM_LISTEN", "127.0.0.1:0", 1);
        setenv("PBEM_KEY_FILE", key_file, 1);
        setenv("PBEM_QUIET", "1", 1);
        execl(getenv("PBEM_BIN"), "pbemd", (char *)NULL);
        _exit(127);
    }
    close(err[1]);
    char said[4096] = {0};
    size_t len = 0;
    ssize_t n;
    while (len < sizeof said - 1 &&
           (n = read(err[0], said + len, sizeof said - 1 - len)) > 0)
        len += (size_t)n;
    close(err[0]);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    unlink(key_file);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 0,
              "pbemd started with a bad PBEM_TRUSTED_PROXIES");
    cr_expect_not_null(strstr(said, "\"proxy.example\" is not an IPv4"),
                       "pbemd said: %s", said);
}
