/* delegate_grants.c */
#include "store/delegate_grants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"

void store_grant_ref(long long delegate_id, char out[32])
{
    snprintf(out, 32, "d_%lld", delegate_id);
}

long long store_parse_grant_ref(const char *text)
{
    if (text == NULL || strncmp(text, "d_", 2) != 0 || text[2] < '1' ||
        text[2] > '9' || strlen(text) > 20)
        return 0;
    char *end = NULL;
    long long id = strtoll(text + 2, &end, 10);
    return end != NULL && *end == '\0' && id > 0 ? id : 0;
}

/* The scope bits as a text[] literal. */
static void scope_text(unsigned scope, char out[32])
{
    snprintf(out, 32, "{%s%s%s}", scope & STORE_GRANT_VIEW ? "view," : "",
             scope & STORE_GRANT_MOVE ? "move," : "",
             scope & STORE_GRANT_JOIN ? "join," : "");
    size_t len = strlen(out);
    if (len > 2 && out[len - 2] == ',') {
        out[len - 2] = '}';
        out[len - 1] = '\0';
    }
}

/* The text forms of a grant's key, scope and matches, which its
 * statements' parameters borrow. */
typedef struct grant_text {
    char key[BYTEA_TEXT_SIZE(32)];
    char scope[32];
    char *matches; /* "{…}", or NULL for all matches; malloc'd */
} grant_text;

/* Appends grant's columns to p in the order both INSERTs name them:
 * player, key id, public key, name, scope, matches, expiry, the signed
 * request, creation. Free text->matches after the statement. */
static void grant_params(const store_grant *grant, const char *grant_request,
                         grant_text *text, db_params *p)
{
    bytea_write(grant->public_key, 32, text->key);
    scope_text(grant->scope, text->scope);
    text->matches = grant->all_matches
                        ? NULL
                        : db_params_int_array(grant->match_ids,
                                              grant->match_count);
    db_params_int(p, grant->player_id);
    db_params_text(p, grant->key_id);
    db_params_text(p, text->key);
    db_params_text(p, grant->name);
    db_params_text(p, text->scope);
    db_params_text(p, text->matches);
    db_params_int(p, grant->expires);
    db_params_text(p, grant_request);
    db_params_int(p, grant->created);
}

