/* retry.h: a signed request is applied once, however often it is sent.
 *
 * Every request that changes something carries a nonce (auth/caller.h).
 * The transaction that applies it stores the nonce with the request's
 * digest and the answer it got (retry_commit), so a client that lost the
 * answer and sends the same request again gets that answer back instead
 * of a second application (retry_find); a nonce used for a different
 * request is refused. */
#ifndef SERVICE_PLAY_RETRY_H
#define SERVICE_PLAY_RETRY_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "auth/caller.h"
#include "core/apierr.h"
#include "store/db.h"
#include "store/matches.h"

/* Answers stored for retried requests: status and body of the first try. */
typedef struct retry_answer {
    int status;
    char *body;   /* malloc'd */
} retry_answer;

/* 1 when (key, nonce) already answered this same request (answer filled),
 * 0 when unseen, -1 with err filled when the nonce was used for a different
 * request (401), when the event the request made has since been undone by
 * an admin's rewind (409 "rewound": the request is not applied again, and
 * its first answer no longer stands), or the database failed. */
int retry_find(const caller *who, retry_answer *answer, apierr *err);

/* Stores the request's nonce with answer (borrowed) and the head of match
 * (NULL: the request made no event), and commits the caller's
 * transaction; rolls it back on failure. */
bool retry_commit(PGconn *conn, const caller *who, const store_match *match,
                  int status, const json_t *answer, apierr *err);

/* The same, for a request that may wait for its commit without holding
 * its thread (db.h db_commit_queue; waiter NULL: it blocks): DB_COMMITTED,
 * DB_FAILED (err filled, rolled back), or DB_QUEUED with *queued the
 * commit whose outcome db_commit_outcome gives. */
int retry_commit_queue(PGconn *conn, const caller *who,
                       const store_match *match, int status,
                       const json_t *answer, const db_waiter *waiter,
                       db_shared **queued, apierr *err);

/* Spends the nonce of a request refused (4xx) before it changed anything,
 * keeping its refusal (status, body: borrowed) as its answer, so it holds
 * the same promise as an applied one: the same request sent again gets
 * the same refusal, another request with that nonce 401. Outside any
 * transaction, on this thread's connection; false with err filled when it
 * could not be kept (the refusal stands all the same). */
bool retry_remember_refusal(const caller *who, int status, const char *body,
                            apierr *err);

#endif
