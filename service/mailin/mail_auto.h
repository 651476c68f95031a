/* mail_auto.h: whether a received mail was sent by a program (an
 * auto-reply, a vacation notice, a mailing list, a bounce) rather than by a
 * person. Such mail is never answered: two programs answering each other
 * would loop forever (RFC 3834). */
#ifndef SERVICE_MAILIN_MAIL_AUTO_H
#define SERVICE_MAILIN_MAIL_AUTO_H

#include <gmime/gmime.h>
#include <stdbool.h>

/* Why message must not be answered, or NULL when a person sent it; the
 * first that applies of: delivery_report ("a delivery status
 * notification"), Auto-Submitted other than "no" ("Auto-Submitted:
 * auto-replied"), Precedence bulk, junk, list or auto_reply, a List-Id,
 * X-Autoreply, X-Autorespond or X-Auto-Response-Suppress header ("List-Id
 * present"), a subject that opens as an out-of-office notice does
 * ("Automatic reply:", "Out of Office", "Autoreply", in several
 * languages: "an automatic reply's subject"), return_path ""
 * ("Return-Path: <>"), and from or return_path a daemon
 * (mail_auto_daemon: "From: MAILER-DAEMON"). from and return_path are
 * addr-specs, return_path NULL when absent. The string is static. */
const char *mail_auto_why(GMimeMessage *message, const char *from,
                          const char *return_path, bool delivery_report);

/* Whether address (an addr-spec, or a bare local part) is the mail
 * system's own: local part MAILER-DAEMON, mailer_daemon, mailerdaemon or
 * postmaster, in any case. */
bool mail_auto_daemon(const char *address);

#endif
