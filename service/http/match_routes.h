/* match_routes.h: matches and what happens in them: creating and reading
 * a match, its events and their verification, a finished match's replay, a
 * seat's view, joining, moves, sealed decisions, nudges, the messages at its
 * table and mutes, invitations by mail and a match's webhooks. */
#ifndef SERVICE_HTTP_MATCH_ROUTES_H
#define SERVICE_HTTP_MATCH_ROUTES_H

#include "http/route_call.h"

route_handler match_routes_create;           /* POST /v1/matches */
route_handler match_routes_show;             /* GET /v1/matches/{id} */
route_handler match_routes_events;           /* GET …/{id}/events */
route_handler match_routes_view;             /* GET …/{id}/view */
route_handler match_routes_replay;           /* GET …/{id}/replay */
route_handler match_routes_verify;           /* GET …/{id}/verify */
route_handler match_routes_register_webhook; /* POST …/{id}/webhooks */
route_handler match_routes_nudge;            /* POST …/{id}/nudge */
route_handler match_routes_messages;         /* GET …/{id}/messages */
route_handler match_routes_say;              /* POST …/{id}/messages */
route_handler match_routes_mute;             /* PUT …/{id}/mutes/{seat} */
route_handler match_routes_unmute;           /* DELETE …/mutes/{seat} */
route_handler match_routes_decision;         /* GET …/decisions/{decision} */
route_handler match_routes_commit;           /* POST …/{decision}/commit */
route_handler match_routes_reveal;           /* POST …/{decision}/reveal */
route_handler match_routes_join;             /* POST …/{id}/join */
route_handler match_routes_invite;           /* POST …/{id}/invitations */
route_handler match_routes_move;             /* POST …/{id}/moves */

#endif
