/* mail_message.h: a mail as received, from raw bytes to what the play-by-
 * email path needs: who sent it, to which address (the +token one), what
 * the person wrote (the commands, one per line), whether a program sent it
 * so it must never be answered, and whether it is a bounce. MIME is read
 * with GMime 3 (mail_body.h); the written part is found by mail_text.h;
 * whether the sender's domain was authenticated is mail_authres.h's, from
 * the Authentication-Results values kept here. Any bytes may arrive:
 * parsing never crashes and its work is bounded. */
#ifndef SERVICE_MAILIN_MAIL_MESSAGE_H
#define SERVICE_MAILIN_MAIL_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

/* Larger header blocks are refused. */
#define MAIL_MESSAGE_MAX_HEADER_BYTES (256 * 1024)
/* The written text is cut there, between two UTF-8 characters. */
#define MAIL_MESSAGE_MAX_TEXT (64 * 1024)
/* Recipients kept, at most, the first ones in header order. */
#define MAIL_MESSAGE_MAX_RECIPIENTS 200

typedef struct mail_message {
    /* The first From mailbox's addr-spec, its domain lower-cased:
     * "Alice@example.org"; never NULL. */
    char *from;
    char *from_domain; /* after the '@', lower case: "example.org" */
    char *from_name;   /* its display name, decoded, UTF-8: "Alice
                          Example"; "" when none */
    char *message_id;  /* without <>, NULL when absent */
    char *in_reply_to; /* unfolded header value, NULL when absent */
    char *references;  /* unfolded header value, NULL when absent */
    char *subject;     /* RFC 2047 decoded, UTF-8, "" when absent */
    /* Every addr-spec of To, Cc, Delivered-To, X-Original-To and
     * Envelope-To, in header order, lower-cased, each once: the
     * "pbem+token@..." address is among them. */
    char **recipients;
    size_t recipient_count;
    /* The addr-spec of Return-Path, "" for <>, NULL when absent. */
    char *return_path;
    /* Never answer it, or mail could loop between two programs. True for a
     * delivery status notification, Auto-Submitted other than "no",
     * Precedence bulk, junk, list or auto_reply, a List-Id, X-Autoreply or
     * X-Autorespond header, Return-Path <>, and a From or Return-Path
     * whose local part is MAILER-DAEMON or postmaster (any case, also
     * mailer_daemon and mailerdaemon). */
    bool automatic;
    /* Which, when automatic ("Auto-Submitted: auto-replied", "List-Id
     * present"), else NULL; a static string. */
    const char *automatic_why;
    /* A bounce: a delivery status notification (multipart/report;
     * report-type=delivery-status), or a classic one, From MAILER-DAEMON
     * or postmaster. */
    bool bounce;
    /* Of a bounce's delivery-status part: the Original-Recipient, else
     * the Final-Recipient address, domain lower-cased; else NULL. */
    char *bounced_recipient;
    /* What the person wrote: the text the mail shows (mail_body.h), reply
     * quoting and signature removed (mail_text.h), at most
     * MAIL_MESSAGE_MAX_TEXT bytes of UTF-8; "" when nothing. */
    char *text;
    unsigned char sha256[32]; /* of the raw bytes as received */
    /* Every Authentication-Results value, unfolded, topmost first, for
     * mail_authres_pass. */
    char **authentication_results;
    size_t authentication_result_count;
} mail_message;

/* Reads a received mail: length bytes at raw, which may hold NULs and may
 * begin with an mbox "From " line. Returns the message (free it with
 * mail_message_free), or NULL with a sentence in why (if not NULL) when the
 * bytes are not a mail: empty, no header block (binary garbage), a header
 * block above MAIL_MESSAGE_MAX_HEADER_BYTES, no From address, "the
 * message has too many parts" (mail_body.h's bounds) or "... header
 * fields" (mail_limits.h, which counts both before GMime reads a part).
 * Initialises GMime once per process; safe to call from several threads.
 * Out of memory aborts. */
mail_message *mail_message_parse(const char *raw, size_t length, char *why,
                                 size_t why_size);

/* Frees message and all it holds; NULL is fine. */
void mail_message_free(mail_message *message);

/* Only the sender of a received mail: mail_message_parse's `from`, read
 * from the header block alone (GMime reads no part), for a caller that
 * needs nothing else yet. A new string, or NULL where mail_message_parse
 * finds no header block or no From address. */
char *mail_message_sender(const char *raw, size_t length);

#endif
