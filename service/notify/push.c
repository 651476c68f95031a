/* push.c: see push.h. */
#include "notify/push.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "ledger/seal.h"
#include "notify/push_crypto.h"
#include "notify/result_text.h"
#include "store/bytea.h"
#include "store/db.h"
#include "store/push_subscriptions.h"
#include "store/reachability.h"

#define ENDPOINT_MAX 2000
/* A notice is urgent for a day at most: a turn told later is stale, and
 * the mail (or the page) says it anyway. */
#define NOTICE_TTL_SECONDS 86400
/* RFC 8292: a JWT's expiry within 24 hours; 12 leaves room for clocks. */
#define VAPID_HOURS 12
#define SENTENCE_MAX 600

/* The VAPID key: derived from the service key for this one purpose, and
 * hashed again in the rare case (2^-32) it is no P-256 scalar. */
static void vapid_secret(uint8_t secret[PUSH_CRYPTO_SECRET_BYTES],
                         uint8_t public_key[PUSH_CRYPTO_KEY_BYTES])
{
    seal_derive_key("vapidkey", secret, PUSH_CRYPTO_SECRET_BYTES);
    while (!push_crypto_public_key(secret, public_key))
        crypto_generichash(secret, PUSH_CRYPTO_SECRET_BYTES, secret,
                           PUSH_CRYPTO_SECRET_BYTES, NULL, 0);
}

static void ref_of(long long id, char out[32])
{
    snprintf(out, 32, "ps_%lld", id);
}

static long long parse_ref(const char *text)
{
    if (strncmp(text, "ps_", 3) != 0 || text[3] < '1' || text[3] > '9')
        return 0;
    char *end = NULL;
    long long id = strtoll(text + 3, &end, 10);
    return *end == '\0' && id > 0 ? id : 0;
}

long long push_channel_id(const char *channel)
{
    if (strncmp(channel, "push:", 5) != 0 || channel[5] < '1' ||
        channel[5] > '9')
        return 0;
    char *end = NULL;
    long long id = strtoll(channel + 5, &end, 10);
    return *end == '\0' && id > 0 ? id : 0;
}

/* Row i of r (STORE_PUSH_… columns) as the API shows it. */
static json_t *describe_row(const PGresult *r, int i)
{
    char ref[32];
    ref_of(atoll(PQgetvalue(r, i, STORE_PUSH_ID)), ref);
    return json_pack("{s:s,s:s,s:s}", "id", ref, "endpoint",
                     PQgetvalue(r, i, STORE_PUSH_ENDPOINT), "created_at",
                     PQgetvalue(r, i, STORE_PUSH_CREATED));
}

