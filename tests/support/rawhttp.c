/* rawhttp.c: see rawhttp.h. */
#include "rawhttp.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

int rawhttp_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in to = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&to, sizeof to), 0,
                 "connect: %s", strerror(errno));
    return fd;
}

double rawhttp_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int rawhttp_status_within(int fd, double limit)
{
    char head[512];
    size_t len = 0;
    double until = rawhttp_now() + limit;
    while (len < 12) {
        int left = (int)((until - rawhttp_now()) * 1000);
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
