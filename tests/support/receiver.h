/* receiver.h: the loopback receivers the tests start (Node processes in
 * tests/node: the SMTP receiver, the webhook receivers), and bounded
 * waits on the JSON lines they record. */
#ifndef TESTS_SUPPORT_RECEIVER_H
#define TESTS_SUPPORT_RECEIVER_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

typedef struct receiver {
    pid_t pid;
    int port;
    char out[64];      /* JSON lines it writes */
    char secrets[64];  /* whsec_ secrets it verifies with */
} receiver;

/* Starts tests/node/<script> with extra arguments (NULL-terminated). */
void receiver_start(receiver *r, const char *script, const char *const *args);
void receiver_stop(receiver *r);
void receiver_add_secret(receiver *r, const char *secret);

/* Every line so far (caller decrefs). */
json_t *receiver_lines(const receiver *r);

/* Waits up to seconds for at least count lines; returns them. */
json_t *receiver_wait(const receiver *r, size_t count, int seconds);

/* Sleeps ms milliseconds (between polls of a bounded wait). */
void pause_ms(int ms);

#endif
