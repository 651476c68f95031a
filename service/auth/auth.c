/* auth.c */
#include "auth/auth.h"

#include <pthread.h>
#include <sodium.h>
#include <string.h>
#include <time.h>

#include "core/ways.h"
#include "store/db.h"
#include "store/player_keys.h"

/* Binds a nonce to one exact request, so a retry is recognised and a reuse
 * for something else is not. */
static void request_digest(const httpsig_request *req, uint8_t out[32])
{
    crypto_generichash_state state;
    crypto_generichash_init(&state, NULL, 0, 32);
    crypto_generichash_update(&state, (const uint8_t *)req->method,
                              strlen(req->method) + 1);
    crypto_generichash_update(&state, (const uint8_t *)req->target,
                              strlen(req->target) + 1);
    if (req->body != NULL)
        crypto_generichash_update(&state, req->body, req->body_len);
    crypto_generichash_final(&state, out, 32);
}

/* Registered keys never change; a revocation is seen at once by the
 * process that made it (auth_forget_key) and within KEY_CACHE_SECONDS by
 * the others. A small set-associative cache (core/ways.h) saves a
 * database round trip on nearly every request. */
#define KEY_CACHE_SETS 128 /* × WAYS_PER_SET keys */
#define KEY_CACHE_SECONDS AUTH_KEY_CACHE_SECONDS

typedef struct cached_key {
    char key_id[HTTPSIG_PARAM_MAX + 1];
    uint8_t public_key[32];
    long long player_id;
    time_t fetched;
} cached_key;

static ways_tag key_tags[KEY_CACHE_SETS][WAYS_PER_SET];
static cached_key key_cache[KEY_CACHE_SETS][WAYS_PER_SET];
static unsigned long long key_clock;
static pthread_mutex_t key_cache_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long key_hash(const char *key_id)
{
    uint8_t hash[8];
    crypto_generichash(hash, sizeof hash, (const uint8_t *)key_id,
                       strlen(key_id), NULL, 0);
    unsigned long long value;
    memcpy(&value, hash, sizeof value);
    return value;
}

/* The cached entry of key_id (lock held), or NULL; its tag in *tag unless
 * tag is NULL. */
static cached_key *key_found(const char *key_id, ways_tag **tag)
{
    unsigned long long hash = key_hash(key_id);
    unsigned set = (unsigned)(hash % KEY_CACHE_SETS);
    int way = ways_find(key_tags[set], hash, &key_clock);
    if (way < 0 || strcmp(key_cache[set][way].key_id, key_id) != 0)
        return NULL;
    if (tag != NULL)
        *tag = &key_tags[set][way];
    return &key_cache[set][way];
}

/* Where key_id is to be kept (lock held). */
static cached_key *key_place(const char *key_id)
{
    unsigned long long hash = key_hash(key_id);
    unsigned set = (unsigned)(hash % KEY_CACHE_SETS);
    return &key_cache[set][ways_place(key_tags[set], hash, &key_clock)];
}

/* The key key_id names; revoked is "" unless it was revoked (then when:
 * store_find_key), and only keys in use are kept in the cache. */
static bool find_key(const char *key_id, uint8_t public_key[32],
                     long long *player_id, char revoked[STORE_KEY_REVOKED_SIZE],
                     apierr *err)
{
    revoked[0] = '\0';
    time_t now = time(NULL);
    bool hit = false;
    pthread_mutex_lock(&key_cache_lock);
    cached_key *slot = key_found(key_id, NULL);
    if (slot != NULL && now - slot->fetched < KEY_CACHE_SECONDS) {
        memcpy(public_key, slot->public_key, 32);
        *player_id = slot->player_id;
        hit = true;
    }
    pthread_mutex_unlock(&key_cache_lock);
    if (hit)
        return true;
    PGconn *conn = db_conn(err);
    if (conn == NULL ||
        !store_find_key(conn, key_id, public_key, player_id, revoked, err))
        return false;
    if (revoked[0] != '\0')
        return true;
    pthread_mutex_lock(&key_cache_lock);
    slot = key_place(key_id);
    snprintf(slot->key_id, sizeof slot->key_id, "%s", key_id);
    memcpy(slot->public_key, public_key, 32);
    slot->player_id = *player_id;
    slot->fetched = now;
    pthread_mutex_unlock(&key_cache_lock);
    return true;
}

void auth_forget_key(const char *key_id)
{
    ways_tag *tag;
    pthread_mutex_lock(&key_cache_lock);
    cached_key *slot = key_found(key_id, &tag);
    if (slot != NULL) {
        memset(slot, 0, sizeof *slot);
        memset(tag, 0, sizeof *tag);
    }
    pthread_mutex_unlock(&key_cache_lock);
}

/* The signature of req, parsed and within policy; false with err filled
 * (401) otherwise. */
