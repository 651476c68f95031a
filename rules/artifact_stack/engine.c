/* engine.c: the rules_engine table of Artifact Stack. */
#include "artifact_stack.h"
#include "artifact_stack_internal.h"

const rules_engine as_engine = {
    .name = "artifact_stack",
    .title = "Artifact Stack",
    .version = 2,
    .min_seats = 2,
    .max_seats = 4,
    .describe_options = as_describe_options,
    .setup = as_setup,
    .clone = as_clone,
    .destroy = as_destroy,
    .pending = as_pending,
    .apply = as_apply,
    .view = as_view,
    .legal = as_legal,
    .format_move = as_format_move,
    .parse_move = as_parse_move,
    .view_text = as_view_text,
    .result = as_result,
    .save = as_save,
    .load = as_load,
    .check = as_check,
    .default_move = as_default_move,
    .tell = as_tell,
};
