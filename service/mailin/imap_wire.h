/* imap_wire.h: one IMAP session over a connection libcurl made. libcurl
 * connects, speaks TLS (imaps://, or STARTTLS as configured) and logs in
 * (CURLOPT_CONNECT_ONLY); this module then sends tagged commands and
 * reads their responses itself, literals included.
 *
 * Why not libcurl's own IMAP requests: in libcurl 7.88 (Debian 12) a URL
 * fetch (imap://…/INBOX;UID=n) sends BODY[], which sets \Seen the moment
 * the message is read, and the answer to a custom request
 * (CURLOPT_CUSTOMREQUEST "UID FETCH n BODY.PEEK[]") loses a literal's
 * bytes: only lines beginning "* " reach the write callback. A message
 * must stay unseen until its result is committed, so BODY.PEEK[] is sent
 * here, on libcurl's connection, and IDLE comes with it.
 *
 * Every wait is bounded by the configured timeout (no progress for that
 * long fails the session); the connect and login also end early when the
 * stop descriptor becomes readable. A session that failed
 * (IMAP_WIRE_BROKEN) is not used again: close it and open another. */
#ifndef SERVICE_MAILIN_IMAP_WIRE_H
#define SERVICE_MAILIN_IMAP_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "mailin/imap_config.h"

typedef struct imap_wire imap_wire;

typedef enum imap_wire_status {
    IMAP_WIRE_OK,
    IMAP_WIRE_NO,     /* the server refused; imap_wire_said has its words */
    IMAP_WIRE_BAD,    /* the server did not understand the command */
    IMAP_WIRE_BROKEN, /* the connection failed, timed out or the server
                         spoke nonsense; imap_wire_said says which */
} imap_wire_status;

/* One untagged response ("* …"): text is its lines without "* " and
 * without line ends, with each literal's place marked "{n}" as the server
 * wrote it; literal is the first literal's bytes (NUL-terminated, NULL
 * when none). Both are borrowed for the call. */
typedef void (*imap_wire_untagged)(void *context, const char *text,
                                   const char *literal, size_t literal_len);

/* Connects and logs in as config says (borrowed; must outlive the
 * session). A literal longer than literal_max fails the session. stop_fd
 * (-1: none) readable abandons the connect and login at once. NULL with
 * error (size bytes; the URL shown without the password) filled on
 * failure. */
imap_wire *imap_wire_open(const imap_config *config, size_t literal_max,
                          int stop_fd, char *error, size_t size);

/* Sends one command (printf-style, without tag or line end) and reads up
 * to its tagged response, handing each untagged one to on_untagged (NULL:
 * ignored). */
imap_wire_status imap_wire_command(imap_wire *w, imap_wire_untagged on_untagged,
                                   void *context, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The words after the last tagged status ("[TRYCREATE] Mailbox doesn't
 * exist: Processed"), or why the session broke. */
const char *imap_wire_said(const imap_wire *w);

/* Sends IDLE and reads up to the server's go-ahead (RFC 2177). From then
 * on the server may write at any time: wait for imap_wire_socket to
 * become readable, then call imap_wire_idle_end. *pending is true when
 * something already came and there is nothing to wait for. */
imap_wire_status imap_wire_idle_begin(imap_wire *w, bool *pending);

/* Ends IDLE (DONE) and reads up to its tagged response; the untagged
 * responses that came meanwhile are dropped (the next round asks anew). */
imap_wire_status imap_wire_idle_end(imap_wire *w);

/* How many commands this session has sent (IDLE and the login's
 * excepted): for tests that count round trips. */
unsigned imap_wire_commands(const imap_wire *w);

/* The connection's socket, for poll(2) while idling; -1 when unknown. */
int imap_wire_socket(const imap_wire *w);

/* Ends the session (DONE first when idling; a broken one is shut down
 * without waiting for the server) and frees it. NULL does nothing. */
void imap_wire_close(imap_wire *w);

#endif
