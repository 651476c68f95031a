/* engine.c: the Adel Verplichtet rules_engine table. */
#include "adel_verplichtet.h"
#include "av_internal.h"

const rules_engine av_engine = {
    .name = "adel_verplichtet",
    .title = "Adel Verplichtet (Fair Means or Fouls)",
    .version = AV_VERSION,
    .min_seats = AV_MIN_PLAYERS,
    .max_seats = AV_MAX_PLAYERS,
    .describe_options = av_describe_options,
    .setup = av_setup,
    .clone = av_clone,
    .destroy = av_destroy,
    .pending = av_pending,
    .apply = av_apply,
    .view = av_view,
    .legal = av_legal,
    .format_move = av_format_move,
    .parse_move = av_parse_move,
    .view_text = av_view_text,
    .result = av_result,
    .save = av_save,
    .load = av_load,
    .check = av_check,
    .default_move = av_default_move,
    .tell = av_tell,
};
