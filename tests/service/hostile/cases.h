/* cases.h: the malformed requests of the hostile suite, each with what
 * the server must do with it. Shared by the per-case test and the memory
 * bound, which sends the prompt ones thousands of times. */
#ifndef TESTS_SERVICE_HOSTILE_CASES_H
#define TESTS_SERVICE_HOSTILE_CASES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum hostile_expect {
    EXPECT_STATUS,        /* exactly status */
    EXPECT_REFUSED,       /* a 4xx, or closed without an answer */
    EXPECT_SERVED_FIRST,  /* a good request first: 200, the rest no 5xx */
} hostile_expect;

typedef struct hostile_case {
    const char *name;
    char *bytes;
    size_t len;
    hostile_expect expect;
    int status;  /* for EXPECT_STATUS */
    bool prompt; /* answered (and closed) at once, without the deadline */
} hostile_case;

/* Every case, allocated; count set. */
hostile_case *hostile_cases(size_t *count);
void hostile_cases_free(hostile_case *cases, size_t count);

#endif
