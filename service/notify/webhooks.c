/* webhooks.c: Standard Webhooks endpoints, their secrets and signatures,
 * and the delivery guard against internal addresses. */
#include "notify/webhooks.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"
#include "core/config.h"
#include "core/log.h"
#include "ledger/seal.h"
#include "notify/chat_formats.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/reachability.h"
#include "store/request_nonces.h"
#include "store/store.h"
#include "store/webhooks.h"

#define SECRET_BYTES 32
#define SECRET_PREFIX "whsec_"
#define KEY_MAX 64

void webhooks_new_secret(char out[WEBHOOKS_SECRET_MAX])
{
    uint8_t key[SECRET_BYTES];
    randombytes_buf(key, sizeof key);
    memcpy(out, SECRET_PREFIX, sizeof SECRET_PREFIX - 1);
    sodium_bin2base64(out + sizeof SECRET_PREFIX - 1,
                      WEBHOOKS_SECRET_MAX - (sizeof SECRET_PREFIX - 1), key,
                      sizeof key, sodium_base64_VARIANT_ORIGINAL);
    sodium_memzero(key, sizeof key);
}

bool webhooks_sign(const char *secret, const char *msg_id, long long timestamp,
                   const char *body, size_t body_len,
                   char out[WEBHOOKS_SIGNATURE_MAX])
{
    size_t prefix = sizeof SECRET_PREFIX - 1;
    if (strncmp(secret, SECRET_PREFIX, prefix) != 0)
        return false;
    uint8_t key[KEY_MAX];
    size_t key_len = 0;
    const char *encoded = secret + prefix;
    if (sodium_base642bin(key, sizeof key, encoded, strlen(encoded), NULL,
                          &key_len, NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
        key_len < 16) {
        sodium_memzero(key, sizeof key);
        return false;
    }
    char stamp[32];
    snprintf(stamp, sizeof stamp, ".%lld.", timestamp);
    crypto_auth_hmacsha256_state state;
    uint8_t mac[crypto_auth_hmacsha256_BYTES];
    if (crypto_auth_hmacsha256_init(&state, key, key_len) != 0 ||
        crypto_auth_hmacsha256_update(&state, (const uint8_t *)msg_id,
                                      strlen(msg_id)) != 0 ||
        crypto_auth_hmacsha256_update(&state, (const uint8_t *)stamp,
                                      strlen(stamp)) != 0 ||
        crypto_auth_hmacsha256_update(&state, (const uint8_t *)body,
                                      body_len) != 0 ||
        crypto_auth_hmacsha256_final(&state, mac) != 0) {
        sodium_memzero(key, sizeof key);
        sodium_memzero(&state, sizeof state);
        return false;
    }
    sodium_memzero(key, sizeof key);
    memcpy(out, "v1,", 3);
    sodium_bin2base64(out + 3, WEBHOOKS_SIGNATURE_MAX - 3, mac, sizeof mac,
                      sodium_base64_VARIANT_ORIGINAL);
    return true;
}

void webhooks_ref(long long webhook_id, char out[32])
{
    snprintf(out, 32, "wh_%lld", webhook_id);
}

long long webhooks_parse_ref(const char *text)
{
    if (strncmp(text, "wh_", 3) != 0 || text[3] < '1' || text[3] > '9')
        return 0;
    char *end = NULL;
    long long id = strtoll(text + 3, &end, 10);
    return *end == '\0' && id > 0 ? id : 0;
}

/* A URL we are willing to POST to: http(s), a host, no credentials, no
 * whitespace or control characters. Addresses are judged at connect time. */
static bool acceptable_url(const char *url, apierr *err)
{
    size_t len = strlen(url);
    const char *rest = NULL;
    if (strncmp(url, "https://", 8) == 0)
        rest = url + 8;
    else if (strncmp(url, "http://", 7) == 0)
        rest = url + 7;
    if (rest == NULL || len > WEBHOOKS_URL_MAX || rest[0] == '\0' ||
        rest[0] == '/')
        return apierr_set(err, 400, "bad_url",
                          "url must be an http:// or https:// URL of at most "
                          "%d characters",
                          WEBHOOKS_URL_MAX);
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= ' ' || *p >= 0x7f)
            return apierr_set(err, 400, "bad_url",
                              "url must not contain spaces, control or "
                              "non-ASCII characters (percent-encode them)");
    size_t host_len = strcspn(rest, "/?#");
    if (memchr(rest, '@', host_len) != NULL)
        return apierr_set(err, 400, "bad_url",
                          "url must not carry credentials (user@host)");
    return true;
}

