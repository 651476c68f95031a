/* mailed_link.h: the mails that carry a link a person must open (a
 * sign-in link, an address's confirmation): written from a template of
 * templates/ whose first line is "Subject: …" and, after a blank line,
 * its body, and queued in the mail outbox (notify/mail_answers.h) inside
 * the caller's transaction. */
#ifndef SERVICE_PLAY_MAILED_LINK_H
#define SERVICE_PLAY_MAILED_LINK_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "notify/templates.h"

/* Renders template with vars[0..count) and queues it to address as kind
 * (mail_answer.kind); subject stands when the template has none. 500
 * "template_missing" when the template cannot be read. */
bool mailed_link_queue(PGconn *conn, const char *template,
                       const templates_var *vars, int count,
                       const char *subject, const char *address,
                       const char *kind, apierr *err);

#endif
