/* delegates.c */
#include "play/delegates.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth/delegate.h"
#include "core/clock.h"
#include "play/players.h"
#include "play/retry.h"
#include "store/db.h"
#include "store/delegate_grants.h"
#include "store/player_keys.h"
#include "store/players.h"
#include "store/store.h"

static json_t *time_json(long long seconds)
{
    char text[32];
    clock_format(seconds, text);
    return json_string(text);
}

static json_t *grant_json(const store_grant *grant)
{
    char ref[32], key[64];
    store_grant_ref(grant->delegate_id, ref);
    sodium_bin2base64(key, sizeof key, grant->public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    json_t *scope = json_array();
    if (grant->scope & STORE_GRANT_VIEW)
        json_array_append_new(scope, json_string("view"));
    if (grant->scope & STORE_GRANT_MOVE)
        json_array_append_new(scope, json_string("move"));
    if (grant->scope & STORE_GRANT_JOIN)
        json_array_append_new(scope, json_string("join"));
    json_t *matches;
    if (grant->all_matches) {
        matches = json_string("all");
    } else {
        matches = json_array();
        for (int i = 0; i < grant->match_count; i++) {
            char match[32];
            store_match_ref(grant->match_ids[i], match);
            json_array_append_new(matches, json_string(match));
        }
    }
    return json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "delegate_id",
                     ref, "key_id", grant->key_id, "public_key", key, "name",
                     grant->name, "scope", scope, "matches", matches,
                     "expires", time_json(grant->expires), "created",
                     time_json(grant->created), "revoked",
                     grant->revoked ? time_json(grant->revoked)
                                    : json_null());
}

static bool read_scope(const json_t *value, unsigned *scope, apierr *err)
{
    *scope = 0;
    size_t i;
    const json_t *word;
    if (!json_is_array(value) || json_array_size(value) == 0)
        goto bad;
    json_array_foreach(value, i, word) {
        const char *w = json_string_value(word);
        unsigned bit = w == NULL                ? 0
                       : strcmp(w, "view") == 0 ? STORE_GRANT_VIEW
                       : strcmp(w, "move") == 0 ? STORE_GRANT_MOVE
                       : strcmp(w, "join") == 0 ? STORE_GRANT_JOIN
                                                : 0;
        if (bit == 0 || (*scope & bit))
            goto bad;
        *scope |= bit;
    }
    return true;
bad:
    return apierr_set(err, 400, "bad_delegate",
                      "scope must be a non-empty list of distinct words "
                      "among \"view\", \"move\" and \"join\"");
}

static bool read_matches(const json_t *value, store_grant *grant, apierr *err)
{
    const char *all = json_string_value(value);
    if (all != NULL && strcmp(all, "all") == 0) {
        grant->all_matches = true;
        return true;
    }
    size_t i;
    const json_t *ref;
    if (!json_is_array(value) || json_array_size(value) == 0 ||
        json_array_size(value) > STORE_GRANT_MATCHES_MAX)
        goto bad;
    json_array_foreach(value, i, ref) {
        long long id = store_parse_match_ref(json_string_value(ref));
        if (id == 0)
            goto bad;
        grant->match_ids[grant->match_count++] = id;
    }
    return true;
bad:
    return apierr_set(err, 400, "bad_delegate",
                      "matches must be \"all\" or a list of 1 to %d match "
                      "ids such as m_12",
                      STORE_GRANT_MATCHES_MAX);
}

