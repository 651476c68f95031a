/* seeks.c: see seeks.h. */
#include "play/seeks.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/hex.h"
#include "core/log.h"
#include "notify/notify_outbox.h"
#include "play/matches.h"
#include "rules.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/ratings.h"
#include "store/seeks.h"
#include "store/store.h"

#define SEEKS_LISTED 50

/* A whole number member of body from min to max, fallback when absent;
 * -1 after filling err. */
static int whole(const json_t *body, const char *name, int fallback, int min,
                 int max, const char *meaning, apierr *err)
{
    const json_t *value = json_object_get(body, name);
    if (value == NULL)
        return fallback;
    if (!json_is_integer(value) || json_integer_value(value) < min ||
        json_integer_value(value) > max) {
        apierr_set(err, 400, "bad_seek", "\"%s\" is %s, %d to %d", name,
                   meaning, min, max);
        return -1;
    }
    return (int)json_integer_value(value);
}

static bool read_seek(const json_t *body, long long player_id, store_seek *seek,
                      apierr *err)
{
    memset(seek, 0, sizeof *seek);
    const char *game = json_string_value(json_object_get(body, "game"));
    const rules_engine *engine = game ? rules_find(game) : NULL;
    if (engine == NULL)
        return apierr_set(err, 400, "bad_seek",
                          "\"game\" must name one of the games GET /v1/games "
                          "lists");
    snprintf(seek->game, sizeof seek->game, "%s", engine->name);
    seek->player_id = player_id;
    seek->seats = whole(body, "seats", -2, engine->min_seats,
                        engine->max_seats < STORE_MAX_SEATS ? engine->max_seats
                                                            : STORE_MAX_SEATS,
                        "the number of players", err);
    if (seek->seats == -2)
        return apierr_set(err, 400, "bad_seek",
                          "\"seats\" is the number of players, %d to %d for "
                          "%s",
                          engine->min_seats, engine->max_seats, engine->title);
    seek->turn_hours = whole(body, "turn_hours", 24, 1, 8760,
                             "the hours each turn may take", err);
    int expires = whole(body, "expires_hours", 72, 1, 720,
                        "how many hours the seek waits for partners", err);
    if (seek->seats < 0 || seek->turn_hours < 0 || expires < 0)
        return false;
    seek->expires_at = clock_now() + expires * 3600LL;
    return true;
}

/* The request a seeker makes when the service seats them. No client
 * waits on it to retry, so its nonce is fresh: a pairing tried again
 * after a failure is a new request, not the stored answer of the first
 * (play/retry.h), which would only refuse it. */
static void seeker(const store_seek *seek, caller *who)
{
    memset(who, 0, sizeof *who);
    who->player_id = seek->player_id;
    snprintf(who->key_id, sizeof who->key_id, "seek");
    uint8_t nonce[16];
    randombytes_buf(nonce, sizeof nonce);
    hex_encode(nonce, sizeof nonce, who->nonce);
    crypto_generichash(who->request_digest, sizeof who->request_digest,
                       nonce, sizeof nonce, NULL, 0);
}

/* Makes the match of seekers[0..seats) (the oldest first, who creates
 * it) and seats them all; its id, or 0 when a step failed (logged: the
 * seeks wait on). */
static long long form_match(const store_seek *seekers, int seats)
{
    json_t *body = json_pack(
        "{s:s,s:i,s:b,s:b,s:{s:i}}", "game", seekers[0].game, "seats", seats,
        "open", 0, "rated", 1, "deadline", "turn_hours", seekers[0].turn_hours);
    caller who;
    seeker(&seekers[0], &who);
    apierr err;
    json_t *created = matches_create(&who, body, &err);
    json_decref(body);
    if (created == NULL) {
        log_warn("quick match of %s: the match could not be made: %s",
                 seekers[0].game, err.message);
        return 0;
    }
    long long match_id = store_parse_match_ref(json_string_value(
        json_object_get(json_object_get(created, "match"), "id")));
    json_decref(created);
    for (int i = 1; i < seats; i++) {
        seeker(&seekers[i], &who);
        json_t *empty = json_object();
        json_t *joined = matches_join(&who, match_id, empty, &err);
        json_decref(empty);
        if (joined == NULL) {
            log_warn("quick match m_%lld: seek s_%lld could not be seated: "
                     "%s",
                     match_id, seekers[i].seek_id, err.message);
            return 0;
        }
        json_decref(joined);
    }
    return match_id;
}

