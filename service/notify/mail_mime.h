/* mail_mime.h: the bytes of a notification mail: RFC 5322 headers and a
 * MIME multipart/alternative body with a text and an HTML part, UTF-8 in
 * base64, CRLF line ends throughout, between a random boundary. It writes
 * header values as it gets them: phrases arrive already RFC 2047 encoded
 * and addresses already checked (mail.h), so nothing here can be steered
 * by a player's name or address. */
#ifndef SERVICE_NOTIFY_MAIL_MIME_H
#define SERVICE_NOTIFY_MAIL_MIME_H

typedef struct mail_mime_message {
    const char *from_phrase;  /* encoded display name; "" for none */
    const char *from_address; /* bare: "turns@example.org" */
    const char *to_phrase;    /* encoded */
    const char *to_address;
    const char *subject;      /* encoded */
    const char *date;         /* "Tue, 01 Jan 2030 00:00:00 +0000" */
    const char *id;           /* the notification's: Message-ID, X-PBEM- */
    const char *domain;       /* Message-ID's right-hand side */
    const char *unsubscribe;  /* the one-click List-Unsubscribe URL */
    const char *text;         /* part bodies; LF line ends become CRLF */
    const char *html;
} mail_mime_message;

/* The whole message (malloc'd). Out of memory aborts. */
char *mail_mime_write(const mail_mime_message *message);

#endif
