/* export_routes.h: a match's export for its players and, once it is over,
 * for anyone (play/player_export.h); the admin's export of everything is
 * admin_routes.h's. */
#ifndef SERVICE_HTTP_EXPORT_ROUTES_H
#define SERVICE_HTTP_EXPORT_ROUTES_H

#include "http/route_call.h"

/* GET /v1/matches/{id}/export: signed by a seat's player (or a bot with
 * view on the match acting for them), or unsigned once the match is over. */
route_handler export_routes_match;

#endif
