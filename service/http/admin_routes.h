/* admin_routes.h: the routes under /v1/admin/, every one signed with the
 * admin key (auth/admin.h): exports (streamed), imports, repairs of a
 * match (rewind, seat replacement, abort) and dead-letter notifications.
 * A read spends its nonce here; a change's retry is answered by routes.c
 * from the stored answer before its handler runs. */
#ifndef SERVICE_HTTP_ADMIN_ROUTES_H
#define SERVICE_HTTP_ADMIN_ROUTES_H

#include "http/route_call.h"

route_handler admin_routes_export;             /* GET /v1/admin/export */
route_handler admin_routes_export_match;       /* GET …/matches/{id}/export */
route_handler admin_routes_import;             /* POST …/matches/import */
route_handler admin_routes_notifications;      /* GET …/notifications */
route_handler admin_routes_retry_notification; /* POST …/{id}/retry */
route_handler admin_routes_rewind;       /* POST …/matches/{id}/rewind */
route_handler admin_routes_abort;        /* POST …/matches/{id}/abort */
route_handler admin_routes_replace_seat; /* POST …/seats/{seat}/replace */

#endif
