/* mail.h: notification emails over SMTP with libcurl. A message is a valid
 * RFC 5322 / MIME multipart/alternative mail (text and HTML, UTF-8, 7bit
 * or quoted-printable bodies, RFC 2047 encoded non-ASCII names and
 * subject, its own Date and a Message-ID unique to it and the same on a
 * retry, mail_thread.h), rendered from templates/, its text kept within
 * 72 columns (mail_wrap.h). A mail about a match
 * belongs to the match's thread for that seat (mail_thread.h: its
 * subject, In-Reply-To and References). Every mail to a player, answers
 * and invitations included, carries a one-click unsubscribe link (RFC
 * 8058 List-Unsubscribe and List-Unsubscribe-Post headers, and
 * {{unsubscribe_link}} in a notification's body) that turns the player's
 * email notifications off.
 *
 * Configuration (core/config.h): PBEM_SMTP_URL ("smtp://host:587"; unset:
 * no email is queued), PBEM_SMTP_STARTTLS ("required" → CURLUSESSL_ALL,
 * "try" → CURLUSESSL_TRY, unset/"no" → plain), PBEM_SMTP_USER and
 * PBEM_SMTP_PASSWORD, PBEM_MAIL_FROM ("pbem <turns@example.org>"),
 * PBEM_PUBLIC_URL (links in the mail),
 * PBEM_MAIL_REPLY_TO (the address people answer; reply_token.h). */
#ifndef SERVICE_NOTIFY_MAIL_H
#define SERVICE_NOTIFY_MAIL_H

#include <curl/curl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "auth/reply_token.h"
#include "notify/mail_thread.h"

/* Room for any address these functions write. */
#define MAIL_ADDRESS_MAX 256

/* True when PBEM_SMTP_URL is set. */
bool mail_configured(void);

/* The notification to compose: payload is the outbox row's payload. */
typedef struct mail_notification {
    const char *id;          /* "ntf_<match>_<outbox>" */
    const char *reason;      /* "your_turn" | "match_over" | "digest" |
                                "reminder_<N>h" | "nudge_<id>" (these two
                                use your_turn.*): picks templates/<reason>.* */
    long long player_id;     /* for the unsubscribe link */
    const char *to_name;
    const char *to_address;
    const json_t *payload;   /* a digest's: {"matches": [row payloads]} */
    long long date;          /* unix seconds for the Date header */
    const char *reply_to;    /* Reply-To (mail_reply_address), or NULL:
                                none, and the mail does not say how to
                                answer it */
    const char *created;     /* the row's time stamp, for the Message-ID
                                (mail_thread.h); NULL: none */
    const mail_thread *thread; /* the match's thread for the seat, or
                                  NULL: a mail of its own */
    /* Answers to the player's own mails about the match, held for this
     * mail (mail_answers.h) and told before it ("Since then: …"), or
     * NULL: */
    const char *answered;    /* their text, plain */
    const char *in_reply_to; /* the latest mail they answer (the mail
                                answers it, in its thread) */
    const char *references;  /* every mail they answer, white-space
                                separated */
} mail_notification;

/* A fresh single-use reply address (reply_token.h) for a mail to a person
 * about subject (a player, an invitation…), match (0: none) and seat (-1:
 * none), valid from now: each call makes another. False, with out "",
 * when PBEM_MAIL_REPLY_TO is not set. */
bool mail_reply_address(reply_token_kind kind, long long subject,
                        long long match_id, int seat,
                        char out[MAIL_ADDRESS_MAX]);

/* Whether address can go into To: and the SMTP envelope as it is: it has
 * an "@" and no line break, space or angle bracket. */
bool mail_address_ok(const char *address);

/* The full message with CRLF line ends (malloc'd), or NULL with why
 * (256 bytes) filled when a template is missing or the address is not
 * mail_address_ok. */
char *mail_compose(const mail_notification *n, char *why);

/* A plain-text mail that is no notification: an answer to a mail, a
 * confirmation, an invitation (mail_answers.h). */
typedef struct mail_plain {
    const char *id;          /* Message-ID's left-hand side, stable across
                                retries and unique (mail_thread.h) */
    const char *to_address;
    const char *subject;     /* UTF-8 */
    const char *body;        /* UTF-8 plain text */
    const char *reply_to;    /* an address, or NULL */
    const char *in_reply_to; /* the Message-ID answered, with or without
                                <>, or NULL */
    const char *references;  /* Message-IDs with or without <>, separated
                                by white space, or NULL */
    const char *auto_submitted; /* "auto-replied", "auto-generated" */
    long long date;          /* unix seconds for the Date header */
    const mail_thread *thread; /* the match's thread the answer belongs
                                  to, or NULL: the subject stays, and the
                                  root heads References */
    long long player_id;     /* the player the address is, for the
                                List-Unsubscribe link; 0: none */
} mail_plain;

/* The full message (malloc'd), or NULL with why (256 bytes) filled when
 * the address is not mail_address_ok. A reply_to that is not is left out,
 * and so is any message id that could break its header. References is the
 * plain's references followed by in_reply_to (RFC 5322 3.6.4), at most
 * MAIL_REFERENCES_MAX of them: the first and the latest; with a thread,
 * its root comes first (when not there already), the subject is "Re: "
 * and the thread's subject, and a mail answering nothing answers the
 * root. */
#define MAIL_REFERENCES_MAX 20
char *mail_compose_plain(const mail_plain *m, char *why);

/* An upload in progress (the read callback's cursor). */
typedef struct mail_upload {
    const char *data;
    size_t len, pos;
} mail_upload;

/* Sets up easy for one SMTP delivery of upload to address; *recipients
 * must be freed (curl_slist_free_all) after the transfer. */
bool mail_prepare(CURL *easy, const char *address, mail_upload *upload,
                  struct curl_slist **recipients, int timeout_seconds);

/* "Name <a@b>" → "a@b"; an address alone is returned as is. */
void mail_bare_address(const char *from, char *out, size_t size);

/* RFC 2047: the UTF-8 text as is when it is printable ASCII without
 * specials (or a quoted string when it has specials), else encoded words
 * folded to fit. malloc'd. */
char *mail_encode_phrase(const char *text, bool quote_specials);

#endif
