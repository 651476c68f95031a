/* mail_body.h: the MIME tree of a received mail as GMime parsed it: whether
 * it stays within our bounds, the text its sender wrote in it (in UTF-8,
 * whatever the charset and transfer encoding), and the machine-readable
 * part of a bounce. Attachments, and parts that are not text, are never
 * read. */
#ifndef SERVICE_MAILIN_MAIL_BODY_H
#define SERVICE_MAILIN_MAIL_BODY_H

#include <gmime/gmime.h>
#include <stdbool.h>

/* A mail with more parts, or nested deeper, is not a person's reply. */
#define MAIL_BODY_MAX_PARTS 100
#define MAIL_BODY_MAX_DEPTH 20
/* Read of each text part and of the text as a whole, at most. */
#define MAIL_BODY_MAX_TEXT (1024 * 1024)

/* Whether the tree under top (the message's top part; NULL is an empty
 * tree), counting the parts of attached messages, has at most
 * MAIL_BODY_MAX_PARTS parts, top at depth 0 and none deeper than
 * MAIL_BODY_MAX_DEPTH. */
bool mail_body_within_bounds(GMimeObject *top);

/* The text a reader of the mail sees, before any reply-cutting: of a
 * multipart/alternative, the text/plain part, else the HTML one as text
 * (mail_html.h); of multipart/mixed and other multiparts, every such text
 * in order, a line break between; of multipart/signed, related and report,
 * the first part. Skipped: parts with Content-Disposition attachment or a
 * file name, parts that are neither text/plain nor text/html, attached
 * messages, encrypted parts. Converted to UTF-8 from the part's charset;
 * without one, or with an unknown one, text that is not UTF-8 is read as
 * windows-1252; invalid bytes become U+FFFD and NUL bytes are dropped.
 * Returns a malloc'd string, "" when there is none; at most about
 * MAIL_BODY_MAX_TEXT bytes of each part are read. Out of memory aborts. */
char *mail_body_text(GMimeObject *top);

/* Whether top is a delivery status notification: multipart/report with
 * report-type=delivery-status (RFC 3464). */
bool mail_body_is_delivery_report(GMimeObject *top);

/* The decoded text of the report's message/delivery-status (or
 * message/global-delivery-status) part, malloc'd; NULL when top is not a
 * delivery report or has no such part. */
char *mail_body_delivery_status(GMimeObject *top);

#endif
