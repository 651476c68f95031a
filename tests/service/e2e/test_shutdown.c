/* SIGTERM while a request is in flight: pbemd stops taking connections at
 * once, finishes the request it has begun (its answer reaches the client
 * whole) and then exits 0. The request is held open with
 * "Expect: 100-continue": the server's "100 Continue" proves it has begun
 * the request before the signal, and the body goes out only once the
 * server has stopped listening, so the request can only finish during the
 * shutdown. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "ledger/httpsig.h"

/* A connected loopback socket, or -1 with errno set. */
static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in to = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

static void send_all(int fd, const char *text)
{
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t n = send(fd, text, len, MSG_NOSIGNAL);
        cr_assert_gt(n, 0, "the server closed the connection: %s",
                     strerror(errno));
        text += n;
        len -= (size_t)n;
    }
}

/* Reads until the peer closes or until the text holds until (NULL: only
 * the close); returns the bytes read as text. */
static void read_until(int fd, const char *until, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    while (len + 1 < cap && (until == NULL || strstr(out, until) == NULL)) {
        ssize_t n = recv(fd, out + len, cap - 1 - len, 0);
        if (n <= 0)
            break;
        len += (size_t)n;
        out[len] = '\0';
    }
}

/* Waits until a new connection to port is refused: the server has begun
 * its shutdown. Bounded by the test's timeout. */
static void wait_until_not_listening(int port)
{
    for (;;) {
        int fd = connect_to(port);
        /* Refused, or reset: a probe caught in the backlog as the
         * listening socket closed. */
        if (fd < 0) {
            cr_assert(errno == ECONNREFUSED || errno == ECONNRESET,
                      "connect: %s", strerror(errno));
            return;
        }
        close(fd);
        poll(NULL, 0, 10); /* the signal is being handled; look again */
    }
}

Test(shutdown, sigterm_lets_the_request_in_flight_finish, .timeout = 60)
{
    e2e_server server = {0};
    e2e_start(&server);

    /* A registration, signed by the key it registers. */
    client_key key;
    client_new_key(&key);
    char key_b64[64], body[256], nonce[33], head[2048];
    sodium_bin2base64(key_b64, sizeof key_b64, key.public_key,
                      sizeof key.public_key, sodium_base64_VARIANT_ORIGINAL);
    snprintf(body, sizeof body, "{\"name\":\"late\",\"public_key\":\"%s\"}",
             key_b64);
    uint8_t random[16];
    randombytes_buf(random, sizeof random);
    sodium_bin2hex(nonce, sizeof nonce, random, sizeof random);
    httpsig_request req = {.method = "POST",
                           .target = "/v1/players",
                           .body = (const unsigned char *)body,
                           .body_len = strlen(body)};
    static const char *const covered[] = {"@method", "@path",
                                          "content-digest"};
    httpsig_headers signed_headers;
    httpsig_error err;
    cr_assert(httpsig_sign(&req, covered, 3, key.key_id, nonce,
                           (int64_t)time(NULL), NULL, key.secret_key,
                           &signed_headers, &err),
              "%s", err.message);
    snprintf(head, sizeof head,
             "POST /v1/players HTTP/1.1\r\n"
             "Host: 127.0.0.1:%d\r\n"
             "Content-Type: application/json\r\n"
             "Content-Length: %zu\r\n"
             "Content-Digest: %s\r\n"
             "Signature-Input: %s\r\n"
             "Signature: %s\r\n"
             "Expect: 100-continue\r\n"
             "Connection: close\r\n\r\n",
             server.port, strlen(body), signed_headers.content_digest,
             signed_headers.signature_input, signed_headers.signature);
    httpsig_headers_free(&signed_headers);

    int fd = connect_to(server.port);
    cr_assert_geq(fd, 0, "connect: %s", strerror(errno));
    send_all(fd, head);
    char answer[8192];
    read_until(fd, "\r\n\r\n", answer, sizeof answer);
    cr_assert(strncmp(answer, "HTTP/1.1 100", 12) == 0,
              "no 100 Continue: %s", answer);

    cr_assert_eq(kill(server.pid, SIGTERM), 0);
    wait_until_not_listening(server.port);

    send_all(fd, body);
    read_until(fd, NULL, answer, sizeof answer);
    close(fd);
    cr_expect(strncmp(answer, "HTTP/1.1 201", 12) == 0,
              "the request begun before SIGTERM got: %.200s", answer);
    const char *json = strstr(answer, "\r\n\r\n");
    cr_expect(json != NULL && strstr(json, "\"key_id\"") != NULL,
              "the answer is not whole: %.400s", answer);

    int status = 0;
    cr_assert_eq(waitpid(server.pid, &status, 0), server.pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "pbemd did not exit 0 after SIGTERM (status %d)", status);
    client_free(server.http);
}
