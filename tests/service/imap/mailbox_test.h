/* mailbox_test.h: what the IMAP suite's tests share: a handler that
 * records every message it is handed and answers as the test says, test
 * mails, the worker's configuration for a private Dovecot, and bounded
 * waits on the worker. */
#ifndef TESTS_SERVICE_IMAP_MAILBOX_TEST_H
#define TESTS_SERVICE_IMAP_MAILBOX_TEST_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "../../support/dovecot.h"
#include "mailin/imap_config.h"
#include "mailin/imap_worker.h"

#define RECORDER_MAX 256

/* A handler's memory: which Message-IDs it was handed, how often. Safe
 * for several workers at once. */
typedef struct recorder {
    pthread_mutex_t lock;
    int calls;
    int ids;
    char id[RECORDER_MAX][64];
    int times[RECORDER_MAX];
    /* What the handler answers (the test may change it any time). */
    imap_outcome answer;
} recorder;

void recorder_init(recorder *r, imap_outcome answer);
void recorder_answer(recorder *r, imap_outcome answer);

/* The handler: context is a recorder. */
imap_outcome recorder_handle(void *context, const char *raw, size_t length);

/* How often the message with this Message-ID was handed over. */
int recorder_times(recorder *r, const char *id);
int recorder_calls(recorder *r);

/* Waits (up to seconds) until the handler was called at least calls
 * times; false when it never was. */
bool recorder_wait_calls(recorder *r, int calls, int seconds);

/* A mail from Eliza with Message-ID <id> and a body of at least
 * body_bytes bytes, CRLF line ends (malloc'd; *length its length). */
char *test_mail(const char *id, size_t body_bytes, size_t *length);

/* test_mail from another sender (a From header's value). */
char *test_mail_from(const char *from, const char *id, size_t body_bytes,
                     size_t *length);

/* Appends test_mail(id, 0) to user's INBOX. */
void deliver(const dovecot *d, const char *user, const char *id);

/* Appends test_mail_from(from, id, 0) to user's INBOX. */
void deliver_from(const dovecot *d, const char *user, const char *from,
                  const char *id);

/* The worker's configuration for user's INBOX on d: PBEM_IMAP_URL set to
 * dovecot_url, PBEM_IMAP_DONE to done (NULL: the default), polling every
 * 50 ms, a 5 s timeout; the log quiet (warnings and errors only); and
 * the database of DATABASE_URL (scripts/test.sh's), where workers hold
 * the messages they work on. */
void test_config(const dovecot *d, const char *user, const char *done,
                 imap_config *config);

/* The same for any PBEM_IMAP_URL. */
void test_config_url(const char *url, const char *done, imap_config *config);

/* Starts a worker; fails the test when it cannot. */
imap_worker *start_worker(const imap_config *config, recorder *r);

/* Waits (up to seconds) until pick(stats) >= at_least. */
bool wait_stat(const imap_worker *w,
               unsigned long (*pick)(const imap_worker_stats *),
               unsigned long at_least, int seconds);
unsigned long stat_rounds(const imap_worker_stats *s);
unsigned long stat_failures(const imap_worker_stats *s);
unsigned long stat_elsewhere(const imap_worker_stats *s);

#endif
