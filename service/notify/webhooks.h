/* webhooks.h: endpoints that receive notifications as Standard Webhooks
 * 1.0 deliveries. A player registers one for themselves (a bot acting for
 * them, told of their own view and moves) or for a match they sit in (a
 * relay, told only public data). Registration answers a generated whsec_
 * secret once; the service keeps it encrypted with the service key.
 *
 * A delivery is POST url with headers webhook-id (the notification id,
 * stable across retries), webhook-timestamp (this attempt's unix seconds)
 * and webhook-signature "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>",
 * the key being the base64-decoded part of the secret after "whsec_".
 * An endpoint registered with "format": "slack" or "discord" gets the body
 * that service's incoming webhooks accept instead (chat_formats.h), with
 * no webhook-* headers: its URL is its only secret, and the services
 * ignore the headers anyway.
 *
 * Deliveries never follow redirects and, unless loopback is allowed for
 * tests, never connect to loopback, private, link-local or otherwise
 * internal addresses (checked on the address actually connected to). */
#ifndef SERVICE_NOTIFY_WEBHOOKS_H
#define SERVICE_NOTIFY_WEBHOOKS_H

#include <curl/curl.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"
#include "auth/caller.h"
#include "notify/chat_formats.h"

#define WEBHOOKS_SECRET_MAX 128    /* "whsec_" + base64, NUL included */
#define WEBHOOKS_SIGNATURE_MAX 64  /* "v1," + 44 base64 characters */
#define WEBHOOKS_URL_MAX 2000

/* A new secret: "whsec_" + standard base64 of 32 random bytes. */
void webhooks_new_secret(char out[WEBHOOKS_SECRET_MAX]);

/* The v1 signature of (msg_id, timestamp, body) under secret ("whsec_…").
 * False when the secret is malformed. */
bool webhooks_sign(const char *secret, const char *msg_id, long long timestamp,
                   const char *body, size_t body_len,
                   char out[WEBHOOKS_SIGNATURE_MAX]);

/* POST /v1/players/me/webhooks (match_id 0) or /v1/matches/{id}/webhooks:
 * body {"url": "https://…", "format": "standard" | "slack" | "discord"
 * (optional, standard)}; 400 "bad_format" for another format. Answers {"webhook": {…, "secret": "whsec_…"}}
 * (the only time the secret is shown). 403 when player_id has no seat in
 * the match. */
json_t *webhooks_register(long long player_id, long long match_id,
                          const json_t *body, apierr *err);

/* webhooks_register for a signed request, exactly once per signature
 * nonce: the registration and the request's nonce are stored in one
 * transaction. The answer kept for a retry is a 409 "already_registered"
 * naming the webhook, not the answer itself, since the secret is shown
 * only once: a replayed registration never yields a second webhook or
 * a secret. */
json_t *webhooks_register_once(const caller *who, long long match_id,
                               const json_t *body, apierr *err);

/* GET /v1/players/me/webhooks: the caller's endpoints, without secrets. */
json_t *webhooks_list(long long player_id, apierr *err);

/* DELETE /v1/players/me/webhooks/{ref}: disables one of the caller's
 * endpoints (404 when it is not theirs). */
json_t *webhooks_disable_mine(long long player_id, const char *ref,
                              apierr *err);

/* Public id "wh_<n>"; parse returns 0 when malformed. */
void webhooks_ref(long long webhook_id, char out[32]);
long long webhooks_parse_ref(const char *text);

/* For the outbox worker: the endpoint's URL and secret (decrypted),
 * whether it was disabled, and its body format. 0 found, 1 no such
 * webhook, -1 database error. */
int webhooks_load(PGconn *conn, long long webhook_id,
                  char url[WEBHOOKS_URL_MAX + 1],
                  char secret[WEBHOOKS_SECRET_MAX], bool *disabled,
                  chat_format *format, apierr *err);

/* The body of a chat-format delivery (chat_body, malloc'd) of a
 * notification's payload in match_id: the last move at or before the
 * payload's seq read from the log, and the link under PBEM_PUBLIC_URL.
 * NULL with err on a database failure. */
char *webhooks_chat_body(PGconn *conn, long long match_id,
                         chat_format format, const json_t *payload,
                         apierr *err);

/* Disables an endpoint (it answered 410 Gone). */
bool webhooks_disable(PGconn *conn, long long webhook_id, const char *reason,
                      apierr *err);

/* Set on a delivery's easy handle with webhooks_guard_install; blocked is
 * true after the guard refused an address. */
typedef struct webhooks_guard {
    bool allow_loopback;
    bool blocked;
    char address[64];   /* the refused address, for the attempt record */
} webhooks_guard;

/* Delivery options shared by every webhook request: no redirects, http
 * and https only, no signals, timeout_seconds overall, the address
 * guard. */
bool webhooks_prepare(CURL *easy, const char *url, int timeout_seconds,
                      webhooks_guard *guard);

#endif
