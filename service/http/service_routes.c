/* service_routes.c */
#include "http/service_routes.h"

#include "core/metrics.h"
#include "play/matches.h"
#include "store/db.h"

void service_routes_health(const route_call *call, answer *out)
{
    (void)call;
    apierr err;
    PGconn *conn = db_conn(&err);
    if (conn == NULL || !db_command(conn, "SELECT 1", 0, NULL, &err)) {
        answer_error(out, 503, "database_unreachable",
                     "the database does not answer");
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