static bool signature_of(const httpsig_request *req, int64_t now,
                         httpsig_signature *sig, apierr *err)
{
    const char *input = req->header(req->header_ctx, "signature-input");
    const char *signature = req->header(req->header_ctx, "signature");
    /* Name exactly what httpsig_check_policy will ask this request to
     * cover: a GET has no body, so no content-digest. */
    if (input == NULL || signature == NULL)
        return apierr_set(err, 401, "unsigned",
                          "this request must be signed: send Signature-Input "
                          "and Signature headers (RFC 9421, ed25519) covering "
                          "@method, @path%s%s",
                          strchr(req->target ? req->target : "", '?') != NULL
                              ? ", @query"
                              : "",
                          req->body_len > 0
                              ? " and content-digest (a Content-Digest "
                                "header, RFC 9530, of the body)"
                              : "");
    httpsig_error herr = {{0}};
    if (!httpsig_parse(input, signature, NULL, sig, &herr) ||
        !httpsig_check_policy(sig, req, now, AUTH_WINDOW_SECONDS, &herr))
        return apierr_set(err, 401, "bad_signature", "%s", herr.message);
    return true;
}

bool auth_player(const httpsig_request *req, int64_t now, caller *who,
                 apierr *err)
{
    memset(who, 0, sizeof *who);
    httpsig_signature sig;
    if (!signature_of(req, now, &sig, err))
        return false;
    uint8_t public_key[32];
    char revoked[STORE_KEY_REVOKED_SIZE];
    if (!find_key(sig.keyid, public_key, &who->player_id, revoked, err))
        return false;
    httpsig_error herr = {{0}};
    if (!httpsig_verify(&sig, req, public_key, &herr))
        return apierr_set(err, 401, "bad_signature", "%s", herr.message);
    /* Told only to whoever holds the key: the signature was good. */
    if (revoked[0] != '\0') {
        who->player_id = 0;
        return apierr_set(err, 401, "key_revoked",
                          "this key was revoked on %s; sign in again: ask "
                          "for a sign-in link by mail, or add a new key "
                          "from a device that has one",
                          revoked);
    }
    auth_fill_caller(req, &sig, who);
    return true;
}

bool auth_new_key(const httpsig_request *req, int64_t now,
                  const uint8_t public_key[32], caller *who, apierr *err)
{
    memset(who, 0, sizeof *who);
    httpsig_signature sig;
    if (!signature_of(req, now, &sig, err))
        return false;
    char key_id[40];
    store_key_id(public_key, key_id);
    if (strcmp(sig.keyid, key_id) != 0)
        return apierr_set(err, 401, "bad_signature",
                          "sign the registration with the key it registers, "
                          "as keyid=\"%s\" (k_ and the hex of the key's "
                          "8-byte BLAKE2b digest)",
                          key_id);
    httpsig_error herr = {{0}};
    if (!httpsig_verify(&sig, req, public_key, &herr))
        return apierr_set(err, 401, "bad_signature",
                          "the registration is not signed by the key it "
                          "registers: %s",
                          herr.message);
    auth_fill_caller(req, &sig, who);
    return true;
}

bool auth_enrolment(const httpsig_request *req, int64_t now,
                    const uint8_t public_key[32], caller *who,
                    bool *by_new_key, apierr *err)
{
    memset(who, 0, sizeof *who);
    httpsig_signature sig;
    if (!signature_of(req, now, &sig, err))
        return false;
    char key_id[40];
    store_key_id(public_key, key_id);
    *by_new_key = strcmp(sig.keyid, key_id) == 0;
    if (*by_new_key)
        return auth_new_key(req, now, public_key, who, err);
    return auth_player(req, now, who, err);
}

void auth_fill_caller(const httpsig_request *req, const httpsig_signature *sig,
                      caller *who)
{
    const char *input = req->header(req->header_ctx, "signature-input");
    const char *signature = req->header(req->header_ctx, "signature");
    snprintf(who->key_id, sizeof who->key_id, "%s", sig->keyid);
    snprintf(who->nonce, sizeof who->nonce, "%s", sig->nonce);
    request_digest(req, who->request_digest);
    const char *digest = req->header(req->header_ctx, "content-digest");
    who->signature = json_pack(
        "{s:s,s:s,s:s,s:s,s:s?,s:s%}", "keyid", sig->keyid, "signature_input",
        input, "signature", signature, "method", req->method, "content_digest",
        digest, "body", req->body ? (const char *)req->body : "",
        req->body ? req->body_len : 0);
    json_object_set_new(who->signature, "target", json_string(req->target));
}

void auth_caller_free(caller *who)
{
    json_decref(who->signature);
    who->signature = NULL;
}

bool auth_signature(const httpsig_request *req, int64_t now,
                    httpsig_signature *sig, apierr *err)
{
    return signature_of(req, now, sig, err);
}
