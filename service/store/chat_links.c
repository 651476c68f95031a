/* chat_links.c */
#include "store/chat_links.h"

#include <stdlib.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"

bool store_chat_link_insert(PGconn *conn, long long player_id,
                            const uint8_t digest[STORE_CHAT_LINK_DIGEST_BYTES],
                            long long now, long long expires, apierr *err)
{
    char digest_text[BYTEA_TEXT_SIZE(STORE_CHAT_LINK_DIGEST_BYTES)];
    bytea_write(digest, STORE_CHAT_LINK_DIGEST_BYTES, digest_text);
    db_params p = {0};
    db_params_text(&p, digest_text);
    db_params_int(&p, player_id);
    db_params_int(&p, now);
    db_params_int(&p, expires);
    return db_command(conn,
                      "INSERT INTO chat_link_codes (code_digest, player_id,"
                      " created_at, expires_at) VALUES ($1, $2,"
                      " to_timestamp($3::bigint), to_timestamp($4::bigint))",
                      p.count, p.values, err);
}

int store_chat_links_since(PGconn *conn, long long player_id, long long since,
                           apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, since);
    PGresult *r = db_query(conn,
                           "SELECT count(*) FROM chat_link_codes WHERE"
                           " player_id = $1 AND created_at >"
                           " to_timestamp($2::bigint)",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return count;
}

bool store_chat_link_spend(PGconn *conn,
                           const uint8_t digest[STORE_CHAT_LINK_DIGEST_BYTES],
                           long long now, const char *used_by,
                           long long *player_id, apierr *err)
{
    char digest_text[BYTEA_TEXT_SIZE(STORE_CHAT_LINK_DIGEST_BYTES)];
    bytea_write(digest, STORE_CHAT_LINK_DIGEST_BYTES, digest_text);
    db_params p = {0};
    db_params_text(&p, digest_text);
    db_params_int(&p, now);
    db_params_text(&p, used_by);
    PGresult *r = db_query(conn,
                           "UPDATE chat_link_codes SET used_at ="
                           " to_timestamp($2::bigint), used_by = $3 WHERE"
                           " code_digest = $1 AND used_at IS NULL AND"
                           " expires_at > to_timestamp($2::bigint)"
                           " RETURNING player_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *player_id = PQntuples(r) == 1 ? atoll(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return true;
}