json_t *push_list(long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    PGresult *r =
        conn ? store_push_subscriptions_of_player(conn, player_id, err) : NULL;
    if (r == NULL)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(list, describe_row(r, i));
    PQclear(r);
    uint8_t secret[PUSH_CRYPTO_SECRET_BYTES], public_key[PUSH_CRYPTO_KEY_BYTES];
    vapid_secret(secret, public_key);
    sodium_memzero(secret, sizeof secret);
    char key[sodium_base64_ENCODED_LEN(
        PUSH_CRYPTO_KEY_BYTES, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(key, sizeof key, public_key, sizeof public_key,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return json_pack("{s:s,s:o}", "vapid_public_key", key, "subscriptions",
                     list);
}

/* Exactly len bytes of base64url (padded or not) in text, into out. */
static bool read_b64(const char *text, uint8_t *out, size_t len)
{
    size_t got = 0;
    const char *end = NULL;
    if (text == NULL || strlen(text) > 200)
        return false;
    return sodium_base642bin(out, len, text, strlen(text), "=", &got, &end,
                             sodium_base64_VARIANT_URLSAFE_NO_PADDING) == 0 &&
           *end == '\0' && got == len;
}

/* An endpoint a push service made: https (http only where loopback is
 * allowed, for a test's push service), a host, no credentials, no
 * spaces or control characters. */
static bool acceptable_endpoint(const char *url, apierr *err)
{
    const char *rest = NULL;
    if (strncmp(url, "https://", 8) == 0)
        rest = url + 8;
    else if (strncmp(url, "http://", 7) == 0 &&
             config_flag(CONFIG_WEBHOOK_ALLOW_LOOPBACK))
        rest = url + 7;
    if (rest == NULL || strlen(url) > ENDPOINT_MAX || rest[0] == '\0' ||
        rest[0] == '/')
        return apierr_set(err, 400, "bad_subscription",
                          "endpoint must be the https:// URL the browser's "
                          "push service gave, of at most %d characters",
                          ENDPOINT_MAX);
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= ' ' || *p >= 0x7f)
            return apierr_set(err, 400, "bad_subscription",
                              "endpoint must not contain spaces, control or "
                              "non-ASCII characters");
    if (memchr(rest, '@', strcspn(rest, "/?#")) != NULL)
        return apierr_set(err, 400, "bad_subscription",
                          "endpoint must not carry credentials (user@host)");
    return true;
}

json_t *push_subscribe(long long player_id, const json_t *body, apierr *err)
{
    const char *endpoint = json_string_value(json_object_get(body, "endpoint"));
    const json_t *keys = json_object_get(body, "keys");
    uint8_t p256dh[PUSH_CRYPTO_KEY_BYTES], auth[PUSH_CRYPTO_AUTH_BYTES];
    if (endpoint == NULL)
        return apierr_set(err, 400, "bad_subscription",
                          "endpoint is missing: send the browser's "
                          "PushSubscription as JSON"),
               NULL;
    if (!acceptable_endpoint(endpoint, err))
        return NULL;
    if (!read_b64(json_string_value(json_object_get(keys, "p256dh")), p256dh,
                  sizeof p256dh) ||
        !push_crypto_valid_key(p256dh))
        return apierr_set(err, 400, "bad_subscription",
                          "keys.p256dh must be the browser's P-256 public key "
                          "(65 bytes, uncompressed) in base64url"),
               NULL;
    if (!read_b64(json_string_value(json_object_get(keys, "auth")), auth,
                  sizeof auth))
        return apierr_set(err, 400, "bad_subscription",
                          "keys.auth must be the browser's 16-byte auth "
                          "secret in base64url"),
               NULL;
    char p256dh_text[BYTEA_TEXT_SIZE(PUSH_CRYPTO_KEY_BYTES)];
    char auth_text[BYTEA_TEXT_SIZE(PUSH_CRYPTO_AUTH_BYTES)];
    bytea_write(p256dh, sizeof p256dh, p256dh_text);
    bytea_write(auth, sizeof auth, auth_text);
    PGconn *conn = db_conn(err);
    PGresult *r =
        conn ? store_push_subscriptions_put(conn, player_id, endpoint,
                                            p256dh_text, auth_text, err)
             : NULL;
    if (r == NULL)
        return NULL;
    /* Who can be told changed: a match cached without this player's
     * channel reads it again. */
    store_reachability_changed();
    json_t *row = describe_row(r, 0);
    PQclear(r);
    return json_pack("{s:o}", "subscription", row);
}

bool push_unsubscribe(long long player_id, const char *ref, apierr *err)
{
    long long id = parse_ref(ref);
    if (id == 0)
        return apierr_set(err, 404, "no_such_subscription",
                          "push subscription ids look like ps_12");
    PGconn *conn = db_conn(err);
    int found =
        conn ? store_push_subscriptions_disable_owned(conn, id, player_id, err)
             : -1;
    if (found < 0)
        return false;
    store_reachability_changed();
    if (found == 0)
        return apierr_set(err, 404, "no_such_subscription",
                          "you have no push subscription %s turned on", ref);
    return true;
}

/* The newest of the payload's "changes" (what happened since the seat's
 * last turn, as sentences), or NULL. */
static const char *last_change(const json_t *payload)
{
    const json_t *changes = json_object_get(payload, "changes");
    size_t n = json_array_size(changes);
    return n ? json_string_value(json_array_get(changes, n - 1)) : NULL;
}

/* The first line of the result as a mail says it ("Alice won."), into
 * out. */
static void result_line(const json_t *payload, char *out, size_t size)
{
    char *text = result_text(
        json_object_get(payload, "result"), json_object_get(payload, "players"),
        (int)json_integer_value(json_object_get(payload, "seat")));
    snprintf(out, size, "%.*s", text ? (int)strcspn(text, "\n") : 0,
             text ? text : "");
    free(text);
}

char *push_notice(const char *payload_text)
{
    json_t *payload = json_loads(payload_text, 0, NULL);
    const char *type = json_string_value(json_object_get(payload, "type"));
    const char *game =
        json_string_value(json_object_get(payload, "game_title"));
    const char *match = json_string_value(json_object_get(payload, "match"));
    const char *prompt = json_string_value(json_object_get(payload, "prompt"));
    const char *nudged_by =
        json_string_value(json_object_get(payload, "nudged_by"));
    const char *change = last_change(payload);
    type = type ? type : "";
    game = game ? game : "your match";
    char title[200], body[SENTENCE_MAX], url[64];
    snprintf(url, sizeof url, "/matches/%s", match ? match : "");
    if (strcmp(type, "match.over") == 0) {
        snprintf(title, sizeof title, "%s: the match is over", game);
        result_line(payload, body, sizeof body);
        if (body[0] == '\0')
            snprintf(body, sizeof body, "The match is over.");
    } else if (strcmp(type, "match.aborted") == 0) {
        snprintf(title, sizeof title, "%s: the match was stopped", game);
        snprintf(body, sizeof body, "An admin stopped the match.");
    } else {
        const char *why = strcmp(type, "match.deadline_reminder") == 0
                              ? "Your turn (the deadline is near)"
                          : strcmp(type, "match.reminder") == 0
                              ? "Still your turn"
                              : "Your turn";
        if (nudged_by != NULL)
            snprintf(title, sizeof title, "%s reminds you: your turn in %s",
                     nudged_by, game);
        else
            snprintf(title, sizeof title, "%s in %s", why, game);
        snprintf(body, sizeof body, "%s%s%s%s", change ? change : "",
                 change ? " " : "", prompt ? "Your turn: " : "It is your turn.",
                 prompt ? prompt : "");
        size_t len = strlen(body);
        if (prompt && len + 1 < sizeof body && body[len - 1] != '.')
            strcat(body, ".");
    }
    /* tag: one notice per match on the screen, the newest replacing it. */
    json_t *notice = json_pack("{s:s,s:s,s:s,s:s}", "title", title, "body",
                               body, "url", url, "tag", url);
    json_decref(payload);
    char *text = notice ? json_dumps(notice, JSON_COMPACT) : NULL;
    json_decref(notice);
    if (text == NULL)
        abort();
    return text;
}

/* The origin of an endpoint ("https://host[:port]"), the JWT's audience. */
static void origin_of(const char *endpoint, char *out, size_t size)
{
    const char *host = strstr(endpoint, "://");
    size_t len = host ? (size_t)(host + 3 - endpoint) + strcspn(host + 3, "/?#")
                      : strlen(endpoint);
    snprintf(out, size, "%.*s", (int)len, endpoint);
}

/* The VAPID subject: whom the push service may contact. */
static void subject(char *out, size_t size)
{
    const char *admin = config_text(CONFIG_ADMIN_EMAIL);
    if (admin != NULL && admin[0] != '\0')
        snprintf(out, size, "mailto:%s", admin);
    else
        snprintf(out, size, "%s", config_text(CONFIG_PUBLIC_URL));
}

static void add_header(struct curl_slist **headers, const char *line)
{
    struct curl_slist *more = curl_slist_append(*headers, line);
    if (more == NULL)
        abort();
    *headers = more;
}

bool push_prepare(delivery *d, PGconn *conn, long long subscription_id,
                  const char *payload_text, int timeout_seconds,
                  webhooks_guard *guard, push_transfer *t)
{
    apierr err;
    PGresult *r = store_push_subscriptions_load(conn, subscription_id, &err);
    if (r == NULL)
        return false;
    uint8_t p256dh[PUSH_CRYPTO_KEY_BYTES], auth[PUSH_CRYPTO_AUTH_BYTES];
    if (PQntuples(r) != 1 ||
        PQgetvalue(r, 0, STORE_PUSH_LOAD_DISABLED)[0] == 't' ||
        !bytea_read_exact(PQgetvalue(r, 0, STORE_PUSH_LOAD_P256DH), p256dh,
                          sizeof p256dh) ||
        !bytea_read_exact(PQgetvalue(r, 0, STORE_PUSH_LOAD_AUTH), auth,
                          sizeof auth)) {
        PQclear(r);
        delivery_finish(d, "skipped", true, 0,
                        "the push subscription was turned off");
        return true;
    }
    char endpoint[ENDPOINT_MAX + 1], audience[ENDPOINT_MAX + 1], who[400];
    snprintf(endpoint, sizeof endpoint, "%s",
             PQgetvalue(r, 0, STORE_PUSH_LOAD_ENDPOINT));
    PQclear(r);
    char *notice = push_notice(payload_text);
    size_t len = strlen(notice);
    t->body = malloc(PUSH_CRYPTO_BODY_BYTES(len));
    if (t->body == NULL)
        abort();
    bool sealed = push_crypto_encrypt(p256dh, auth, (const uint8_t *)notice,
                                      len, (uint8_t *)t->body);
    free(notice);
    if (!sealed) {
        delivery_finish(d, "failed", true, 0,
                        "the notice could not be encrypted for this "
                        "subscription's key");
        return true;
    }
    t->body_len = PUSH_CRYPTO_BODY_BYTES(len);
    origin_of(endpoint, audience, sizeof audience);
    subject(who, sizeof who);
    uint8_t secret[PUSH_CRYPTO_SECRET_BYTES], public_key[PUSH_CRYPTO_KEY_BYTES];
    vapid_secret(secret, public_key);
    char vapid[PUSH_CRYPTO_VAPID_MAX], line[PUSH_CRYPTO_VAPID_MAX + 32];
    bool signed_ok = push_crypto_vapid_header(
        secret, audience, (long long)time(NULL) + VAPID_HOURS * 3600, who,
        vapid, sizeof vapid);
    sodium_memzero(secret, sizeof secret);
    if (!signed_ok) {
        delivery_finish(d, "failed", true, 0,
                        "the VAPID signature could not be made");
        return true;
    }
    snprintf(line, sizeof line, "Authorization: %s", vapid);
    add_header(&t->headers, line);
    add_header(&t->headers, "Content-Type: application/octet-stream");
    add_header(&t->headers, "Content-Encoding: aes128gcm");
    snprintf(line, sizeof line, "TTL: %d", NOTICE_TTL_SECONDS);
    add_header(&t->headers, line);
    add_header(&t->headers, "Urgency: normal");
    add_header(&t->headers, "Expect:");
    d->easy = curl_easy_init();
    return d->easy != NULL &&
           webhooks_prepare(d->easy, endpoint, timeout_seconds, guard) &&
           curl_easy_setopt(d->easy, CURLOPT_HTTPHEADER, t->headers) ==
               CURLE_OK &&
           curl_easy_setopt(d->easy, CURLOPT_POSTFIELDS, t->body) == CURLE_OK &&
           curl_easy_setopt(d->easy, CURLOPT_POSTFIELDSIZE_LARGE,
                            (curl_off_t)t->body_len) == CURLE_OK;
}

void push_transfer_free(push_transfer *t)
{
    curl_slist_free_all(t->headers);
    free(t->body);
    *t = (push_transfer){0};
}

void push_judge(delivery *d)
{
    long status = 0;
    curl_easy_getinfo(d->easy, CURLINFO_RESPONSE_CODE, &status);
    char error[320];
    if (status >= 200 && status <= 299) {
        delivery_finish(d, "sent", false, status, NULL);
    } else if (status == 404 || status == 410) {
        snprintf(error, sizeof error,
                 "the push service answered %ld: it dropped the "
                 "subscription, which is turned off",
                 status);
        delivery_finish(d, "gone", true, status, error);
    } else {
        snprintf(error, sizeof error, "the push service answered HTTP %ld",
                 status);
        /* 429 and 5xx pass; any other refusal would refuse again. */
        bool permanent = status >= 400 && status < 500 && status != 429;
        delivery_finish(d, "failed", permanent, status, error);
    }
}

bool push_disable(PGconn *conn, long long subscription_id, const char *reason,
                  apierr *err)
{
    if (!store_push_subscriptions_disable(conn, subscription_id, reason, err))
        return false;
    store_reachability_changed();
    return true;
}