static json_t *describe(long long webhook_id, long long match_id,
                        const char *url, const char *format,
                        const char *created, const char *disabled_at,
                        const char *disabled_reason)
{
    char ref[32], match_ref[32];
    webhooks_ref(webhook_id, ref);
    json_t *out = json_pack("{s:s,s:s,s:s,s:s,s:s}", "id", ref, "scope",
                            match_id ? "match" : "player", "url", url,
                            "format", format, "created_at", created);
    if (match_id) {
        store_match_ref(match_id, match_ref);
        json_object_set_new(out, "match", json_string(match_ref));
    }
    json_object_set_new(out, "enabled", json_boolean(disabled_at == NULL));
    if (disabled_at != NULL) {
        json_object_set_new(out, "disabled_at", json_string(disabled_at));
        json_object_set_new(out, "disabled_reason",
                            json_string(disabled_reason ? disabled_reason : ""));
    }
    return out;
}


json_t *webhooks_register(long long player_id, long long match_id,
                          const json_t *body, apierr *err)
{
    const char *url = json_string_value(json_object_get(body, "url"));
    if (url == NULL)
        return apierr_set(err, 400, "bad_url",
                          "give the endpoint as {\"url\": \"https://…\"}"),
               NULL;
    if (!acceptable_url(url, err))
        return NULL;
    chat_format format;
    const json_t *format_json = json_object_get(body, "format");
    if ((format_json != NULL && !json_is_string(format_json)) ||
        !chat_format_parse(json_string_value(format_json), &format))
        return apierr_set(err, 400, "bad_format",
                          "format must be \"standard\" (Standard Webhooks), "
                          "\"slack\" or \"discord\" (their incoming "
                          "webhooks' bodies)"),
               NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    if (match_id) {
        bool found, member;
        if (!store_match_membership(conn, match_id, player_id, &found,
                                    &member, err))
            return NULL;
        if (!found)
            return apierr_set(err, 404, "no_such_match", "there is no such match"),
                   NULL;
        if (!member)
            return apierr_set(err, 403, "not_seated",
                              "only the match's creator and seated players "
                              "may register a webhook for it"),
                   NULL;
    }
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    long long webhook_id = (long long)(random_id >> 1);
    if (webhook_id == 0)
        webhook_id = 1;
    char secret[WEBHOOKS_SECRET_MAX];
    webhooks_new_secret(secret);
    size_t secret_len = strlen(secret);
    /* Associated data: the negated webhook id, never a match id. */
    uint8_t sealed[WEBHOOKS_SECRET_MAX + SEAL_OVERHEAD];
    seal_encrypt(-webhook_id, (const uint8_t *)secret, secret_len, sealed);
    char sealed_hex[BYTEA_TEXT_SIZE(sizeof sealed)];
    bytea_write(sealed, secret_len + SEAL_OVERHEAD, sealed_hex);
    char created_at[32];
    if (!store_webhooks_insert(conn, webhook_id, player_id, match_id, url,
                               sealed_hex, chat_format_name(format),
                               created_at, err)) {
        sodium_memzero(secret, sizeof secret);
        return NULL;
    }
    store_reachability_changed();
    json_t *hook = describe(webhook_id, match_id, url,
                            chat_format_name(format), created_at, NULL, NULL);
    json_object_set_new(hook, "secret", json_string(secret));
    sodium_memzero(secret, sizeof secret);
    char ref[32];
    webhooks_ref(webhook_id, ref);
    log_info("webhook %s registered (%s scope)", ref,
             match_id ? "match" : "player");
    return json_pack("{s:o}", "webhook", hook);
}

