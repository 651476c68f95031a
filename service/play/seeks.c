/* seeks.c: see seeks.h. */
#include "play/seeks.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/hex.h"
#include "core/log.h"
#include "core/names.h"
#include "notify/notify_outbox.h"
#include "play/matches.h"
#include "rules.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/players.h"
#include "store/ratings.h"
#include "store/seeks.h"
#include "store/store.h"

#define SEEKS_LISTED 50

/* Partners read at most for one table: more than it needs, so that a
 * seeker who cannot sit with the others is passed over for the next. */
#define SEEKS_CANDIDATES 32

/* A round of pairing the seeks that wait (seeks_pair_waiting): at most
 * this many kinds of seek, and this many seeks of each tried as the
 * newcomer, so a crowd of seeks out of one another's reach costs a
 * bounded round. */
#define SEEKS_ROUND_KINDS 32
#define SEEKS_ROUND_SEEKS 64

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
    crypto_generichash(who->request_digest, sizeof who->request_digest, nonce,
                       sizeof nonce, NULL, 0);
}

/* Makes the match of seekers[0..seats) (the oldest first, who creates
 * it) and seats them all; its id, or 0 when a step failed (logged: the
 * seeks wait on). pick_table has checked every seeker can be seated, so
 * only a failure of the database or of the process stops it half-way. */
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

/* player_id's name into name; false with err filled. */
static bool name_of(PGconn *conn, long long player_id,
                    char name[NAMES_MAX_BYTES], apierr *err)
{
    store_player player;
    if (!store_player_load(conn, player_id, false, &player, err))
        return false;
    snprintf(name, NAMES_MAX_BYTES, "%s", player.name);
    return true;
}

/* The table of seek: the oldest of candidates[0..count) who can sit with
 * seek and with one another, as many as seek's seats need, then seek,
 * into table. Everyone is checked before the match is made, as the join
 * would check them (players_name_fits_match): no player twice, no two
 * names that could be taken for one another. A candidate who cannot sit
 * is passed over and their seek waits on. 1 when the table is full, 0
 * when it is not, -1 with err filled. */
static int pick_table(PGconn *conn, const store_seek *seek,
                      const store_seek *candidates, int count,
                      store_seek *table, apierr *err)
{
    char names[STORE_MAX_SEATS][NAMES_MAX_BYTES];
    int need = seek->seats - 1, taken = 0;
    if (!name_of(conn, seek->player_id, names[need], err))
        return -1;
    for (int i = 0; i < count && taken < need; i++) {
        char name[NAMES_MAX_BYTES];
        if (!name_of(conn, candidates[i].player_id, name, err))
            return -1;
        bool fits = candidates[i].player_id != seek->player_id &&
                    !names_confusable(name, names[need]);
        for (int t = 0; fits && t < taken; t++)
            fits = candidates[i].player_id != table[t].player_id &&
                   !names_confusable(name, names[t]);
        if (!fits) {
            log_info("quick match of %s: seek s_%lld passed over for s_%lld: "
                     "its player's name could be taken for another's at the "
                     "table",
                     seek->game, candidates[i].seek_id, seek->seek_id);
            continue;
        }
        table[taken] = candidates[i];
        snprintf(names[taken], NAMES_MAX_BYTES, "%s", name);
        taken++;
    }
    if (taken < need)
        return 0;
    table[need] = *seek;
    return 1;
}

/* Pairs seek, waiting, with the seeks of its kind within reach (the
 * caller holds the kind's lock): the match made, its seeks in
 * table[0..seats), 0 when there is none yet (seek waits), -1 with err
 * filled. */
static long long pair(PGconn *conn, const store_seek *seek, long long now,
                      store_seek table[STORE_MAX_SEATS], apierr *err)
{
    store_seek candidates[SEEKS_CANDIDATES];
    int found = store_seeks_partners(conn, seek, now, SEEKS_WINDOW_BASE,
                                     SEEKS_WINDOW_PER_HOUR, SEEKS_WINDOW_WIDEST,
                                     candidates, SEEKS_CANDIDATES, err);
    if (found < 0)
        return -1;
    int full = found < seek->seats - 1
                   ? 0
                   : pick_table(conn, seek, candidates, found, table, err);
    if (full <= 0)
        return full;
    long long match_id = form_match(table, seek->seats);
    if (match_id == 0)
        return 0;
    long long ids[STORE_MAX_SEATS];
    for (int i = 0; i < seek->seats; i++)
        ids[i] = table[i].seek_id;
    if (!store_seeks_matched(conn, ids, seek->seats, match_id, err))
        return -1;
    tell_found(conn, match_id);
    log_info("quick match m_%lld formed from %d seeks of %s", match_id,
             seek->seats, seek->game);
    return match_id;
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
    long long match_id = -1;
    store_seek table[STORE_MAX_SEATS];
    if (store_seeks_insert(conn, &seek, now, err))
        match_id = pair(conn, &seek, now, table, err);
    bool ok = match_id >= 0;
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

/* One round over the seeks of kind waiting at now: each, the newest
 * first, is paired as if it had just come, so the window its partners'
 * waits have opened since is used. */
static void pair_kind(PGconn *conn, const store_seek *kind, long long now)
{
    apierr err;
    if (!store_seeks_lock(conn, kind, &err)) {
        log_warn("quick match of %s: no lock to pair: %s", kind->game,
                 err.message);
        return;
    }
    store_seek waiting[SEEKS_ROUND_SEEKS], table[STORE_MAX_SEATS];
    bool seated[SEEKS_ROUND_SEEKS] = {false};
    int count =
        store_seeks_of_kind(conn, kind, now, waiting, SEEKS_ROUND_SEEKS, &err);
    for (int i = 0; i < count; i++) {
        if (seated[i])
            continue;
        long long match_id = pair(conn, &waiting[i], now, table, &err);
        if (match_id < 0) {
            count = -1;
            break;
        }
        /* The seeks now seated are newcomers no more. */
        for (int t = 0; match_id > 0 && t < kind->seats; t++)
            for (int j = i; j < count; j++)
                seated[j] = seated[j] || waiting[j].seek_id == table[t].seek_id;
    }
    if (count < 0)
        log_warn("quick match of %s: the waiting seeks could not be paired: "
                 "%s",
                 kind->game, err.message);
    store_seeks_unlock(conn, kind, &err);
}

void seeks_pair_waiting(void)
{
    /* Match time of the next round: one period after the first call, so
     * a process starting does not begin with it. */
    static long long next_round;
    long long now = clock_now();
    if (next_round == 0)
        next_round = now + SEEKS_PAIR_EVERY_SECONDS;
    if (now < next_round)
        return;
    next_round = now + SEEKS_PAIR_EVERY_SECONDS;
    apierr err;
    PGconn *conn = db_conn(&err);
    store_seek kinds[SEEKS_ROUND_KINDS];
    int count = conn == NULL ? -1
                             : store_seeks_ready_kinds(conn, now, kinds,
                                                       SEEKS_ROUND_KINDS, &err);
    if (count < 0)
        log_warn("quick match: the waiting seeks could not be read: %s",
                 err.message);
    for (int k = 0; k < count; k++)
        pair_kind(conn, &kinds[k], now);
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
