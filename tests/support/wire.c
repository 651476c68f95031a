#include "wire.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

double wire_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int wire_connect_from(int host, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in from = {.sin_family = AF_INET};
    from.sin_addr.s_addr = htonl(INADDR_LOOPBACK - 1 + (uint32_t)host);
    cr_assert_eq(bind(fd, (struct sockaddr *)&from, sizeof from), 0,
                 "bind 127.0.0.%d: %s", host, strerror(errno));
    struct sockaddr_in to = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&to, sizeof to), 0,
                 "connect: %s", strerror(errno));
    return fd;
}

int wire_connect(int port)
{
    return wire_connect_from(1, port);
}

void wire_send(int fd, const void *bytes, size_t len)
{
    const char *at = bytes;
    while (len > 0) {
        ssize_t n = send(fd, at, len, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        at += n;
        len -= (size_t)n;
    }
}

/* Status lines in what was read: "HTTP/1.x NNN " at the start or right
 * after a previous answer's bytes. Counting every "HTTP/1." is enough for
 * the bodies this server sends (JSON and libmicrohttpd's short HTML). */
static void count_answers(const char *text, size_t len, wire_outcome *out)
{
    for (size_t i = 0; i + 12 <= len; i++) {
        if (memcmp(text + i, "HTTP/1.", 7) != 0 || text[i + 8] != ' ')
            continue;
        int status = atoi(text + i + 9);
        if (out->answers == 0)
            out->status = status;
        if (status > out->worst)
            out->worst = status;
        out->answers++;
    }
}

/* Reads from fd until the server closes (true) or until passes (false),
 * keeping the first cap bytes in text; *len receives how many. */
static bool read_until(int fd, double until, char *text, size_t cap,
                       size_t *len)
{
    *len = 0;
    for (;;) {
        int left = (int)((until - wire_now()) * 1000);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, left) != 1)
            return false;
        char block[4096];
        ssize_t n = recv(fd, block, sizeof block, 0);
        if (n <= 0)
            return true;
        /* Only the head of what came matters; a long answer is cut. */
        size_t keep = *len + (size_t)n <= cap ? (size_t)n : cap - *len;
        memcpy(text + *len, block, keep);
        *len += keep;
    }
}

wire_outcome wire_read_until(int fd, double until)
{
    wire_outcome out = {0};
    size_t cap = 64 * 1024, len = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    out.closed = read_until(fd, until, text, cap, &len);
    count_answers(text, len, &out);
    free(text);
    return out;
}

long wire_rss_kib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    long kib = -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmRSS: %ld", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

char *wire_quarantine_off(void)
{
#ifdef __SANITIZE_ADDRESS__
    const char *given = getenv("ASAN_OPTIONS");
    char *saved = given != NULL ? strdup(given) : NULL;
    char options[512];
    snprintf(options, sizeof options, "%s%squarantine_size_mb=0",
             given ? given : "", given && *given ? ":" : "");
    setenv("ASAN_OPTIONS", options, 1);
    return saved;
#else
    return NULL;
#endif
}

void wire_quarantine_restore(char *saved)
{
#ifdef __SANITIZE_ADDRESS__
    if (saved != NULL)
        setenv("ASAN_OPTIONS", saved, 1);
    else
        unsetenv("ASAN_OPTIONS");
#endif
    free(saved);
}

int wire_status_within(int fd, double limit)
{
    char head[512];
    size_t len = 0;
    double until = wire_now() + limit;
    while (len < 12) {
        int left = (int)((until - wire_now()) * 1000);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, left) != 1)
            return 0;
        ssize_t n = recv(fd, head + len, sizeof head - 1 - len, 0);
        if (n <= 0)
            return 0;
        len += (size_t)n;
    }
    head[len] = '\0';
    return atoi(head + 9);
}

size_t wire_read_text_until(int fd, double until, char *out, size_t size)
{
    size_t len = 0;
    read_until(fd, until, out, size - 1, &len);
    out[len] = '\0';
    return len;
}

int wire_close_wait(int port)
{
    /* st 08 is TCP_CLOSE_WAIT; addresses and ports are hexadecimal. */
    FILE *f = fopen("/proc/net/tcp", "r");
    cr_assert_not_null(f, "/proc/net/tcp: %s", strerror(errno));
    char line[512];
    int count = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned local_port, state;
        if (sscanf(line, " %*d: %*x:%x %*x:%*x %x", &local_port, &state) == 2 &&
            (int)local_port == port && state == 0x08)
            count++;
    }
    fclose(f);
    return count;
}
