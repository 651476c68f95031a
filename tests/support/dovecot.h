/* dovecot.h: a private Dovecot IMAP server for one test. It runs in the
 * foreground (dovecot -F) as a child of the test, in a folder of its own
 * (var/dovecot-<pid>-<n> under the current directory: scripts/test.sh
 * runs the suites from the checkout), listening on a free port on
 * 127.0.0.1 only, plain IMAP (and with dovecot_start_tls, IMAPS and
 * STARTTLS with a self-signed certificate for 127.0.0.1 too), logging to
 * dovecot.log in its folder, users from a passwd-file, mail in maildirs
 * in its folder; its sockets in a short folder of its own in /tmp, as a
 * deep checkout's path would not fit a socket's.
 *
 * It runs as the current user, or as root as the unprivileged 'dovecot'
 * user (Dovecot never lets root read mail), which then owns the folder;
 * that is why the folder is under var/ and not under TMPDIR, which root's
 * mktemp makes 0700.
 *
 * Mail is delivered with IMAP APPEND and the mailboxes are read for
 * assertions over IMAP, both with libcurl alone, never with the service's
 * own IMAP code. Every helper fails the running Criterion test when
 * Dovecot does not do what it should. */
#ifndef TESTS_SUPPORT_DOVECOT_H
#define TESTS_SUPPORT_DOVECOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define DOVECOT_USERS_MAX 4

typedef struct dovecot {
    pid_t pid; /* 0 while stopped */
    int port;
    int tls_port;      /* IMAPS; 0 without TLS */
    char ca_file[600]; /* the certificate, to trust; "" without TLS */
    char dir[512];
    char run_dir[64]; /* base_dir: its sockets, in /tmp (a short path) */
    int users;
    char user[DOVECOT_USERS_MAX][64];
    char password[DOVECOT_USERS_MAX][64];
} dovecot;

/* Starts a fresh Dovecot with the users named (NULL-terminated; each
 * user's password is dovecot_password's) and waits until it greets. The
 * folders of earlier tests that crashed (their pid gone) are removed. */
void dovecot_start(dovecot *d, const char *const *users);

/* dovecot_start with TLS: a certificate made with the openssl command
 * (in d->ca_file), an IMAPS listener on d->tls_port, STARTTLS on d->port. */
void dovecot_start_tls(dovecot *d, const char *const *users);

/* Stops it (SIGTERM, then waits), keeping its folder, mail and port. */
void dovecot_stop(dovecot *d);

/* Starts a stopped one again on the same port with the same mail. */
void dovecot_restart(dovecot *d);

/* Stops it if running and removes its folder. */
void dovecot_remove(dovecot *d);

/* The password of user (one with an @ and a colon, so URLs must
 * percent-encode it). */
const char *dovecot_password(const dovecot *d, const char *user);

/* "imap://user:password@127.0.0.1:port/mailbox", percent-encoded. */
void dovecot_url(const dovecot *d, const char *user, const char *mailbox,
                 char *out, size_t size);

/* "imaps://user:password@127.0.0.1:tls_port/mailbox" (dovecot_start_tls). */
void dovecot_imaps_url(const dovecot *d, const char *user, const char *mailbox,
                       char *out, size_t size);

/* Appends raw (a whole message with CRLF line ends and a Message-ID
 * header) to user's mailbox, unseen. */
void dovecot_append(const dovecot *d, const char *user, const char *mailbox,
                    const char *raw, size_t length);

/* Appends several messages to user's mailbox so that they become unseen
 * at one moment (one STORE), as a mail server that delivers them
 * together: a reader lists all of them in one round, or none. */
void dovecot_append_together(const dovecot *d, const char *user,
                             const char *mailbox, const char *const *raws,
                             int count);

/* How many messages of user's mailbox match an IMAP search ("ALL",
 * "UNSEEN", "SEEN", "HEADER Message-ID <a@b>"); -1 when the mailbox does
 * not exist. */
int dovecot_count(const dovecot *d, const char *user, const char *mailbox,
                  const char *criteria);

/* Waits (checking every 20 ms, up to seconds) until dovecot_count is
 * expected; false when it never was. */
bool dovecot_wait_count(const dovecot *d, const char *user, const char *mailbox,
                        const char *criteria, int expected, int seconds);

#endif
