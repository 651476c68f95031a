/* imap_client.h: the mailbox as the IMAP worker uses it. One session
 * (imap_wire.h, one libcurl handle) logged in with the configured mailbox
 * selected, and the verbs of a round: the unseen messages' UIDs, their
 * bytes, marking them \Seen, and moving or deleting them, each verb for a
 * batch of UIDs at once (UID sets) or for one.
 *
 * Fetching sends BODY.PEEK[], so reading a message never marks it \Seen:
 * only imap_client_mark_seen does, after the handler's result is
 * committed. Moving uses MOVE (RFC 6851) and creates the folder the first
 * time the server says it is missing; a server without MOVE gets COPY,
 * \Deleted and UID EXPUNGE (plain EXPUNGE without UIDPLUS, which also
 * expunges what others marked \Deleted in the mailbox).
 *
 * UIDs are used only in the session that listed them, and every round
 * lists anew, so a new UIDVALIDITY (the mailbox recreated) can never make
 * a UID name another message; and it is the database, keyed by
 * Message-ID, that makes handling a message twice harmless, not the
 * UIDs. Several processes may work one mailbox: a UID another one
 * already moved or deleted is IMAP_CLIENT_GONE when fetched and OK when
 * marked, moved or deleted. */
#ifndef SERVICE_MAILIN_IMAP_CLIENT_H
#define SERVICE_MAILIN_IMAP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mailin/imap_config.h"

/* The largest message handed to the handler: 4 MiB. */
#define IMAP_CLIENT_MESSAGE_MAX ((size_t)4 << 20)
/* The most message bytes one FETCH of a batch asks for: a batch of large
 * messages is read in several FETCHes, so a round holds at most this much
 * besides one message over it. */
#define IMAP_CLIENT_FETCH_BYTES ((size_t)8 << 20)
/* The most UIDs in one command of a batch (the worker's batch at most). */
#define IMAP_CLIENT_BATCH_MAX 64

typedef struct imap_client imap_client;

typedef enum imap_client_result {
    IMAP_CLIENT_OK,
    IMAP_CLIENT_GONE,    /* fetch: the UID is no longer in the mailbox */
    IMAP_CLIENT_TOO_BIG, /* fetch: over IMAP_CLIENT_MESSAGE_MAX, not read */
    IMAP_CLIENT_REFUSED, /* the server said NO or BAD; the session is fine */
    IMAP_CLIENT_BROKEN,  /* the session failed: close it */
} imap_client_result;

/* Connects, logs in, learns the server's capabilities and selects
 * config->mailbox (config borrowed: it must outlive the client). stop_fd
 * (-1: none) readable abandons the connect and login at once (commands
 * later run to their answer, within the timeout). NULL with error (size
 * bytes, never the password) filled on failure. */
imap_client *imap_client_open(const imap_config *config, int stop_fd,
                              char *error, size_t size);

/* Why the last call failed or was refused: a sentence with the server's
 * own words. */
const char *imap_client_error(const imap_client *c);

/* The lowest max UIDs of messages neither \Seen nor \Deleted, ascending,
 * into uids; *count how many were written, *total how many there are.
 * What other sessions changed up to the call is seen (a NOOP first). */
imap_client_result imap_client_unseen(imap_client *c, uint32_t *uids,
                                      size_t max, size_t *count, size_t *total);

/* One message of a batch, as imap_client_fetch_batch found it. */
typedef struct imap_client_message {
    uint32_t uid;              /* set by the caller */
    imap_client_result result; /* OK (raw holds it), GONE or TOO_BIG */
    char *raw;                 /* malloc'd, NUL-terminated; the caller
                                  frees it; NULL unless OK */
    size_t length;             /* its bytes, or its size when TOO_BIG */
} imap_client_message;

/* imap_client_fetch for count (at most IMAP_CLIENT_BATCH_MAX) messages
 * at once, in round trips for the batch, not for each message: one FETCH
 * of their sizes and flags, then one FETCH of their bytes (BODY.PEEK[],
 * leaving them unseen; more than one when they add up to over
 * IMAP_CLIENT_FETCH_BYTES). Each message's result says what became of it;
 * *version is the batch's for imap_client_mark_seen_batch (the highest
 * MODSEQ read, which any change since the read exceeds; 0 without
 * CONDSTORE). REFUSED or BROKEN: no message is OK (none holds bytes). */
imap_client_result imap_client_fetch_batch(imap_client *c,
                                           imap_client_message *messages,
                                           size_t count, uint64_t *version);

/* imap_client_mark_seen for count UIDs in one STORE (in a few when their
 * UID set is long): gone[i] is set for each one somebody changed since
 * version or that is gone (RFC 7162's MODIFIED), which must not be moved
 * or deleted. */
imap_client_result imap_client_mark_seen_batch(imap_client *c,
                                               const uint32_t *uids,
                                               size_t count, uint64_t version,
                                               bool *gone);

/* imap_client_move and imap_client_delete for count UIDs at once (UID
 * sets). */
imap_client_result imap_client_move_batch(imap_client *c, const uint32_t *uids,
                                          size_t count, const char *folder);
imap_client_result imap_client_delete_batch(imap_client *c,
                                            const uint32_t *uids, size_t count);

/* The message's bytes (malloc'd, NUL-terminated; the caller frees them)
 * into *raw and *length, leaving it unseen, and its version for
 * imap_client_mark_seen (its MODSEQ, RFC 7162; 0 on servers without
 * CONDSTORE). Its size and flags are asked first: a message over
 * IMAP_CLIENT_MESSAGE_MAX is not read (TOO_BIG, *length its size, *raw
 * NULL), and one that is \Seen by now is GONE (another process has it). */
imap_client_result imap_client_fetch(imap_client *c, uint32_t uid, char **raw,
                                     size_t *length, uint64_t *version);

/* Sets \Seen, which claims the putting away: with a version from
 * imap_client_fetch (and CONDSTORE), only if nobody changed the message
 * since; GONE when somebody did or it is gone, and then it must not be
 * moved or deleted (another process does that). So of two processes that
 * handled one message, only one moves it, and the done folder does not
 * get two copies (MOVE racing MOVE copies twice on some servers, Dovecot
 * with maildir among them). version 0: unconditionally. */
imap_client_result imap_client_mark_seen(imap_client *c, uint32_t uid,
                                         uint64_t version);

/* Moves the message into folder, creating the folder when missing. A UID
 * already gone is OK. */
imap_client_result imap_client_move(imap_client *c, uint32_t uid,
                                    const char *folder);

/* Deletes the message (\Deleted, then expunged). A UID already gone is
 * OK. */
imap_client_result imap_client_delete(imap_client *c, uint32_t uid);

/* Starts waiting for news (IMAP IDLE): OK with *fd the socket to wait on
 * (readable: something changed) and *pending true when news came already;
 * REFUSED when the server has no IDLE (poll instead). Until
 * imap_client_idle_end, no other verb may be used. */
imap_client_result imap_client_idle_begin(imap_client *c, int *fd,
                                          bool *pending);

/* Stops waiting; does nothing when not idling. */
imap_client_result imap_client_idle_end(imap_client *c);

/* Logs out and frees. NULL does nothing. */
void imap_client_close(imap_client *c);

#endif
