/* mail_thread.h: who a mail is and which conversation it belongs to.
 *
 * Every mail the service sends has a Message-ID of its own, unique across
 * installations and database resets: a keyed BLAKE2b (a key derived from
 * the service key) of what the mail is (a notification's id, an answer's
 * row) and when its row was made. A retry of the same row has the same
 * id, so a receiver can drop a duplicate; no other mail has it, even
 * where row numbers start again from 1.
 *
 * Every mail about a match to one seat belongs to one thread: its root
 * Message-ID, keyed by the match, the seat and the match's sealed seed
 * (which no other match anywhere has), is each mail's In-Reply-To and the
 * head of its References, and its subject is the same on every mail
 * ("[pbem] Adel Verplichtet m_12 with Ann and Bob"), so mail clients that
 * thread by subject (Gmail) agree with those that thread by References
 * (Thunderbird, Apple Mail). The root is never sent itself: GitHub's
 * notification threads work the same way. */
#ifndef SERVICE_NOTIFY_MAIL_THREAD_H
#define SERVICE_NOTIFY_MAIL_THREAD_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "store/matches.h"

/* Room for a Message-ID's left-hand side. */
#define MAIL_THREAD_ID_MAX 96

/* The left-hand side of the Message-ID of the mail what ("ntf_12_34",
 * "answer-7": letters, digits, '_' and '-') whose row was made at created
 * (the row's time stamp as text, microseconds included): what, a dot and
 * 32 hex digits. */
void mail_thread_message_id(const char *what, const char *created,
                            char out[MAIL_THREAD_ID_MAX]);

typedef struct mail_thread {
    char root[MAIL_THREAD_ID_MAX]; /* the root's left-hand side */
    char subject[416];             /* UTF-8 */
} mail_thread;

/* The thread of the mails to seat about match. */
void mail_thread_of(const store_match *match, int seat, mail_thread *out);

/* The same, reading the match: false when there is no such match or the
 * database failed (the mail then goes out without a thread). */
bool mail_thread_load(PGconn *conn, long long match_id, int seat,
                      mail_thread *out);

#endif
