/* email_confirmations.c: see email_confirmations.h. */
#include "store/email_confirmations.h"

#include <stdio.h>
#include <stdlib.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"

int store_email_confirmations_since(PGconn *conn, const char *email,
                                    long long since, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, email);
    db_params_int(&p, since);
    PGresult *r = db_query(conn,
                           "SELECT count(*) FROM email_confirmations"
                           " WHERE lower(email) = lower($1)"
                           " AND created_at > to_timestamp($2)",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return count;
}

bool store_email_confirmations_insert(
    PGconn *conn, long long player_id, const char *email,
    const uint8_t digest[EMAIL_CONFIRMATIONS_DIGEST_BYTES], long long now,
    long long expires, apierr *err)
{
    char digest_text[BYTEA_TEXT_SIZE(EMAIL_CONFIRMATIONS_DIGEST_BYTES)];
    bytea_write(digest, EMAIL_CONFIRMATIONS_DIGEST_BYTES, digest_text);
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, email);
    db_params_text(&p, digest_text);
    db_params_int(&p, now);
    db_params_int(&p, expires);
    return db_command(conn,
                      "INSERT INTO email_confirmations (player_id, email,"
                      " token_digest, created_at, expires_at)"
                      " VALUES ($1, $2, $3, to_timestamp($4),"
                      " to_timestamp($5))",
                      p.count, p.values, err);
}

/* The row of r (the columns LINK_COLUMNS names) into *link, if any;
 * clears r. */
#define LINK_COLUMNS                                                           \
    "confirmation_id, player_id, email,"                                       \
    " extract(epoch FROM expires_at)::bigint, confirmed_at IS NOT NULL"

static void read_link(PGresult *r, store_email_confirmation *link, bool *found)
{
    *found = PQntuples(r) == 1;
    if (*found) {
        link->confirmation_id = atoll(PQgetvalue(r, 0, 0));
        link->player_id = atoll(PQgetvalue(r, 0, 1));
        snprintf(link->email, sizeof link->email, "%s", PQgetvalue(r, 0, 2));
        link->expires = atoll(PQgetvalue(r, 0, 3));
        link->confirmed = PQgetvalue(r, 0, 4)[0] == 't';
    }
    PQclear(r);
}

bool store_email_confirmations_find(
    PGconn *conn, const uint8_t digest[EMAIL_CONFIRMATIONS_DIGEST_BYTES],
    store_email_confirmation *link, bool *found, apierr *err)
{
    char digest_text[BYTEA_TEXT_SIZE(EMAIL_CONFIRMATIONS_DIGEST_BYTES)];
    bytea_write(digest, EMAIL_CONFIRMATIONS_DIGEST_BYTES, digest_text);
    db_params p = {0};
    db_params_text(&p, digest_text);
    PGresult *r = db_query(conn,
                           "SELECT " LINK_COLUMNS
                           " FROM email_confirmations WHERE token_digest = $1"
                           " FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    read_link(r, link, found);
    return true;
}

bool store_email_confirmations_confirm(PGconn *conn, long long confirmation_id,
                                       long long now, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, confirmation_id);
    db_params_int(&p, now);
    return db_command(conn,
                      "UPDATE email_confirmations"
                      " SET confirmed_at = to_timestamp($2)"
                      " WHERE confirmation_id = $1",
                      p.count, p.values, err);
}

bool store_email_confirmations_pending(PGconn *conn, long long player_id,
                                       long long now, char email[255],
                                       apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, now);
    PGresult *r = db_query(conn,
                           "SELECT email FROM email_confirmations"
                           " WHERE player_id = $1 AND confirmed_at IS NULL"
                           " AND expires_at > to_timestamp($2)"
                           " ORDER BY created_at DESC, confirmation_id DESC"
                           " LIMIT 1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    snprintf(email, 255, "%s", PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return true;
}

bool store_email_confirmations_pending_for(PGconn *conn, const char *email,
                                           long long now,
                                           store_email_confirmation *link,
                                           bool *found, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, email);
    db_params_int(&p, now);
    PGresult *r = db_query(conn,
                           "SELECT " LINK_COLUMNS " FROM email_confirmations"
                           " WHERE lower(email) = lower($1)"
                           " AND confirmed_at IS NULL"
                           " AND expires_at > to_timestamp($2)"
                           " ORDER BY created_at DESC, confirmation_id DESC"
                           " LIMIT 1 FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    read_link(r, link, found);
    return true;
}
