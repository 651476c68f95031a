/* slow_clients.c: a normal client's latency while slow clients hold
 * connections, the figure of issue #21 (1,000 connections sending a
 * header line every 8 s made /healthz time out for everyone).
 *   slow_clients PORT SLOW SECONDS
 *       opens SLOW connections to 127.0.0.1:PORT, 200 from each of the
 *       addresses 127.0.0.2, .3, … (the per-address limit), each sending
 *       a request's headers a line a second and never ending them; one
 *       dropped by the server is opened again. Meanwhile a normal client
 *       from 127.0.0.1 sends GET /healthz on a new connection, one after
 *       the other, for SECONDS. Prints the slow connections held at the
 *       end, how many were dropped and opened again, and the normal
 *       client's p50/p99/max and failures (no answer within 10 s).
 * Raw sockets: a slow client is not something libcurl can be. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PER_ADDRESS 200
#define MAX_SAMPLES 200000

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A non-blocking connection from 127.0.0.<host>; -1 when refused. */
static int open_from(int host, int port)
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

typedef struct normal {
    int port;
    volatile bool stop;
    double *samples;
    int count, failed;
} normal;

/* One GET /healthz on a new connection: its seconds, or -1. */
static double one_request(int port)
{
    static const char request[] =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    double began = now_seconds();
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    double took = -1;
    if (fd >= 0 && connect(fd, (struct sockaddr *)&to, sizeof to) == 0 &&
        send(fd, request, sizeof request - 1, MSG_NOSIGNAL) ==
            (ssize_t)(sizeof request - 1)) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        char head[16];
        if (poll(&p, 1, 10000) == 1 && recv(fd, head, sizeof head, 0) >= 12 &&
            memcmp(head + 9, "200", 3) == 0)
            took = now_seconds() - began;
    }
    if (fd >= 0)
        close(fd);
    return took;
}

static void *run_normal(void *arg)
{
    normal *n = arg;
    while (!n->stop && n->count < MAX_SAMPLES) {
        double took = one_request(n->port);
        if (took < 0)
            n->failed++;
        else
            n->samples[n->count++] = took;
    }
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: slow_clients PORT SLOW SECONDS\n");
        return 2;
    }
    int port = atoi(argv[1]), slow = atoi(argv[2]);
    double seconds = atof(argv[3]);
    int *fds = calloc((size_t)slow, sizeof *fds);
    bool *opened = calloc((size_t)slow, sizeof *opened);
    normal n = {.port = port, .samples = calloc(MAX_SAMPLES, sizeof(double))};
    if (fds == NULL || opened == NULL || n.samples == NULL)
        return 1;
    for (int i = 0; i < slow; i++)
        fds[i] = open_from(2 + i / PER_ADDRESS, port);
    static const char opening[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
    static const char line[] = "X-Slow: 1\r\n";
    pthread_t thread;
    if (pthread_create(&thread, NULL, run_normal, &n) != 0)
        return 1;
    int reopened = 0, held = 0;
    double began = now_seconds();
    while (now_seconds() - began < seconds) {
        held = 0;
        for (int i = 0; i < slow; i++) {
            char sink[64];
            ssize_t got = fds[i] < 0 ? 0
                                     : recv(fds[i], sink, sizeof sink,
                                            MSG_DONTWAIT);
            bool dropped = got == 0 ||
                           (got < 0 && errno != EAGAIN &&
                            errno != EWOULDBLOCK && errno != ENOTCONN);
            const char *text = opened[i] ? line : opening;
            size_t len = opened[i] ? sizeof line - 1 : sizeof opening - 1;
            if (!dropped &&
                send(fds[i], text, len, MSG_NOSIGNAL) == (ssize_t)len) {
                opened[i] = true;
                held++;
                continue;
            }
            if (dropped || (errno != EAGAIN && errno != ENOTCONN &&
                            errno != EINPROGRESS)) {
                if (fds[i] >= 0)
                    close(fds[i]);
                fds[i] = open_from(2 + i / PER_ADDRESS, port);
                opened[i] = false;
                reopened++;
            }
        }
        struct timespec second = {1, 0};
        nanosleep(&second, NULL);
    }
    n.stop = true;
    pthread_join(thread, NULL);
    for (int i = 0; i < slow; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    qsort(n.samples, (size_t)n.count, sizeof *n.samples, by_value);
    double p50 = n.count ? n.samples[n.count / 2] : 0;
    double p99 = n.count ? n.samples[(int)((n.count - 1) * 0.99)] : 0;
    double max = n.count ? n.samples[n.count - 1] : 0;
    printf("slow=%d held=%d reopened=%d normal: requests=%d failed=%d "
           "p50=%.2f ms p99=%.2f ms max=%.2f ms\n",
           slow, held, reopened, n.count, n.failed, p50 * 1e3, p99 * 1e3,
           max * 1e3);
    free(fds);
    free(opened);
    free(n.samples);
    return 0;
}