/* Tells every seeker of match_id that it formed (notify_outbox.h), the
 * one whose seek completed the table too: their mail, webhooks and stream
 * carry it even when their answer does. A failure is logged, not
 * returned: the match is made and each sees it in GET /v1/seeks. */
static void tell_found(PGconn *conn, long long match_id)
{
    store_match match;
    apierr err;
    if (!store_load_match(conn, match_id, &match, &err) ||
        !notify_outbox_queue_found(conn, &match, rules_find(match.game), &err))
        log_warn("quick match m_%lld: the seekers could not be told: %s",
                 match_id, err.message);
}

json_t *seeks_create(const caller *who, const json_t *body, apierr *err)
{
    store_seek seek;
    if (!read_seek(body, who->player_id, &seek, err))
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_rating mine = {.player_id = who->player_id};
    if (!store_ratings_lock(conn, seek.game, &mine, 1, err))
        return NULL;
    seek.rating = mine.rating.rating;
    if (!store_seeks_lock(conn, &seek, err))
        return NULL;
    long long now = clock_now();
    store_seek table[STORE_MAX_SEATS];
    long long match_id = 0;
    int found = -1;
    bool ok = store_seeks_insert(conn, &seek, now, err);
    if (ok)
        found = store_seeks_partners(conn, &seek, now, SEEKS_WINDOW_BASE,
                                     SEEKS_WINDOW_PER_HOUR, SEEKS_WINDOW_WIDEST,
                                     table, seek.seats - 1, err);
    ok = ok && found >= 0;
    if (ok && found == seek.seats - 1) {
        table[found] = seek;
        match_id = form_match(table, seek.seats);
        long long ids[STORE_MAX_SEATS];
        for (int i = 0; i < seek.seats; i++)
            ids[i] = table[i].seek_id;
        if (match_id != 0) {
            ok = store_seeks_matched(conn, ids, seek.seats, match_id, err);
            if (ok)
                tell_found(conn, match_id);
            log_info("quick match m_%lld formed from %d seeks of %s", match_id,
                     seek.seats, seek.game);
        }
    }
    apierr ignored;
    store_seeks_unlock(conn, &seek, &ignored);
    if (!ok)
        return NULL;
    json_t *listed =
        store_seeks_of_player(conn, who->player_id, now, SEEKS_LISTED, err);
    if (listed == NULL)
        return NULL;
    char id[32], match[32];
    snprintf(id, sizeof id, "s_%lld", seek.seek_id);
    json_t *row = NULL;
    size_t i;
    json_t *each;
    json_array_foreach(
        listed, i,
        each) if (strcmp(json_string_value(json_object_get(each, "id")), id) ==
                  0) row = each;
    store_match_ref(match_id, match);
    json_t *answer =
        json_pack("{s:O,s:o}", "seek", row ? row : json_null(), "match",
                  match_id ? json_string(match) : json_null());
    json_decref(listed);
    return answer;
}

json_t *seeks_withdraw(const caller *who, const char *seek_ref, apierr *err)
{
    char *end = NULL;
    long long seek_id = 0;
    if (seek_ref != NULL && strncmp(seek_ref, "s_", 2) == 0 &&
        seek_ref[2] >= '1' && seek_ref[2] <= '9')
        seek_id = strtoll(seek_ref + 2, &end, 10);
    if (seek_id <= 0 || end == NULL || *end != '\0') {
        apierr_set(err, 404, "no_such_seek", "seek ids look like s_1234");
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL ||
        !store_seeks_withdraw(conn, who->player_id, seek_id, err))
        return NULL;
    return json_pack("{s:s,s:s}", "seek", seek_ref, "status", "withdrawn");
}

json_t *seeks_mine(const caller *who, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    json_t *rows = store_seeks_of_player(conn, who->player_id, clock_now(),
                                         SEEKS_LISTED, err);
    return rows ? json_pack("{s:o}", "seeks", rows) : NULL;
}

json_t *seeks_waiting(const char *game, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    json_t *rows =
        store_seeks_waiting(conn, game, clock_now(), SEEKS_LISTED, err);
    return rows ? json_pack("{s:o}", "seeks", rows) : NULL;
}
