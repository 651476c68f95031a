/* push.h: Web Push (RFC 8030), a browser's own channel for turn notices.
 *
 * The page subscribes with the service's VAPID public key (GET answers
 * it) and posts what PushSubscription.toJSON() gives: the endpoint the
 * push service made for that browser and its keys. From then on every
 * row the outbox queues for the player has a "push:<id>" row beside its
 * email and webhook rows, and the outbox worker (notify.h) sends it like
 * the others: a short notice (a title, a sentence, the match's link),
 * encrypted for that browser alone (push_crypto.h, RFC 8291) and signed
 * with the VAPID key (RFC 8292). A push service that answers 404 or 410
 * has dropped the subscription: it is disabled and gets nothing more.
 *
 * The VAPID key is derived from the service key (ledger/seal.h), so every
 * pbemd sharing that key signs alike and a subscription survives a
 * restart; changing the service key means every browser subscribes
 * again. */
#ifndef SERVICE_NOTIFY_PUSH_H
#define SERVICE_NOTIFY_PUSH_H

#include <curl/curl.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "notify/delivery.h"
#include "notify/webhooks.h"

/* GET /v1/players/me/push-subscriptions: {"vapid_public_key": base64url
 * of the 65-byte key, "subscriptions": [{"id": "ps_1", "endpoint",
 * "created_at"}]}, the player's enabled ones. */
json_t *push_list(long long player_id, apierr *err);

/* POST /v1/players/me/push-subscriptions: body {"endpoint": "https://…",
 * "keys": {"p256dh": base64url of a P-256 point, "auth": base64url of 16
 * bytes}} (other members, such as "expirationTime", are ignored). The
 * same endpoint again replaces its keys. Answers {"subscription": {…}};
 * 400 "bad_subscription" with the reason when a part is missing or
 * wrong. */
json_t *push_subscribe(long long player_id, const json_t *body, apierr *err);

/* DELETE /v1/players/me/push-subscriptions/{ref}: turns one of the
 * player's subscriptions off; false with 404 "no_such_subscription" when
 * it is not theirs or is off already. */
bool push_unsubscribe(long long player_id, const char *ref, apierr *err);

/* The notice a browser shows for an outbox payload (JSON text, as
 * queued): {"title", "body", "url", "tag"}, the body the sentence a
 * player reads ("Bob played sun 3. Your turn: take a card or pass.").
 * malloc'd JSON text, at most PUSH_CRYPTO_PLAIN_MAX bytes. */
char *push_notice(const char *payload_text);

/* What the outbox worker keeps of a push delivery until its transfer is
 * cleaned up. */
typedef struct push_transfer {
    struct curl_slist *headers;
    char *body; /* binary: the encrypted notice, body_len bytes */
    size_t body_len;
} push_transfer;

/* Sets up d's transfer of the notice of payload_text (as queued) to
 * subscription_id: d->easy ready, t holding what it uses (freed by
 * push_transfer_free after the run). A subscription gone or off
 * finishes d as skipped, permanently. False on a database failure or
 * when libcurl refused. */
bool push_prepare(delivery *d, PGconn *conn, long long subscription_id,
                  const char *payload_text, int timeout_seconds,
                  webhooks_guard *guard, push_transfer *t);

void push_transfer_free(push_transfer *t);

/* Judges a finished transfer by the push service's answer: 2xx sent; 404
 * or 410 gone (the subscription is dropped: permanent); 413 and other
 * 4xx but 429 failed permanently; the rest failed, to be tried again. */
void push_judge(delivery *d);

/* Disables subscription_id after its push service dropped it. */
bool push_disable(PGconn *conn, long long subscription_id, const char *reason,
                  apierr *err);

/* The subscription id of an outbox channel "push:<id>"; 0 when it is
 * not one. */
long long push_channel_id(const char *channel);

#endif
