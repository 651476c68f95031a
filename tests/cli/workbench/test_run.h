/* test_run.h: running the built `pbem` binary for the workbench suite.
 *
 * The binary is $PBEM_CLI (set by `make test`), else build/pbem; example
 * positions are read from rules/<game>/examples/, both relative to the
 * repository root, where the suite is run from.
 */
#ifndef TESTS_CLI_WORKBENCH_TEST_RUN_H
#define TESTS_CLI_WORKBENCH_TEST_RUN_H

#include <jansson.h>

typedef struct wb_result {
    int status;  /* exit status, or -1 when it did not exit normally */
    char *out;   /* standard output (malloc'd, never NULL) */
    char *err;   /* standard error (malloc'd, never NULL) */
} wb_result;

/* Runs `pbem ARGS…` (args NULL-terminated, without "pbem") with input on
 * standard input (NULL: empty). Fails the test if it cannot be started. */
wb_result wb_run(const char *input, const char *const *args);
void wb_free(wb_result *r);

/* The text of rules/<game>/examples/<name>.json (malloc'd). */
char *wb_example(const char *game, const char *name);

/* `pbem rules GAME apply` with moves "S:TEXT" (seat, colon, move), NULL-
 * terminated; asserts success and returns the new position (malloc'd). */
char *wb_apply(const char *game, const char *position,
               const char *const *moves);

/* Asserts that `pbem rules GAME apply --seat seat --move text` is refused
 * with status 1 and a sentence on stderr holding words. */
void wb_refused(const char *game, const char *position, int seat,
                const char *text, const char *words);

/* `pbem rules GAME VERB` on position (score, pending, …), parsed; asserts
 * success. New reference. */
json_t *wb_read(const char *game, const char *verb, const char *position);

/* The integer at index i of array key of object. */
long long wb_int_at(const json_t *object, const char *key, size_t i);

/* Whether `pbem rules list` names game (an engine may not be registered
 * yet while it is being written). */
int wb_has_engine(const char *game);

#endif
