/* answer.h: what a request gets back, and the few ways every route fills
 * it: a JSON value, an error in the one error shape, or the stored answer
 * of an earlier try of the same signed request. http.c sends it. */
#ifndef SERVICE_HTTP_ANSWER_H
#define SERVICE_HTTP_ANSWER_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>

#include "auth/caller.h"
#include "core/apierr.h"

typedef struct answer {
    int status;
    char *body;               /* malloc'd */
    const char *content_type; /* static */
    const char *route;        /* static route name, for metrics and logs */
    const char *preference_applied; /* static; RFC 7240 header, or NULL */
    long long retry_after;          /* seconds for a Retry-After header, or 0 */
    bool close; /* the connection closes after this answer (body unread) */
    /* The IETF RateLimit-Policy and RateLimit fields (rate_policy.h), or
     * "" when no budget applies. */
    char ratelimit_policy[64];
    char ratelimit[64];
    /* Instead of body, an answer written piece by piece as the client
     * reads it (exports): stream_read is called with stream until it
     * reports the end, then stream_free. */
    MHD_ContentReaderCallback stream_read;
    MHD_ContentReaderFreeCallback stream_free;
    void *stream;
    /* Not known yet: the handler set its request aside (a move waiting for
     * its commit without holding its thread); once the connection is
     * resumed, finish(later, out) fills the answer (routes.h). */
    void *later;
    void (*finish)(void *later, struct answer *out);
} answer;

/* An error in the one error shape: {"error":{"code","message"}}. */
void answer_error(answer *out, int status, const char *code,
                  const char *message);

/* err in the error shape, with its Retry-After and, for a stale head, the
 * current head. Database codes become "internal": the SQLSTATE is for the
 * log, not for clients. */
void answer_apierr(answer *out, const apierr *err);

/* A JSON answer; value is stolen. */
void answer_json(answer *out, int status, json_t *value);

/* value (stolen) when not NULL, else the error. */
void answer_result(answer *out, int status, json_t *value, const apierr *err);

/* Replaces whatever *out holds (its route kept) by the answer a signed
 * request with who's nonce got before: 1 when there is one, -1 with the
 * error when the nonce was used for a different request or the lookup
 * failed, 0 (*out untouched) when the nonce is new. */
int answer_stored(const caller *who, answer *out);

/* Keeps out, a refusal (4xx) of who's signed request, as the answer to
 * its nonce (retry.h retry_remember_refusal); a failure to keep it is
 * logged, and out is sent all the same. */
void answer_remember_refusal(const caller *who, const answer *out);

#endif
