/* mail_mime.h: the bytes of a mail: RFC 5322 headers and a MIME body, a
 * multipart/alternative with a text and an HTML part (notifications) or a
 * single text part (answers to mail, mail_answers.h), UTF-8, each part
 * 7bit when it is ASCII and quoted-printable when not (readable where
 * base64 is not), CRLF line ends throughout. It writes header values as it gets them:
 * phrases arrive already RFC 2047 encoded and addresses and message ids
 * already checked (mail.h), so nothing here can be steered by a player's
 * name or address. */
#ifndef SERVICE_NOTIFY_MAIL_MIME_H
#define SERVICE_NOTIFY_MAIL_MIME_H

typedef struct mail_mime_message {
    const char *from_phrase;  /* encoded display name; "" for none */
    const char *from_address; /* bare: "turns@example.org" */
    const char *to_phrase;    /* encoded */
    const char *to_address;
    const char *subject;      /* encoded */
    const char *date;         /* "Tue, 01 Jan 2030 00:00:00 +0000" */
    const char *id;           /* Message-ID's left-hand side */
    const char *domain;       /* Message-ID's right-hand side */
    const char *tag;          /* an "X-PBEM-Notification: <id>"-like
                                 header naming what the mail is; NULL:
                                 none */
    const char *unsubscribe;  /* the one-click List-Unsubscribe URL, or
                                 NULL: none */
    const char *reply_to;     /* a bare address, or NULL: none */
    const char *in_reply_to;  /* "<id>", or NULL */
    const char *references;   /* "<id> <id>…" (folded), or NULL */
    const char *auto_submitted; /* RFC 3834 value, or NULL: none */
    const char *text;         /* part bodies; LF line ends become CRLF */
    const char *html;         /* NULL: a single text/plain part */
} mail_mime_message;

/* The whole message (malloc'd). Out of memory aborts. */
char *mail_mime_write(const mail_mime_message *message);

#endif