/* The grant body asks for, checked against now; false with err filled. */
static bool read_grant(const json_t *body, long long now, store_grant *grant,
                       apierr *err)
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)body, key, value) {
        if (strcmp(key, "public_key") != 0 && strcmp(key, "name") != 0 &&
            strcmp(key, "scope") != 0 && strcmp(key, "matches") != 0 &&
            strcmp(key, "expires") != 0)
            return apierr_set(err, 400, "bad_delegate",
                              "a grant has only public_key, name, scope, "
                              "matches and expires; \"%.40s\" is not one of "
                              "them",
                              key);
    }
    if (!players_registration_key(body, grant->public_key, err))
        return false;
    if (!players_name_ok(json_object_get(body, "name")))
        return apierr_set(err, 400, "bad_delegate",
                          "name must be a string of 1 to 80 bytes, without "
                          "control characters or bidirectional overrides: "
                          "the bot's name as the player will see it");
    snprintf(grant->name, sizeof grant->name, "%s",
             json_string_value(json_object_get(body, "name")));
    if (!read_scope(json_object_get(body, "scope"), &grant->scope, err) ||
        !read_matches(json_object_get(body, "matches"), grant, err))
        return false;
    if (!clock_parse(json_string_value(json_object_get(body, "expires")),
                     false, &grant->expires))
        return apierr_set(err, 400, "bad_delegate",
                          "expires must be an RFC 3339 time, such as "
                          "2027-01-31T00:00:00Z");
    if (grant->expires <= now)
        return apierr_set(err, 422, "bad_delegate",
                          "expires is in the past; a grant must end in the "
                          "future");
    if (grant->expires - now > DELEGATES_MAX_DAYS * 86400LL)
        return apierr_set(err, 422, "bad_delegate",
                          "a grant must end within %d days; grant the key "
                          "again when it ends",
                          DELEGATES_MAX_DAYS);
    store_key_id(grant->public_key, grant->key_id);
    return true;
}

json_t *delegates_grant(const caller *who, const json_t *body, apierr *err)
{
    long long now = clock_now();
    store_grant *grant = calloc(1, sizeof *grant);
    if (grant == NULL)
        abort();
    json_t *answer = NULL;
    char *request = NULL;
    if (!read_grant(body, now, grant, err))
        goto done;
    if (strcmp(grant->key_id, who->key_id) == 0) {
        apierr_set(err, 422, "bad_delegate",
                   "that is your own key, which needs no grant: give the "
                   "bot a key of its own");
        goto done;
    }
    grant->player_id = who->player_id;
    grant->created = now;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        goto done;
    /* Serialises the player's grants, so the cap holds under races. */
    if (!store_player_lock(conn, who->player_id, err))
        goto fail;
    int in_force = store_grants_in_force(conn, who->player_id, now, err);
    if (in_force < 0)
        goto fail;
    if (in_force >= DELEGATES_MAX) {
        apierr_set(err, 422, "too_many_delegates",
                   "you have %d grants in force, the most there may be; "
                   "revoke one first",
                   in_force);
        goto fail;
    }
    /* The request as the events keep theirs: the signature, its input,
     * method, target, digest and body. */
    request = json_dumps(who->signature, JSON_COMPACT | JSON_SORT_KEYS);
    if (request == NULL || !store_grant_insert(conn, grant, request, err))
        goto fail;
    answer = grant_json(grant);
    if (!retry_commit(conn, who, NULL, 201, answer, err)) {
        json_decref(answer);
        answer = NULL;
    }
    goto done;
fail:
    store_rollback(conn);
done:
    free(request);
    free(grant);
    return answer;
}

json_t *delegates_list(long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    enum { LIST_MAX = 200 };
    store_grant *grants = calloc(LIST_MAX, sizeof *grants);
    if (grants == NULL)
        abort();
    int count = store_grants_of_player(conn, player_id, grants, LIST_MAX, err);
    json_t *list = NULL;
    if (count >= 0) {
        list = json_array();
        for (int i = 0; i < count; i++)
            json_array_append_new(list, grant_json(&grants[i]));
    }
    free(grants);
    return list ? json_pack("{s:o}", "delegates", list) : NULL;
}

bool delegates_revoke(long long player_id, const char *ref, apierr *err)
{
    long long id = store_parse_grant_ref(ref);
    if (id == 0)
        return apierr_set(err, 404, "no_such_delegate",
                          "delegate ids look like d_12");
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    /* Kept in whole seconds, rounded up: every event made before the
     * revocation is dated before it, so an export's check of "in force
     * at that event" never refuses one of them. */
    long long now = (clock_now_us() + 999999) / 1000000;
    int done = store_grant_revoke(conn, player_id, id, now, err);
    if (done < 0)
        return false;
    if (done == 0)
        return apierr_set(err, 404, "no_such_delegate",
                          "you have no delegate %s", ref);
    return true;
}

void delegates_note(const caller *who, json_t *event)
{
    json_t *delegate = auth_delegate_json(who);
    if (delegate != NULL)
        json_object_set_new(json_object_get(event, "data"), "delegate",
                            delegate);
}
