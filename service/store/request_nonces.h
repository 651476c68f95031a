/* request_nonces.h: the signature nonces of signed requests and the
 * first answer each got (migrations/001_foundation.sql,
 * 010_request_nonces_pruning.sql), so that a retried request gets the same
 * answer and a replayed one is refused (play/retry.h). */
#ifndef SERVICE_STORE_REQUEST_NONCES_H
#define SERVICE_STORE_REQUEST_NONCES_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

/* Request nonces (idempotent retries): the first answer to a signed
 * request, and the match head it left behind (match_id 0 when it made no
 * event). */
typedef struct store_nonce {
    int status;
    char *response; /* malloc'd by store_find_nonce */
    long long match_id;
    long long seq;
} store_nonce;

/* 0 unseen, 1 seen for this same request (*found filled), 2 seen for a
 * different request, -1 database error. */
int store_find_nonce(PGconn *conn, const char *key_id, const char *nonce,
                     const uint8_t digest[32], store_nonce *found, apierr *err);
/* 409 "nonce_reused" when a concurrent request took the nonce first. */
bool store_save_nonce(PGconn *conn, const char *key_id, const char *nonce,
                      const uint8_t digest[32], const store_nonce *answer,
                      apierr *err);

/* Deletes up to limit request_nonces rows made more than seconds ago,
 * oldest first. Past the signature window a request can no longer be
 * sent, so its nonce neither guards against a replay nor serves a retry;
 * exports carry the signed requests in the events, not here. How many
 * rows went, or -1 with err. */
int store_prune_nonces(PGconn *conn, long long seconds, int limit, apierr *err);

#endif
