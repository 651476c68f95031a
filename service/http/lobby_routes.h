/* lobby_routes.h: finding opponents: the open matches still forming, a
 * game's leaderboard and a player's ratings (play/lobby.h,
 * play/ratings.h); quick-match seeks. */
#ifndef SERVICE_HTTP_LOBBY_ROUTES_H
#define SERVICE_HTTP_LOBBY_ROUTES_H

#include "http/route_call.h"

route_handler lobby_routes_list;        /* GET /v1/matches */
route_handler lobby_routes_leaderboard; /* GET /v1/games/{game}/ratings */
route_handler lobby_routes_player;      /* GET /v1/players/{id}/ratings */
route_handler lobby_routes_my_seeks;    /* GET /v1/seeks */
route_handler lobby_routes_seek;        /* POST /v1/seeks */
route_handler lobby_routes_unseek;      /* DELETE /v1/seeks/{id} */

#endif
