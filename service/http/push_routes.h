/* push_routes.h: a player's Web Push subscriptions (notify/push.h), under
 * /v1/players/me/push-subscriptions, signed by the player. */
#ifndef SERVICE_HTTP_PUSH_ROUTES_H
#define SERVICE_HTTP_PUSH_ROUTES_H

#include "http/route_call.h"

route_handler push_routes_list;        /* GET …/me/push-subscriptions */
route_handler push_routes_subscribe;   /* POST …/me/push-subscriptions */
route_handler push_routes_unsubscribe; /* DELETE …/push-subscriptions/{id} */

#endif
