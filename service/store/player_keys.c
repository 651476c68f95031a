/* player_keys.c: see player_keys.h. */
#include "store/player_keys.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/store.h"

/* A timestamptz column as RFC 3339 UTC text, as the API writes times. */
#define RFC3339(column) \
    "to_char(" column " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

void store_key_id(const uint8_t public_key[32], char key_id[40])
{
    uint8_t digest[8];
    crypto_generichash(digest, sizeof digest, public_key, 32, NULL, 0);
    char digest_hex[17];
    sodium_bin2hex(digest_hex, sizeof digest_hex, digest, sizeof digest);
    snprintf(key_id, 40, "k_%s", digest_hex);
}

bool store_find_key(PGconn *conn, const char *key_id, uint8_t public_key[32],
                    long long *player_id, char revoked[STORE_KEY_REVOKED_SIZE],
                    apierr *err)
{
    const char *params[] = {key_id};
    PGresult *result = db_query(
        conn,
        "SELECT public_key, player_id, coalesce(to_char(revoked_at AT TIME"
        " ZONE 'UTC', 'YYYY-MM-DD \"at\" HH24:MI \"UTC\"'), '')"
        " FROM player_keys WHERE key_id = $1",
        1, params, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    bool found = PQntuples(result) > 0 &&
                 bytea_read_exact(PQgetvalue(result, 0, 0), public_key, 32);
    if (found) {
        *player_id = atoll(PQgetvalue(result, 0, 1));
        snprintf(revoked, STORE_KEY_REVOKED_SIZE, "%s",
                 PQgetvalue(result, 0, 2));
    }
    PQclear(result);
    if (!found)
        return apierr_set(err, 401, "unknown_key",
                          "the signature's keyid is not a registered key");
    return true;
}


/* The text of column c of row i, or JSON null when it is SQL NULL. */
static json_t *text_or_null(const PGresult *r, int i, int c)
{
    return PQgetisnull(r, i, c) ? json_null()
                                : json_string(PQgetvalue(r, i, c));
}

json_t *store_player_keys_list(PGconn *conn, long long player_id,
                               apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(
        conn,
        "SELECT key_id, encode(public_key, 'base64'), name, " RFC3339(
            "created_at") ", " RFC3339("revoked_at") " FROM player_keys"
                                                     " WHERE player_id = $1"
                                                     " ORDER BY created_at,"
                                                     " key_id",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *keys = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(
            keys, json_pack("{s:s,s:s,s:o,s:s,s:o}", "key_id",
                            PQgetvalue(r, i, 0), "public_key",
                            PQgetvalue(r, i, 1), "name", text_or_null(r, i, 2),
                            "created_at", PQgetvalue(r, i, 3), "revoked_at",
                            text_or_null(r, i, 4)));
    PQclear(r);
    return keys;
}

int store_player_keys_active(PGconn *conn, long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           "SELECT count(*) FROM player_keys"
                           " WHERE player_id = $1 AND revoked_at IS NULL",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return count;
}

bool store_player_keys_add(PGconn *conn, long long player_id,
                           const uint8_t public_key[32], const char *name,
                           char key_id[40], apierr *err)
{
    store_key_id(public_key, key_id);
    char key_text[BYTEA_TEXT_SIZE(32)];
    bytea_write(public_key, 32, key_text);
    db_params p = {0};
    db_params_text(&p, key_id);
    db_params_int(&p, player_id);
    db_params_text(&p, key_text);
    db_params_text(&p, name);
    bool ok = db_command(conn,
                         "INSERT INTO player_keys (key_id, player_id,"
                         " public_key, name) VALUES ($1, $2, $3, $4)",
                         p.count, p.values, err);
    if (!ok && strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "key_registered",
                          "this public key is already registered (a revoked "
                          "key cannot come back: make a new one)");
    return ok;
}

bool store_player_keys_revoke(PGconn *conn, long long player_id,
                              const char *key_id, bool *was_active,
                              apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, key_id);
    PGresult *r = db_query(conn,
                           "UPDATE player_keys SET revoked_at = now()"
                           " WHERE player_id = $1 AND key_id = $2"
                           " AND revoked_at IS NULL RETURNING key_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *was_active = PQntuples(r) == 1;
    PQclear(r);
    if (*was_active)
        return true;
    r = db_query(conn,
                 "SELECT 1 FROM player_keys"
                 " WHERE player_id = $1 AND key_id = $2",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    bool found = PQntuples(r) == 1;
    PQclear(r);
    if (!found)
        return apierr_set(err, 404, "no_such_key",
                          "you have no key with this id (GET "
                          "/v1/players/me/keys lists yours)");
    return true;
}
