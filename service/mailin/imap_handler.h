/* imap_handler.h: what the IMAP worker (imap_worker.h) hands each message
 * it reads to, and the answers that decide what becomes of the message. */
#ifndef SERVICE_MAILIN_IMAP_HANDLER_H
#define SERVICE_MAILIN_IMAP_HANDLER_H

#include <stddef.h>

typedef enum imap_outcome {
    IMAP_HANDLED,    /* committed (refusals included): mark \Seen, then
                        move/delete */
    IMAP_UNREADABLE, /* not a mail at all: also mark \Seen and move/delete
                        (logged at WARN) */
    IMAP_TRY_LATER,  /* database down, or another process holds it: leave
                        it unseen, try next round */
} imap_outcome;

/* Handles one message: raw is its bytes as the server keeps them (CRLF
 * line ends), length of them, raw[length] == '\0'; borrowed for the call.
 * Runs on one of the worker's handler threads, several at once (so it
 * must be thread-safe); each thread's database connection, store/db.h's
 * db_conn, is closed when the worker ends. Messages of one sender come in
 * the order they arrived, one call after the other. */
typedef imap_outcome (*imap_handler)(void *context, const char *raw,
                                     size_t length);

#endif
