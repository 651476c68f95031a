/* admin_routes.h: the routes under /v1/admin/, every one signed with the
 * admin key (admin.h): exports (streamed), imports, repairs of a match
 * (rewind, seat replacement, abort) and dead-letter notifications. */
#ifndef SERVICE_ADMIN_ROUTES_H
#define SERVICE_ADMIN_ROUTES_H

#include <microhttpd.h>
#include <stddef.h>

#include "http/routes.h"

/* url is libmicrohttpd's decoded path (starting "/v1/admin/"), target the
 * raw request target. */
void admin_routes_handle(struct MHD_Connection *conn, const char *method,
                         const char *url, const char *target, const char *body,
                         size_t len, route_answer *answer);

#endif
