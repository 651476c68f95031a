/* mail_routes.h: mail handed in over HTTP by the mail server's pipe
 * (`pbem mail-in`), for the play-by-email door (mailin/mailin.h). */
#ifndef SERVICE_HTTP_MAIL_ROUTES_H
#define SERVICE_HTTP_MAIL_ROUTES_H

#include "http/route_call.h"

/* POST /v1/mail/inbound, the raw message as message/rfc822 (1 MiB at
 * most): 200 {"outcome": "handled", "what", "message"} once handled
 * (refused commands included), 422 "unreadable_mail" when it is not a
 * mail at all, 503 "try_later" with Retry-After while the database fails,
 * 415 for another content type. */
route_handler mail_routes_inbound;

#endif
