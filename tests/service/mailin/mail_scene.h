/* mail_scene.h: people who play by email only, in tests. A real pbemd,
 * the real SMTP receiver (tests/node/smtp-receiver.mjs) for what the
 * service sends, and mail handed in the way a mail server would: through
 * `pbem mail-in` (its exit status kept) or appended to a private Dovecot
 * that pbemd's IMAP worker reads. */
#ifndef TESTS_SERVICE_MAILIN_MAIL_SCENE_H
#define TESTS_SERVICE_MAILIN_MAIL_SCENE_H

#include <jansson.h>
#include <stdbool.h>

#include "../../support/e2e.h"
#include "../../support/receiver.h"

typedef struct mail_scene {
    e2e_server server;
    receiver smtp;
    char key_file[256];       /* the mail key's seed, for pbem mail-in */
    char admin_key_file[256]; /* the admin's seed, for pbem export/import */
    int sent;                 /* messages handed in so far */
    bool through_imap;        /* hand mail in by IMAP instead of mail-in */
    void *imap;               /* the private Dovecot, when through_imap */
} mail_scene;

/* Starts everything (PBEM_MAIL_REPLY_TO=pbem@example.org). extra_env is
 * NULL or NULL-terminated "NAME=value" pairs set before pbemd starts. */
void mail_scene_start(mail_scene *scene, bool through_imap,
                      const char *const *extra_env);
void mail_scene_stop(mail_scene *scene);

/* A message from "from" to "to" with subject and body (lines of text); a
 * fresh Message-ID is written to id (128 bytes) unless id is NULL or
 * already holds one; in_reply_to may be NULL. extra_headers: NULL or
 * "Name: value\r\n" lines. The raw message, malloc'd. */
char *mail_scene_compose(const char *from, const char *to, const char *subject,
                         const char *in_reply_to, const char *extra_headers,
                         const char *body, char *id);

/* Hands raw in (mail-in or IMAP); with mail-in returns its exit status,
 * with IMAP 0 once the message is in the mailbox. */
int mail_hand_in(mail_scene *scene, const char *raw);

/* The first mail sent to address at or after line index *from of the
 * receiver (then *from moves past it), waiting up to seconds; NULL when
 * none came. New reference. */
json_t *mail_next_to(mail_scene *scene, const char *address, size_t *from,
                     int seconds);

/* How many mails the receiver has seen so far. */
size_t mail_count(const mail_scene *scene);

/* Runs `pbem ARGS` (export and import against the scene's pbemd, with
 * the admin's key), standard output to out_file (NULL: discarded);
 * returns the exit status. */
int mail_scene_pbem(const mail_scene *scene, const char *args,
                    const char *out_file);

/* The Reply-To address of a mail the service sent, or NULL. */
const char *mail_reply_to(const json_t *mail);

/* The mail's plain text. */
const char *mail_text(const json_t *mail);

/* Whether the mail's text says words as a person reads it: a line the
 * service broke to fit 72 columns (notify/mail_wrap.h) still says what it
 * said, so any run of white space in words matches any in the text. */
bool mail_says(const json_t *mail, const char *words);

/* The moves a mail offers (its "moves" list: the whole list, or each
 * form's examples), as a new array of strings. */
json_t *mail_offered_moves(const json_t *mail);

#endif
