/* raw_http.h: plain requests to the test server that keep the answer's
 * rate limit headers (the e2e client keeps only status and body), from
 * any address a trusted proxy could forward for. One raw_client per
 * thread; it keeps its connection alive between requests. */
#ifndef TESTS_SERVICE_RATELIMIT_RAW_HTTP_H
#define TESTS_SERVICE_RATELIMIT_RAW_HTTP_H

#include <stdbool.h>

typedef struct raw_answer {
    long status; /* 0 when no answer came */
    char retry_after[32];
    char policy[128];    /* RateLimit-Policy, "" when absent */
    char ratelimit[128]; /* RateLimit, "" when absent */
    char body[1024];     /* the start of the body */
} raw_answer;

typedef struct raw_client raw_client;

raw_client *raw_client_new(int port);
void raw_client_free(raw_client *c);

/* GET path; forwarded_for, when not NULL, goes in X-Forwarded-For. */
raw_answer raw_get(raw_client *c, const char *path, const char *forwarded_for);

#endif
