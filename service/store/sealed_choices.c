/* sealed_choices.c */
#include "store/sealed_choices.h"

#include <stdlib.h>
#include <string.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"

/* The row's seat, or -1 when seats cannot index it. */
static int seat_of(const PGresult *result, int row)
{
    int seat = atoi(PQgetvalue(result, row, 0));
    return seat >= 0 && seat < SEALED_CHOICES_MAX_SEATS ? seat : -1;
}

static bool is_true(const PGresult *result, int row, int column)
{
    return strcmp(PQgetvalue(result, row, column), "t") == 0;
}

bool sealed_choices_load(PGconn *conn, long long match_id, const char *decision,
                         sealed_choice seats[SEALED_CHOICES_MAX_SEATS],
                         apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, decision);
    PGresult *result =
        db_query(conn,
                 "SELECT seat, mode = 'client', revealed, commitment, sealed"
                 " FROM sealed_choices WHERE match_id = $1 AND decision = $2",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    for (int row = 0; row < PQntuples(result); row++) {
        int seat = seat_of(result, row);
        if (seat < 0)
            continue;
        sealed_choice *c = &seats[seat];
        c->committed = true;
        c->client_mode = is_true(result, row, 1);
        c->revealed = is_true(result, row, 2);
        /* The table holds 32 bytes (its CHECK); anything else reads as
         * zeros, which no choice opens. */
        if (!bytea_read_exact(PQgetvalue(result, row, 3), c->commitment,
                              SEAL_HASH_BYTES))
            memset(c->commitment, 0, SEAL_HASH_BYTES);
        if (!PQgetisnull(result, row, 4))
            c->sealed =
                bytea_read_copy(PQgetvalue(result, row, 4), &c->sealed_len);
    }
    PQclear(result);
    return true;
}

void sealed_choices_free(sealed_choice seats[SEALED_CHOICES_MAX_SEATS])
{
    for (int s = 0; s < SEALED_CHOICES_MAX_SEATS; s++)
        free(seats[s].sealed);
    memset(seats, 0, SEALED_CHOICES_MAX_SEATS * sizeof *seats);
}

bool sealed_choices_progress(PGconn *conn, long long match_id,
                             const char *decision, uint32_t *committed,
                             uint32_t *unrevealed, apierr *err)
{
    *committed = 0;
    *unrevealed = 0;
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, decision);
    PGresult *result = db_query(
        conn,
        "SELECT seat, mode = 'client' AND NOT revealed FROM sealed_choices"
        " WHERE match_id = $1 AND decision = $2",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    for (int row = 0; row < PQntuples(result); row++) {
        int seat = atoi(PQgetvalue(result, row, 0));
        if (seat < 0 || seat >= 32)
            continue;
        *committed |= 1u << seat;
        if (is_true(result, row, 1))
            *unrevealed |= 1u << seat;
    }
    PQclear(result);
    return true;
}

uint32_t sealed_choices_committed(PGconn *conn, long long match_id,
                                  const char *decision)
{
    uint32_t committed = 0, unrevealed = 0;
    apierr err;
    sealed_choices_progress(conn, match_id, decision, &committed, &unrevealed,
                            &err);
    return committed;
}

bool sealed_choices_insert(PGconn *conn, long long match_id,
                           const char *decision, int seat, bool client_mode,
                           const uint8_t commitment[SEAL_HASH_BYTES],
                           const uint8_t *sealed, size_t sealed_len,
                           apierr *err)
{
    char commitment_text[BYTEA_TEXT_SIZE(SEAL_HASH_BYTES)];
    char *sealed_text = NULL;
    bytea_write(commitment, SEAL_HASH_BYTES, commitment_text);
    if (sealed != NULL) {
        sealed_text = malloc(BYTEA_TEXT_SIZE(sealed_len));
        if (sealed_text == NULL)
            abort();
        bytea_write(sealed, sealed_len, sealed_text);
    }
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, decision);
    db_params_int(&p, seat);
    db_params_text(&p, client_mode ? "client" : "server");
    db_params_text(&p, commitment_text);
    db_params_text(&p, sealed_text);
    bool ok = db_command(conn,
                         "INSERT INTO sealed_choices (match_id, decision, seat,"
                         " mode, commitment, sealed) VALUES ($1, $2, $3, $4,"
                         " $5, $6)",
                         p.count, p.values, err);
    free(sealed_text);
    return ok;
}

bool sealed_choices_mark_revealed(PGconn *conn, long long match_id,
                                  const char *decision, int seat, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, decision);
    db_params_int(&p, seat);
    return db_command(conn,
                      "UPDATE sealed_choices SET revealed = true, sealed = NULL"
                      " WHERE match_id = $1 AND decision = $2 AND seat = $3",
                      p.count, p.values, err);
}

bool sealed_choices_hold_match(PGconn *conn, long long match_id,
                               long long head_seq, bool *current, apierr *err)
{
    *current = false;
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, head_seq);
    PGresult *result = db_query(conn,
                                "SELECT head_seq = $2::bigint FROM matches"
                                " WHERE match_id = $1 FOR UPDATE",
                                p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    *current = PQntuples(result) == 1 && is_true(result, 0, 0);
    PQclear(result);
    return true;
}

PGresult *sealed_choices_export(PGconn *conn, long long match_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    return db_query(conn,
                    "SELECT decision, seat, mode, encode(commitment, 'hex'),"
                    " encode(sealed, 'hex'), revealed FROM sealed_choices"
                    " WHERE match_id = $1 ORDER BY decision, seat",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

bool sealed_choices_import(PGconn *conn, long long match_id,
                           const char *decision, long long seat,
                           const char *mode, const char *commitment_hex,
                           const char *sealed_hex, bool revealed, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, decision);
    db_params_int(&p, seat);
    db_params_text(&p, mode);
    db_params_text(&p, commitment_hex);
    db_params_text(&p, sealed_hex);
    db_params_text(&p, revealed ? "true" : "false");
    return db_command(conn,
                      "INSERT INTO sealed_choices (match_id, decision, seat,"
                      " mode, commitment, sealed, revealed) VALUES ($1, $2,"
                      " $3, $4, decode($5, 'hex'), decode($6, 'hex'), $7)",
                      p.count, p.values, err);
}

bool sealed_choices_drop_after(PGconn *conn, long long match_id,
                               long long to_seq, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, to_seq);
    return db_command(
        conn,
        "DELETE FROM sealed_choices WHERE match_id = $1"
        " AND decision IN (SELECT body::json #>> '{data,decision}'"
        "   FROM events WHERE match_id = $1 AND seq > $2"
        "    AND kind = 'committed')",
        p.count, p.values, err);
}
