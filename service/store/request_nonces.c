/* request_nonces.c: the stored answers of signed requests
 * (request_nonces.h). */
#include "store/bytea.h"
#include "store/request_nonces.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/store.h"

int store_find_nonce(PGconn *conn, const char *key_id, const char *nonce,
                     const uint8_t digest[32], store_nonce *found_nonce,
                     apierr *err)
{
    const char *params[] = {key_id, nonce};
    PGresult *result = db_query(conn,
                                "SELECT request_digest, status, response,"
                                " coalesce(match_id, 0), coalesce(seq, 0)"
                                " FROM request_nonces"
                                " WHERE key_id = $1 AND nonce = $2",
                                2, params, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return -1;
    int found = 0;
    if (PQntuples(result) > 0) {
        uint8_t stored[32];
        found = 2;
        if (bytea_read_exact(PQgetvalue(result, 0, 0), stored,
                              sizeof stored) &&
            sodium_memcmp(stored, digest, sizeof stored) == 0) {
            found = 1;
            found_nonce->status = atoi(PQgetvalue(result, 0, 1));
            found_nonce->response = strdup(PQgetvalue(result, 0, 2));
            found_nonce->match_id = atoll(PQgetvalue(result, 0, 3));
            found_nonce->seq = atoll(PQgetvalue(result, 0, 4));
        }
    }
    PQclear(result);
    return found;
}

/* What a failed nonce insert means (db_explain). */
static void explain_nonce(PGconn *conn, const char *sqlstate,
                          const long long facts[2], apierr *err)
{
    (void)conn;
    (void)facts;
    if (strcmp(sqlstate, "23505") == 0)
        apierr_set(err, 409, "nonce_reused",
                   "this signature nonce was used a moment ago by a "
                   "concurrent request; sign again with a new nonce");
}

bool store_save_nonce(PGconn *conn, const char *key_id, const char *nonce,
                      const uint8_t digest[32], const store_nonce *answer,
                      apierr *err)
{
    char digest_text[2 * 32 + 3];
    bytea_write(digest, 32, digest_text);
    db_params p = {0};
    db_params_text(&p, key_id);
    db_params_text(&p, nonce);
    db_params_text(&p, digest_text);
    db_params_int(&p, answer->status);
    db_params_text(&p, answer->response);
    /* No match or no event yet: SQL NULL, not 0. */
    if (answer->match_id > 0)
        db_params_int(&p, answer->match_id);
    else
        db_params_text(&p, NULL);
    if (answer->seq > 0)
        db_params_int(&p, answer->seq);
    else
        db_params_text(&p, NULL);
    /* In a transaction (a use case's answer) it is queued, and a nonce
     * taken meanwhile shows at the COMMIT; alone (a refusal) it runs at
     * once. */
    return db_queue(conn,
                    "INSERT INTO request_nonces (key_id, nonce, request_digest,"
                    " status, response, match_id, seq)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    p.count, p.values, explain_nonce, NULL, err);
}

int store_prune_nonces(PGconn *conn, long long seconds, int limit,
                       apierr *err)
{
    db_params p = {0};
    db_params_int(&p, seconds);
    db_params_int(&p, limit);
    PGresult *result = db_query(
        conn,
        "DELETE FROM request_nonces WHERE (key_id, nonce) IN"
        " (SELECT key_id, nonce FROM request_nonces"
        "  WHERE created_at < now() - make_interval(secs => $1)"
        "  ORDER BY created_at LIMIT $2)",
        p.count, p.values, PGRES_COMMAND_OK, err);
    if (result == NULL)
        return -1;
    int deleted = atoi(PQcmdTuples(result));
    PQclear(result);
    return deleted;
}

