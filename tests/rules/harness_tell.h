/* harness_tell.h: the harness's own way into its tell checks, for
 * harness.c, which has the snapshots at hand already. */
#ifndef TESTS_RULES_HARNESS_TELL_H
#define TESTS_RULES_HARNESS_TELL_H

#include "harness.h"

/* harness_check_tells with save(before) and save(after) made by the caller
 * (borrowed; NULL: made here). */
void harness_check_tells_saved(const rules_engine *engine,
                               const rules_state *before,
                               const rules_state *after, json_t *saved_before,
                               json_t *saved_after, int actor,
                               const json_t *action, int seats,
                               const char *where);

#endif
