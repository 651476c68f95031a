/* mail_dsn.h: whom a bounce is about, read from the machine-readable part
 * of a delivery status notification (message/delivery-status, RFC 3464),
 * so that the address that failed can be told from the one that wrote. */
#ifndef SERVICE_MAILIN_MAIL_DSN_H
#define SERVICE_MAILIN_MAIL_DSN_H

/* The address of the first Original-Recipient field in fields (the part's
 * decoded text), else of the first Final-Recipient, without its address
 * type ("rfc822;") and angle brackets, as written (xtext is not decoded:
 * MTAs write the plain address there). Returns a malloc'd string, or NULL
 * when there is neither; out of memory aborts. */
char *mail_dsn_recipient(const char *fields);

#endif
