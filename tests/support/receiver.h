/* receiver.h: the loopback receivers the tests start (Node processes in
 * tests/node: the SMTP receiver, the webhook receivers), and bounded
 * waits on the JSON lines they record. */
#ifndef TESTS_SUPPORT_RECEIVER_H
#define TESTS_SUPPORT_RECEIVER_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

/* The lines read so far and where reading stopped (receiver.c). */
struct receiver_log;

typedef struct receiver {
    pid_t pid;
    int port;
    char out[64];      /* JSON lines it writes */
    char secrets[64];  /* whsec_ secrets it verifies with */
    /* What was read of out: each line is read and parsed once, however
     * often it is asked for, and waits are woken when out changes. */
    struct receiver_log *log;
} receiver;

/* Starts tests/node/<script> with extra arguments (NULL-terminated). */
void receiver_start(receiver *r, const char *script, const char *const *args);
void receiver_stop(receiver *r);
void receiver_add_secret(receiver *r, const char *secret);

/* Every line so far, as a new array (caller decrefs); only what was
 * written since the last look is read. */
json_t *receiver_lines(const receiver *r);

/* How many lines have been written so far. */
size_t receiver_count(const receiver *r);

/* Line index (from 0), waiting for it until the monotonic time until
 * (receiver_now() + seconds): borrowed (the receiver keeps it until
 * receiver_stop), or NULL when it has not come by then. Woken as soon as
 * the receiver writes, not by polling. */
const json_t *receiver_await(const receiver *r, size_t index, double until);

/* Waits up to seconds for at least count lines; returns every line so far
 * (caller decrefs), fewer than count when they did not come. */
json_t *receiver_wait(const receiver *r, size_t count, int seconds);

/* The monotonic clock receiver_await's until is read on, in seconds. */
double receiver_now(void);

/* Sleeps ms milliseconds (between polls of a bounded wait). */
void pause_ms(int ms);

#endif
