/* mail_authres.h: whether the mail server we trust vouched for the sender's
 * domain, read from its Authentication-Results header (RFC 8601). Anyone
 * can write such a header into a mail before sending it; only the one our
 * server added, the topmost with its name, says what the server found. */
#ifndef SERVICE_MAILIN_MAIL_AUTHRES_H
#define SERVICE_MAILIN_MAIL_AUTHRES_H

#include <stdbool.h>
#include <stddef.h>

/* True when, among headers (Authentication-Results values, topmost first),
 * the first whose authserv-id (the token before the first ';', any case)
 * is authserv_id shows dmarc=pass with header.from=from_domain, or
 * dkim=pass with header.d=from_domain or a header.i ending in
 * "@from_domain" (domains in any case). Headers from other authserv-ids,
 * and any from authserv_id below the first, are ignored. Comments in
 * parentheses are ignored, quoted values read. When false, why (if not
 * NULL) gets a sentence: "no Authentication-Results from mx.example.org",
 * "mx.example.org found dkim=fail for example.org". */
bool mail_authres_pass(char *const *headers, size_t count,
                       const char *authserv_id, const char *from_domain,
                       char *why, size_t why_size);

#endif
