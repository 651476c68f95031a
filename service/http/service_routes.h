/* service_routes.h: the service's own resources, open to anyone: its
 * health, its metrics and the games it plays. */
#ifndef SERVICE_HTTP_SERVICE_ROUTES_H
#define SERVICE_HTTP_SERVICE_ROUTES_H

#include "http/route_call.h"

route_handler service_routes_health;  /* GET /healthz */
route_handler service_routes_metrics; /* GET /metrics */
route_handler service_routes_games;   /* GET /v1/games */
route_handler service_routes_game;    /* GET /v1/games/{game} */

#endif
