/* players.c: the players' rows (players.h). */
#include "store/bytea.h"
#include "store/players.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/store.h"
#include "store/player_keys.h"

bool store_player_load(PGconn *conn, long long player_id, bool lock,
                       store_player *out, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           lock ? "SELECT name, coalesce(email, '')"
                                  " FROM players WHERE player_id = $1"
                                  " FOR UPDATE"
                                : "SELECT name, coalesce(email, '')"
                                  " FROM players WHERE player_id = $1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    bool found = PQntuples(r) == 1;
    if (found) {
        out->player_id = player_id;
        snprintf(out->name, sizeof out->name, "%s", PQgetvalue(r, 0, 0));
        snprintf(out->email, sizeof out->email, "%s", PQgetvalue(r, 0, 1));
    }
    PQclear(r);
    if (!found)
        return apierr_set(err, 404, "no_such_player",
                          "this player no longer exists");
    return true;
}

bool store_create_player(PGconn *conn, const char *name, const char *email,
                         const uint8_t public_key[32], long long *player_id,
                         char key_id[40], apierr *err)
{
    if (public_key != NULL)
        store_key_id(public_key, key_id);
    else
        key_id[0] = '\0';
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    *player_id = (long long)(random_id >> 1);
    if (*player_id == 0)
        *player_id = 1;
    char key_text[2 * 32 + 3] = "";
    if (public_key != NULL)
        bytea_write(public_key, 32, key_text);
    db_params player = {0};
    db_params_int(&player, *player_id);
    db_params_text(&player, name);
    db_params_text(&player, email);
    db_params key = {0};
    db_params_text(&key, key_id);
    db_params_int(&key, *player_id);
    db_params_text(&key, key_text);
    bool ok = db_command(conn,
                         "INSERT INTO players (player_id, name, email)"
                         " VALUES ($1, $2, $3)",
                         player.count, player.values, err) &&
              (public_key == NULL ||
               db_command(conn,
                          "INSERT INTO player_keys (key_id, player_id,"
                          " public_key) VALUES ($1, $2, $3)",
                          key.count, key.values, err));
    if (!ok && strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "key_registered",
                          "this public key is already registered");
    return ok;
}

bool store_lock_players(PGconn *conn, const long long *ids, int count,
                        apierr *err)
{
    char *list = db_params_int_array(ids, count);
    db_params p = {0};
    db_params_text(&p, list);
    /* In id order, so two imports never wait on each other in a circle. */
    bool ok = db_command(conn,
                         "SELECT count(pg_advisory_xact_lock(hashtextextended("
                         "'pbem-player:' || id, 0)))"
                         " FROM (SELECT DISTINCT id FROM unnest($1::bigint[])"
                         "       id ORDER BY id) ids",
                         p.count, p.values, err);
    free(list);
    return ok;
}

bool store_import_player(PGconn *conn, long long player_id, const char *name,
                         const char *email, const uint8_t public_key[32],
                         const char *key_id, apierr *err)
{
    char key_text[2 * 32 + 3] = "";
    if (public_key != NULL)
        bytea_write(public_key, 32, key_text);
    db_params find = {0};
    db_params_int(&find, player_id);
    db_params_text(&find, public_key ? key_id : "");
    PGresult *result = db_query(
        conn,
        "SELECT (SELECT count(*) FROM players WHERE player_id = $1),"
        " (SELECT public_key FROM player_keys WHERE key_id = $2"
        "   AND player_id = $1)",
        find.count, find.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    bool present = atoi(PQgetvalue(result, 0, 0)) > 0;
    /* An email-only player is the same player when the id is. */
    bool same = public_key == NULL;
    if (public_key != NULL && !PQgetisnull(result, 0, 1)) {
        uint8_t stored[32];
        same = bytea_read_exact(PQgetvalue(result, 0, 1), stored,
                                 sizeof stored) &&
               sodium_memcmp(stored, public_key, sizeof stored) == 0;
    }
    PQclear(result);
    char ref[32];
    store_player_ref(player_id, ref);
    if (present && same)
        return true;
    if (present)
        return apierr_set(err, 409, "player_conflict",
                          "player %s exists here with a different key", ref);
    db_params player = {0};
    db_params_int(&player, player_id);
    db_params_text(&player, name);
    db_params_text(&player, email);
    db_params key = {0};
    db_params_text(&key, key_id);
    db_params_int(&key, player_id);
    db_params_text(&key, key_text);
    if (db_command(conn,
                   "INSERT INTO players (player_id, name, email)"
                   " VALUES ($1, $2, $3)",
                   player.count, player.values, err) &&
        (public_key == NULL ||
         db_command(conn,
                    "INSERT INTO player_keys (key_id, player_id, public_key)"
                    " VALUES ($1, $2, $3)",
                    key.count, key.values, err)))
        return true;
    if (strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "player_conflict",
                          "the key of player %s is registered here to "
                          "another player",
                          ref);
    return false;
}

long long store_player_by_email(PGconn *conn, const char *email, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, email);
    PGresult *r = db_query(conn,
                           "SELECT player_id FROM players"
                           " WHERE lower(email) = lower($1)"
                           " ORDER BY created_at, player_id LIMIT 1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    long long id = PQntuples(r) ? atoll(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return id;
}

bool store_player_lock(PGconn *conn, long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           "SELECT 1 FROM players WHERE player_id = $1"
                           " FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    PQclear(r);
    return true;
}

bool store_player_address(PGconn *conn, long long player_id, char *email,
                          size_t size, bool *found, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r =
        db_query(conn, "SELECT email FROM players WHERE player_id = $1",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *found = PQntuples(r) > 0;
    snprintf(email, size, "%s", *found ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return true;
}

bool store_player_set_email(PGconn *conn, long long player_id,
                            const char *email, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, email);
    return db_command(conn,
                      "UPDATE players SET email = $2 WHERE player_id = $1",
                      p.count, p.values, err);
}

bool store_player_signing_key(PGconn *conn, long long player_id, char name[81],
                              char key_b64[64], char key_id[64], bool *found,
                              apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *result = db_query(
        conn,
        "SELECT p.name, translate(encode(k.public_key, 'base64'), E'\\n', ''),"
        " k.key_id FROM players p"
        " JOIN LATERAL (SELECT key_id, public_key FROM player_keys"
        "   WHERE player_id = p.player_id AND revoked_at IS NULL"
        "   ORDER BY created_at, key_id LIMIT 1) k ON true"
        " WHERE p.player_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    *found = PQntuples(result) == 1;
    if (*found) {
        snprintf(name, 81, "%s", PQgetvalue(result, 0, 0));
        snprintf(key_b64, 64, "%s", PQgetvalue(result, 0, 1));
        snprintf(key_id, 64, "%s", PQgetvalue(result, 0, 2));
    }
    PQclear(result);
    return true;
}
