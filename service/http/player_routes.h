/* player_routes.h: a player's own resources: registering a key, asking
 * for a sign-in link by mail, and under /v1/players/me/ (signed by the
 * player) the account, its matches and keys, vacations, notifications,
 * their settings and webhooks; unsubscribing from mail by the link in
 * it. */
#ifndef SERVICE_HTTP_PLAYER_ROUTES_H
#define SERVICE_HTTP_PLAYER_ROUTES_H

#include "http/route_call.h"

route_handler player_routes_register;          /* POST /v1/players */
route_handler player_routes_unsubscribe_page;  /* GET /v1/unsubscribe */
route_handler player_routes_unsubscribe;       /* POST /v1/unsubscribe */
route_handler player_routes_sign_in_link;     /* POST …/sign-in-links */
route_handler player_routes_me;               /* GET /v1/players/me */
route_handler player_routes_change_email;     /* POST …/me/email */
route_handler player_routes_email_page;       /* GET …/email-confirmations */
route_handler player_routes_confirm_email;    /* POST …/email-confirmations */
route_handler player_routes_my_matches;       /* GET …/me/matches */
route_handler player_routes_keys;             /* GET …/me/keys */
route_handler player_routes_add_key;          /* POST …/me/keys */
route_handler player_routes_revoke_key;       /* DELETE …/keys/{id} */
route_handler player_routes_vacations;         /* GET …/me/vacation */
route_handler player_routes_declare_vacation;  /* POST …/me/vacation */
route_handler player_routes_cancel_vacation;   /* DELETE …/vacation/{id} */
route_handler player_routes_notifications;     /* GET …/me/notifications */
route_handler player_routes_settings;          /* GET …/notification-… */
route_handler player_routes_put_settings;      /* PUT …/notification-… */
route_handler player_routes_webhooks;          /* GET …/me/webhooks */
route_handler player_routes_register_webhook;  /* POST …/me/webhooks */
route_handler player_routes_disable_webhook;   /* DELETE …/webhooks/{id} */
/* The grants of bots' keys (play/delegates.h). */
route_handler player_routes_delegates;         /* GET …/me/delegates */
route_handler player_routes_grant_delegate;    /* POST …/me/delegates */
route_handler player_routes_revoke_delegate;   /* DELETE …/delegates/{id} */

#endif
