/* lobby_routes.c */
#include "http/lobby_routes.h"

#include "play/lobby.h"
#include "play/ratings.h"
#include "play/seeks.h"

#define LEADERBOARD_MAX 200

/* limit from the query, 1 to max (fallback when absent); -1 when bad. */
static int limit_of(const route_call *call, int fallback, int max)
{
    bool bad = false;
    long long limit = route_query_number(call, "limit", fallback, &bad);
    return bad || limit < 1 || limit > max ? -1 : (int)limit;
}

void lobby_routes_list(const route_call *call, answer *out)
{
    int limit = limit_of(call, LOBBY_LIST_DEFAULT, LOBBY_LIST_MAX);
    if (limit < 0) {
        answer_error(out, 400, "bad_query", "limit must be 1 to 100");
        return;
    }
    apierr err;
    json_t *list = lobby_list(route_query(call, "status"),
                              route_query(call, "game"), limit, &err);
    answer_result(out, 200, list, &err);
}

void lobby_routes_leaderboard(const route_call *call, answer *out)
{
    int limit = limit_of(call, 50, LEADERBOARD_MAX);
    if (limit < 0) {
        answer_error(out, 400, "bad_query", "limit must be 1 to 200");
        return;
    }
    apierr err;
    answer_result(out, 200, ratings_leaderboard(call->params->id, limit, &err),
                  &err);
}

void lobby_routes_player(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, ratings_player(call->params->id, &err), &err);
}

void lobby_routes_my_seeks(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, seeks_mine(call->who, &err), &err);
}

void lobby_routes_seek(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 201, seeks_create(call->who, call->request, &err), &err);
}

void lobby_routes_unseek(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, seeks_withdraw(call->who, call->params->id, &err),
                  &err);
}
