/* push_routes.c: see push_routes.h. */
#include "http/push_routes.h"

#include <stdlib.h>
#include <string.h>

#include "notify/push.h"

void push_routes_list(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, push_list(call->who->player_id, &err), &err);
}

void push_routes_subscribe(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 201,
                  push_subscribe(call->who->player_id, call->request, &err),
                  &err);
}

void push_routes_unsubscribe(const route_call *call, answer *out)
{
    apierr err;
    if (!push_unsubscribe(call->who->player_id, call->params->id, &err)) {
        answer_apierr(out, &err);
        return;
    }
    out->status = 204;
    out->body = strdup("");
    if (out->body == NULL)
        abort();
    out->content_type = "text/plain; charset=utf-8";
}
