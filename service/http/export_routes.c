/* export_routes.c */
#include "http/export_routes.h"

#include "play/player_export.h"

void export_routes_match(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200,
                  player_export_match(call->who, call->params->match_id, &err),
                  &err);
}
