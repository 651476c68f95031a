/* engine.c: the Another Man's Treasure rules_engine table. */
#include "amt_internal.h"

#include <stdlib.h>
#include <string.h>

static rules_state *amt_clone(const rules_state *state)
{
    amt_state *copy = malloc(sizeof *copy);
    if (copy == NULL)
        abort();
    memcpy(copy, state, sizeof *copy);
    return (rules_state *)copy;
}

static void amt_destroy(rules_state *state)
{
    free(state);
}

const rules_engine amt_engine = {
    .name = "another_mans_treasure",
    .title = "Another Man's Treasure",
    .version = 2,
    .min_seats = AMT_MIN_SEATS,
    .max_seats = AMT_MAX_SEATS,
    .describe_options = amt_describe_options,
    .setup = amt_setup,
    .clone = amt_clone,
    .destroy = amt_destroy,
    .pending = amt_pending,
    .apply = amt_apply,
    .view = amt_view,
    .legal = amt_legal,
    .format_move = amt_format_move,
    .parse_move = amt_parse_move,
    .view_text = amt_view_text,
    .result = amt_result,
    .save = amt_save,
    .load = amt_load,
    .check = amt_check,
    .default_move = amt_default_move,
    .window = amt_window,
    .tell = amt_tell,
};