bool store_grant_insert(PGconn *conn, store_grant *grant,
                        const char *grant_request, apierr *err)
{
    grant_text text;
    db_params p = {0};
    grant_params(grant, grant_request, &text, &p);
    PGresult *r = db_query(conn,
                           "INSERT INTO delegates (player_id, key_id,"
                           " public_key, name, scope, match_ids, expires_at,"
                           " grant_request, created_at) VALUES ($1, $2, $3,"
                           " $4, $5::text[], $6::bigint[],"
                           " to_timestamp($7::bigint), $8,"
                           " to_timestamp($9::bigint)) RETURNING delegate_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    free(text.matches);
    if (r == NULL)
        return false;
    grant->delegate_id = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}

int store_grant_import(PGconn *conn, const store_grant *grant,
                       const char *grant_request, apierr *err)
{
    grant_text text;
    db_params p = {0};
    db_params_int(&p, grant->delegate_id);
    grant_params(grant, grant_request, &text, &p);
    db_params_int(&p, grant->revoked);
    bool ok = db_command(conn,
                         "INSERT INTO delegates (delegate_id, player_id,"
                         " key_id, public_key, name, scope, match_ids,"
                         " expires_at, grant_request, created_at, revoked_at)"
                         " OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5,"
                         " $6::text[], $7::bigint[], to_timestamp($8::bigint),"
                         " $9, to_timestamp($10::bigint), CASE WHEN"
                         " $11::bigint = 0 THEN NULL ELSE"
                         " to_timestamp($11::bigint) END)"
                         " ON CONFLICT (delegate_id) DO NOTHING",
                         p.count, p.values, err);
    free(text.matches);
    if (!ok)
        return -1;
    /* $1, $2 and $9 of p: the id, the player and the request. */
    const char *same_params[] = {p.values[0], p.values[1], p.values[8]};
    PGresult *r = db_query(conn,
                           "SELECT player_id = $2 AND grant_request = $3"
                           " FROM delegates WHERE delegate_id = $1",
                           3, same_params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    bool same = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    if (!same)
        return 0;
    return db_command(conn,
                      "SELECT setval(pg_get_serial_sequence('delegates',"
                      " 'delegate_id'), (SELECT max(delegate_id) FROM"
                      " delegates))",
                      0, NULL, err)
               ? 1
               : -1;
}

int store_grants_in_force(PGconn *conn, long long player_id, long long now,
                          apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, now);
    PGresult *r = db_query(conn,
                           "SELECT count(*) FROM delegates WHERE player_id ="
                           " $1 AND revoked_at IS NULL AND expires_at >"
                           " to_timestamp($2::bigint)",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return count;
}

#define GRANT_COLUMNS                                                        \
    "delegate_id, player_id, key_id, public_key, name, 'view' = ANY(scope)," \
    " 'move' = ANY(scope), 'join' = ANY(scope), match_ids::text,"            \
    " extract(epoch FROM expires_at)::bigint,"                               \
    " extract(epoch FROM created_at)::bigint,"                               \
    " coalesce(extract(epoch FROM revoked_at)::bigint, 0)"

/* "{1,2,3}" into the grant's match ids. */
static void read_match_ids(const char *text, store_grant *grant)
{
    grant->match_count = 0;
    const char *at = text + (text[0] == '{');
    while (*at != '\0' && *at != '}' &&
           grant->match_count < STORE_GRANT_MATCHES_MAX) {
        char *end = NULL;
        long long id = strtoll(at, &end, 10);
        if (end == at)
            break;
        grant->match_ids[grant->match_count++] = id;
        at = *end == ',' ? end + 1 : end;
    }
}

static bool read_grant(const PGresult *r, int row, store_grant *grant)
{
    memset(grant, 0, sizeof *grant);
    grant->delegate_id = atoll(PQgetvalue(r, row, 0));
    grant->player_id = atoll(PQgetvalue(r, row, 1));
    snprintf(grant->key_id, sizeof grant->key_id, "%s", PQgetvalue(r, row, 2));
    if (!bytea_read_exact(PQgetvalue(r, row, 3), grant->public_key, 32))
        return false;
    snprintf(grant->name, sizeof grant->name, "%s", PQgetvalue(r, row, 4));
    static const unsigned bits[] = {STORE_GRANT_VIEW, STORE_GRANT_MOVE,
                                    STORE_GRANT_JOIN};
    for (int i = 0; i < 3; i++)
        if (strcmp(PQgetvalue(r, row, 5 + i), "t") == 0)
            grant->scope |= bits[i];
    grant->all_matches = PQgetisnull(r, row, 8);
    if (!grant->all_matches)
        read_match_ids(PQgetvalue(r, row, 8), grant);
    grant->expires = atoll(PQgetvalue(r, row, 9));
    grant->created = atoll(PQgetvalue(r, row, 10));
    grant->revoked = atoll(PQgetvalue(r, row, 11));
    return true;
}

static int read_grants(PGresult *r, store_grant *out, int max, apierr *err)
{
    if (r == NULL)
        return -1;
    int count = 0;
    for (int row = 0; row < PQntuples(r) && count < max; row++)
        if (read_grant(r, row, &out[count]))
            count++;
    PQclear(r);
    (void)err;
    return count;
}

int store_grants_of_key(PGconn *conn, const char *key_id, long long player_id,
                        store_grant *out, int max, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, key_id);
    db_params_int(&p, player_id);
    db_params_int(&p, max);
    PGresult *r = db_query(conn,
                           "SELECT " GRANT_COLUMNS " FROM delegates WHERE"
                           " key_id = $1 AND player_id = $2 ORDER BY"
                           " delegate_id DESC LIMIT $3",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    return read_grants(r, out, max, err);
}

int store_grants_for_key(PGconn *conn, const char *key_id, store_grant *out,
                         int max, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, key_id);
    db_params_int(&p, max);
    PGresult *r = db_query(conn,
                           "SELECT " GRANT_COLUMNS " FROM delegates WHERE"
                           " key_id = $1 ORDER BY delegate_id DESC LIMIT $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    return read_grants(r, out, max, err);
}

int store_grants_of_player(PGconn *conn, long long player_id,
                           store_grant *out, int max, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, max);
    PGresult *r = db_query(conn,
                           "SELECT " GRANT_COLUMNS " FROM delegates WHERE"
                           " player_id = $1 ORDER BY delegate_id DESC"
                           " LIMIT $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    return read_grants(r, out, max, err);
}

int store_grant_revoke(PGconn *conn, long long player_id,
                       long long delegate_id, long long now, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, delegate_id);
    db_params_int(&p, now);
    PGresult *r = db_query(conn,
                           "UPDATE delegates SET revoked_at ="
                           " coalesce(revoked_at, to_timestamp($3::bigint))"
                           " WHERE player_id = $1 AND delegate_id = $2"
                           " RETURNING delegate_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int found = PQntuples(r);
    PQclear(r);
    return found > 0 ? 1 : 0;
}

PGresult *store_grants_of_match(PGconn *conn, long long match_id,
                                long long head, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, head);
    return db_query(
        conn,
        "SELECT d.delegate_id, d.player_id, d.key_id, d.name,"
        " d.grant_request::json #>> '{body}', d.grant_request,"
        " to_char(d.revoked_at AT TIME ZONE 'UTC',"
        "  'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
        " FROM delegates d WHERE d.delegate_id IN ("
        "  SELECT DISTINCT substr(e.body::json #>> '{data,delegate,grant}',"
        "   3)::bigint FROM events e WHERE e.match_id = $1 AND e.seq <= $2"
        "   AND e.body::json #>> '{data,delegate,grant}' IS NOT NULL)"
        " ORDER BY d.delegate_id",
        p.count, p.values, PGRES_TUPLES_OK, err);
}