json_t *webhooks_register_once(const caller *who, long long match_id,
                               const json_t *body, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    json_t *answer = webhooks_register(who->player_id, match_id, body, err);
    if (answer == NULL) {
        store_rollback(conn);
        return NULL;
    }
    const char *id = json_string_value(
        json_object_get(json_object_get(answer, "webhook"), "id"));
    json_t *kept = json_pack(
        "{s:{s:s,s:s+}}", "error", "code", "already_registered", "message",
        "this request registered webhook ", id ? id : "",
        " already; its secret was shown once, in the first answer. Register "
        "again (a new request) for a new webhook and secret.");
    char *text = json_dumps(kept, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(kept);
    store_nonce saved = {.status = 409, .response = text};
    bool ok = store_save_nonce(conn, who->key_id, who->nonce,
                               who->request_digest, &saved, err) &&
              store_commit(conn, err);
    free(text);
    if (!ok) {
        store_rollback(conn);
        json_decref(answer);
        return NULL;
    }
    return answer;
}

/* The description of row i of r (STORE_WEBHOOKS_… columns). */
static json_t *describe_row(const PGresult *r, int i)
{
    return describe(
        atoll(PQgetvalue(r, i, STORE_WEBHOOKS_ID)),
        atoll(PQgetvalue(r, i, STORE_WEBHOOKS_MATCH)),
        PQgetvalue(r, i, STORE_WEBHOOKS_URL),
        PQgetvalue(r, i, STORE_WEBHOOKS_FORMAT),
        PQgetvalue(r, i, STORE_WEBHOOKS_CREATED),
        PQgetisnull(r, i, STORE_WEBHOOKS_DISABLED_AT)
            ? NULL
            : PQgetvalue(r, i, STORE_WEBHOOKS_DISABLED_AT),
        PQgetisnull(r, i, STORE_WEBHOOKS_DISABLED_REASON)
            ? NULL
            : PQgetvalue(r, i, STORE_WEBHOOKS_DISABLED_REASON));
}

json_t *webhooks_list(long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    PGresult *r = store_webhooks_of_player(conn, player_id, err);
    if (r == NULL)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(list, describe_row(r, i));
    PQclear(r);
    return json_pack("{s:o}", "webhooks", list);
}

json_t *webhooks_disable_mine(long long player_id, const char *ref,
                              apierr *err)
{
    long long webhook_id = webhooks_parse_ref(ref);
    if (webhook_id == 0)
        return apierr_set(err, 404, "no_such_webhook",
                          "webhook ids look like wh_1234"),
               NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    PGresult *r = store_webhooks_disable_owned(conn, webhook_id, player_id,
                                               err);
    if (r == NULL)
        return NULL;
    store_reachability_changed();
    if (PQntuples(r) != 1) {
        PQclear(r);
        return apierr_set(err, 404, "no_such_webhook",
                          "you have no webhook %s", ref),
               NULL;
    }
    json_t *hook = describe_row(r, 0);
    PQclear(r);
    return json_pack("{s:o}", "webhook", hook);
}

int webhooks_load(PGconn *conn, long long webhook_id,
                  char url[WEBHOOKS_URL_MAX + 1],
                  char secret[WEBHOOKS_SECRET_MAX], bool *disabled,
                  chat_format *format, apierr *err)
{
    PGresult *r = store_webhooks_load(conn, webhook_id, err);
    if (r == NULL)
        return -1;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return 1;
    }
    snprintf(url, WEBHOOKS_URL_MAX + 1, "%s",
             PQgetvalue(r, 0, STORE_WEBHOOKS_LOAD_URL));
    *disabled =
        strcmp(PQgetvalue(r, 0, STORE_WEBHOOKS_LOAD_DISABLED), "t") == 0;
    if (!chat_format_parse(PQgetvalue(r, 0, STORE_WEBHOOKS_LOAD_FORMAT),
                           format))
        *format = CHAT_STANDARD;
    const char *hex = PQgetvalue(r, 0, STORE_WEBHOOKS_LOAD_SEALED);
    uint8_t sealed[WEBHOOKS_SECRET_MAX + SEAL_OVERHEAD];
    size_t sealed_len = 0;
    bool ok = bytea_read(hex, sealed, sizeof sealed, &sealed_len) &&
              sealed_len > SEAL_OVERHEAD &&
              sealed_len - SEAL_OVERHEAD < WEBHOOKS_SECRET_MAX &&
              seal_decrypt(-webhook_id, sealed, sealed_len, (uint8_t *)secret);
    PQclear(r);
    if (!ok) {
        apierr_set(err, 500, "sealed_secret",
                   "a webhook secret cannot be decrypted with this service key");
        return -1;
    }
    secret[sealed_len - SEAL_OVERHEAD] = '\0';
    return 0;
}

char *webhooks_chat_body(PGconn *conn, long long match_id,
                         chat_format format, const json_t *payload,
                         apierr *err)
{
    int seat;
    char *text;
    if (!store_events_last_move(
            conn, match_id,
            json_integer_value(json_object_get(payload, "seq")), &seat, &text,
            err))
        return NULL;
    char *last = NULL;
    if (text != NULL) {
        const char *name = json_string_value(json_array_get(
            json_object_get(payload, "players"), (size_t)seat));
        if (asprintf(&last, "%s: %s",
                     seat >= 0 && name != NULL && name[0] ? name : "someone",
                     text) < 0)
            abort();
        free(text);
    }
    char url[WEBHOOKS_URL_MAX + 64];
    snprintf(url, sizeof url, "%s/matches/%s", config_text(CONFIG_PUBLIC_URL),
             json_string_value(json_object_get(payload, "match"))
                 ? json_string_value(json_object_get(payload, "match"))
                 : "");
    char *body = chat_body(format, payload, last, url);
    free(last);
    return body;
}

