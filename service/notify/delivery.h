/* delivery.h: the outbox worker's one delivery loop. Whatever the worker
 * sends (notifications by webhook or mail, digests, mail that answers
 * mail) goes the same way. The caller claims rows under a lease and makes
 * a delivery of each: a libcurl transfer set up for it, or a delivery
 * finished at once when none can be made (a webhook gone, a mail that
 * cannot be written). delivery_run then sends them all in parallel on the
 * worker's multi handle, has each judged as its transfer ends, and has
 * each recorded (the attempt counted: sent, pending again, dead) or, when
 * the worker was asked to stop before its transfer ended, released (due
 * again now, no attempt counted). The judging, recording and releasing
 * belong to the caller (delivery_kind): each kind of row keeps its own
 * table, log lines and metrics.
 *
 * A caller's row type starts with its delivery, so the callbacks get the
 * row back by a cast. */
#ifndef SERVICE_NOTIFY_DELIVERY_H
#define SERVICE_NOTIFY_DELIVERY_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/worker.h"
#include "notify/mail.h"

typedef struct delivery {
    /* The caller's set-up: the transfer, which delivery_run adds to the
     * multi handle and cleans up; NULL when there is none. */
    CURL *easy;
    /* The outcome, set by delivery_finish: */
    bool done;
    const char *outcome; /* sent | failed | gone | blocked | skipped */
    bool permanent;      /* dead whatever the attempt count */
    long code;           /* the HTTP or SMTP status; 0 when none */
    char error[320];     /* "" when none */
    /* Filled by delivery_run, for the judge and the record: */
    long long duration_ms;    /* of the transfer */
    long long retry_after_ms; /* the answer's Retry-After; 0 when none */
    char errbuf[CURL_ERROR_SIZE];
    struct timespec started;
    bool in_flight;
    /* A mail's: its upload (rewound for a second try) and whether the
     * transfer was started again on a new connection. */
    mail_upload *upload;
    bool reconnected;
} delivery;

typedef struct delivery_kind {
    /* Decides d's outcome (delivery_finish) from how its transfer ended. */
    void (*judge)(delivery *d, CURLcode result);
    /* Writes the attempt of d, which is done. */
    void (*record)(delivery *d, void *context);
    /* Gives d's row back: its transfer was cut short by a stop. */
    void (*release)(delivery *d, void *context);
} delivery_kind;

/* Sets d's outcome (outcome is a static string; error may be NULL). */
void delivery_finish(delivery *d, const char *outcome, bool permanent,
                     long code, const char *error);

/* After the caller's set-up of d: when it failed (ok false) and did not
 * finish d itself, d fails ("the delivery could not be prepared"). */
void delivery_prepared(delivery *d, bool ok);

/* Sets up d's transfer: message (borrowed: it must outlive the run)
 * mailed to address by SMTP (mail.h), through upload and *recipients,
 * which are the caller's row's (*recipients freed by the caller after the
 * run). False when libcurl refused. */
bool delivery_prepare_mail(delivery *d, const char *address,
                           const char *message, mail_upload *upload,
                           struct curl_slist **recipients,
                           int timeout_seconds);

/* A mail whose transfer failed on a connection kept from an earlier mail
 * (the SMTP server closed it for idleness, or answered 421 "closing") is
 * sent again at once on a new connection, once, before it is judged: a
 * server's idle timeout costs no attempt and no retry delay. */

/* Judges a transfer by libcurl's result alone: "sent" when it finished,
 * "failed" with libcurl's words when not; the code is the answer's
 * status either way. What a mail's outcome is (the SMTP server took it or
 * not); a webhook's answer needs its status judged too. */
void delivery_judge_transfer(delivery *d, CURLcode result);

/* Sends batch[0..count) in parallel on multi: every delivery not done
 * yet goes out (its Retry-After header read, its body discarded), each is
 * judged by kind->judge when its transfer ends, then each is recorded
 * (kind->record) or, when self was asked to stop first (or libcurl
 * failed), released (kind->release); context goes to both. Every
 * transfer is cleaned up and d->easy set to NULL; the rest of each row is
 * the caller's to free. */
void delivery_run(CURLM *multi, worker *self, delivery *const *batch, int count,
                  const delivery_kind *kind, void *context);

#endif
