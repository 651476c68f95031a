/* service_routes.c */
#include "http/service_routes.h"

#include "core/metrics.h"
#include "play/matches.h"
#include "store/db.h"

#define HEALTH_TIMEOUT_MS 1000

void service_routes_health(const route_call *call, answer *out)
{
    (void)call;
    apierr err;
    /* Its own short limit: a load balancer asks often and must learn of a
     * hung database at once, not when every request's limit runs out. */
    if (!db_ping(HEALTH_TIMEOUT_MS, &err)) {
        answer_error(out, 503, "database_unreachable",
                     "the database does not answer");
        out->retry_after = DB_RETRY_AFTER_SECONDS;
        return;
    }
    answer_json(out, 200, json_pack("{s:s}", "status", "ok"));
}

void service_routes_metrics(const route_call *call, answer *out)
{
    (void)call;
    out->status = 200;
    out->body = metrics_render();
    out->content_type = "text/plain; version=0.0.4";
}

void service_routes_games(const route_call *call, answer *out)
{
    (void)call;
    answer_json(out, 200, matches_games());
}

void service_routes_game(const route_call *call, answer *out)
{
    apierr err;
    json_t *game = matches_game(call->params->id, &err);
    answer_result(out, 200, game, &err);
}