bool webhooks_disable(PGconn *conn, long long webhook_id, const char *reason,
                      apierr *err)
{
    bool ok = store_webhooks_disable(conn, webhook_id, reason, err);
    if (ok)
        store_reachability_changed();
    return ok;
}

/* Loopback, private, shared, link-local, multicast, reserved and
 * unspecified addresses (IPv4, and IPv6 including v4-mapped). */
static bool internal_v4(uint32_t a, bool *loopback)
{
    *loopback = (a >> 24) == 127;
    return (a >> 24) == 0 || (a >> 24) == 10 || (a >> 24) == 127 ||
           (a >> 20) == (172u << 4 | 1) ||           /* 172.16/12 */
           (a >> 16) == (192u << 8 | 168) ||         /* 192.168/16 */
           (a >> 16) == (169u << 8 | 254) ||         /* 169.254/16 */
           (a >> 22) == (100u << 2 | 1) ||           /* 100.64/10 */
           (a >> 8) == (192u << 16 | 0 << 8 | 0) ||  /* 192.0.0/24 */
           (a >> 17) == (198u << 7 | 9) ||           /* 198.18/15 */
           (a >> 28) >= 14;                          /* multicast, 240/4 */
}

static bool internal_address(const struct sockaddr *sa, bool *loopback,
                             char *text, size_t size)
{
    *loopback = false;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, text, (socklen_t)size);
        return internal_v4(ntohl(in->sin_addr.s_addr), loopback);
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        const uint8_t *b = in6->sin6_addr.s6_addr;
        inet_ntop(AF_INET6, &in6->sin6_addr, text, (socklen_t)size);
        /* NAT64 reaches the IPv4 address in the last four bytes of
         * 64:ff9b::/96; 64:ff9b:1::/48 is for local networks only. */
        static const uint8_t nat64[12] = {0, 0x64, 0xff, 0x9b};
        static const uint8_t local_nat64[6] = {0, 0x64, 0xff, 0x9b, 0, 1};
        if (memcmp(b, local_nat64, sizeof local_nat64) == 0)
            return true;
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) ||
            IN6_IS_ADDR_V4COMPAT(&in6->sin6_addr) ||
            memcmp(b, nat64, sizeof nat64) == 0) {
            uint32_t a = (uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 |
                         (uint32_t)b[14] << 8 | b[15];
            return internal_v4(a, loopback);
        }
        /* 6to4 (2002::/16) reaches the IPv4 address after 2002:. */
        if (b[0] == 0x20 && b[1] == 0x02) {
            uint32_t a = (uint32_t)b[2] << 24 | (uint32_t)b[3] << 16 |
                         (uint32_t)b[4] << 8 | b[5];
            if (internal_v4(a, loopback))
                return true;
        }
        *loopback = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
        return *loopback || IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr) ||
               (b[0] & 0xfe) == 0xfc ||                  /* fc00::/7 */
               (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) || /* fe80::/10 */
               b[0] == 0xff;                             /* multicast */
    }
    snprintf(text, size, "(family %d)", sa->sa_family);
    return true;
}

static curl_socket_t open_socket(void *data, curlsocktype purpose,
                                 struct curl_sockaddr *address)
{
    webhooks_guard *guard = data;
    if (purpose != CURLSOCKTYPE_IPCXN)
        return CURL_SOCKET_BAD;
    bool loopback = false;
    char text[64] = "";
    if (internal_address(&address->addr, &loopback, text, sizeof text) &&
        !(loopback && guard->allow_loopback)) {
        guard->blocked = true;
        snprintf(guard->address, sizeof guard->address, "%s", text);
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

bool webhooks_prepare(CURL *easy, const char *url, int timeout_seconds,
                      webhooks_guard *guard)
{
    guard->blocked = false;
    guard->address[0] = '\0';
    return curl_easy_setopt(easy, CURLOPT_URL, url) == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L) == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_TIMEOUT, (long)timeout_seconds) == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT, 10L) == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, open_socket) == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, guard) == CURLE_OK &&
           curl_easy_setopt(easy, CURLOPT_USERAGENT, "pbemd-webhooks/1") == CURLE_OK;
}
