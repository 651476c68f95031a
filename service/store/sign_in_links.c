/* sign_in_links.c: see sign_in_links.h. */
#include "store/sign_in_links.h"

#include <stdlib.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"

int store_sign_in_links_since(PGconn *conn, const char *email,
                              long long since, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, email);
    db_params_int(&p, since);
    PGresult *r = db_query(conn,
                           "SELECT count(*) FROM sign_in_links"
                           " WHERE lower(email) = lower($1)"
                           " AND created_at > to_timestamp($2)",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return count;
}

bool store_sign_in_links_insert(PGconn *conn, const char *email,
                                long long player_id,
                                const uint8_t digest[SIGN_IN_DIGEST_BYTES],
                                long long now, long long expires,
                                apierr *err)
{
    char digest_text[BYTEA_TEXT_SIZE(SIGN_IN_DIGEST_BYTES)];
    bytea_write(digest, SIGN_IN_DIGEST_BYTES, digest_text);
    db_params old = {0};
    db_params_text(&old, email);
    db_params_int(&old, now - 24 * 3600);
    db_params p = {0};
    db_params_text(&p, email);
    db_params_int(&p, player_id);
    db_params_text(&p, digest_text);
    db_params_int(&p, now);
    db_params_int(&p, expires);
    return db_command(conn,
                      "DELETE FROM sign_in_links"
                      " WHERE lower(email) = lower($1)"
                      " AND created_at < to_timestamp($2)",
                      old.count, old.values, err) &&
           db_command(conn,
                      "INSERT INTO sign_in_links (email, player_id,"
                      " token_digest, created_at, expires_at)"
                      " VALUES ($1, $2, $3, to_timestamp($4),"
                      " to_timestamp($5))",
                      p.count, p.values, err);
}

bool store_sign_in_links_find(PGconn *conn,
                              const uint8_t digest[SIGN_IN_DIGEST_BYTES],
                              store_sign_in_link *link, bool *found,
                              apierr *err)
{
    char digest_text[BYTEA_TEXT_SIZE(SIGN_IN_DIGEST_BYTES)];
    bytea_write(digest, SIGN_IN_DIGEST_BYTES, digest_text);
    db_params p = {0};
    db_params_text(&p, digest_text);
    PGresult *r = db_query(conn,
                           "SELECT link_id, player_id,"
                           " extract(epoch FROM expires_at)::bigint,"
                           " spent_at IS NOT NULL"
                           " FROM sign_in_links WHERE token_digest = $1"
                           " FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *found = PQntuples(r) == 1;
    if (*found) {
        link->link_id = atoll(PQgetvalue(r, 0, 0));
        link->player_id = atoll(PQgetvalue(r, 0, 1));
        link->expires = atoll(PQgetvalue(r, 0, 2));
        link->spent = PQgetvalue(r, 0, 3)[0] == 't';
    }
    PQclear(r);
    return true;
}

bool store_sign_in_links_spend(PGconn *conn, long long link_id, long long now,
                               const char *key_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, link_id);
    db_params_int(&p, now);
    db_params_text(&p, key_id);
    return db_command(conn,
                      "UPDATE sign_in_links SET spent_at = to_timestamp($2),"
                      " spent_by_key = $3 WHERE link_id = $1",
                      p.count, p.values, err);
}
