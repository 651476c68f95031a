/* event_texts.c: see event_texts.h. */
#include "store/event_texts.h"

#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

/* What counts as a seat's own action: "since your last turn" starts
 * after it. */
#define SEAT_ACTS "('move', 'committed', 'revealed')"

bool store_event_texts_save(PGconn *conn, long long match_id,
                            const json_t *rows, apierr *err)
{
    if (json_array_size(rows) == 0)
        return true;
    char *text = json_dumps(rows, JSON_COMPACT);
    if (text == NULL)
        abort();
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, text);
    bool ok = db_queue(
        conn,
        "INSERT INTO event_texts (match_id, seq, viewer, seat, text)"
        " SELECT $1::bigint, r.seq, r.viewer, r.seat, r.text"
        "   FROM jsonb_to_recordset($2::jsonb)"
        "        AS r(seq bigint, viewer integer, seat integer, text text)"
        " ON CONFLICT DO NOTHING",
        p.count, p.values, NULL, NULL, err);
    free(text);
    return ok;
}

/* One row of a reading as {"seq", "seat", "text"}: columns seq, seat,
 * text from column first on. */
static json_t *told_row(const PGresult *r, int row, int first)
{
    json_t *seat = PQgetisnull(r, row, first + 1)
                       ? json_null()
                       : json_integer(atoi(PQgetvalue(r, row, first + 1)));
    return json_pack("{s:I,s:o,s:s}", "seq",
                     (json_int_t)atoll(PQgetvalue(r, row, first)), "seat", seat,
                     "text", PQgetvalue(r, row, first + 2));
}

json_t *store_event_texts_told(PGconn *conn, long long match_id, int viewer,
                               long long after, long long upto, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, viewer);
    db_params_int(&p, after);
    db_params_int(&p, upto);
    /* The seat's own row sorts before the public one (viewer -1). */
    PGresult *r =
        db_query(conn,
                 "SELECT DISTINCT ON (seq) seq, seat, text FROM event_texts"
                 " WHERE match_id = $1::bigint AND viewer IN (-1, $2::int)"
                 "   AND seq > $3::bigint AND seq <= $4::bigint"
                 " ORDER BY seq, viewer DESC",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *told = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(told, told_row(r, i, 0));
    PQclear(r);
    return told;
}

json_t *store_event_texts_told_acted(PGconn *conn, long long match_id,
                                     int viewer, long long after,
                                     long long upto, long long *acted,
                                     apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, viewer);
    db_params_int(&p, after);
    db_params_int(&p, upto);
    /* One row at least: the seat's last action, beside each sentence (or
     * beside nulls when there is none). */
    PGresult *r =
        db_query(conn,
                 "SELECT a.acted, t.seq, t.seat, t.text FROM"
                 " (SELECT coalesce(max(seq), 0) FROM events"
                 "   WHERE match_id = $1::bigint AND seat = $2::int"
                 "     AND kind IN " SEAT_ACTS ") AS a(acted)"
                 " LEFT JOIN LATERAL"
                 " (SELECT DISTINCT ON (seq) seq, seat, text FROM event_texts"
                 "   WHERE match_id = $1::bigint AND viewer IN (-1, $2::int)"
                 "     AND seq > $3::bigint AND seq <= $4::bigint"
                 "   ORDER BY seq, viewer DESC) AS t ON true"
                 " ORDER BY t.seq",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    *acted = PQntuples(r) > 0 ? atoll(PQgetvalue(r, 0, 0)) : 0;
    json_t *told = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        if (!PQgetisnull(r, i, 1))
            json_array_append_new(told, told_row(r, i, 1));
    PQclear(r);
    return told;
}

/* Reads "{3,0,12}", an array of seats' last actions, into acted. */
static void read_acted(const char *array, int seats, long long *acted)
{
    const char *at = array;
    for (int s = 0; s < seats; s++) {
        while (*at == '{' || *at == ',')
            at++;
        char *end;
        acted[s] = strtoll(at, &end, 10);
        at = end;
    }
}

json_t *store_event_texts_window(PGconn *conn, long long match_id,
                                 long long after, long long upto, int seats,
                                 long long *acted, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, after);
    db_params_int(&p, upto);
    db_params_int(&p, seats);
    /* One row at least: the seats' last actions (each found walking the
     * log's key back from after), beside each sentence. */
    PGresult *r = db_query(
        conn,
        "SELECT a.acted, t.seq, t.viewer, t.seat, t.text, t.acts FROM"
        " (SELECT array_agg((SELECT coalesce(max(e.seq), 0) FROM events e"
        "     WHERE e.match_id = $1::bigint AND e.seat = s"
        "       AND e.kind IN " SEAT_ACTS " AND e.seq <= $2::bigint)"
        "   ORDER BY s)"
        "    FROM generate_series(0, $4::int - 1) AS s) AS a(acted)"
        " LEFT JOIN LATERAL"
        " (SELECT t.seq, t.viewer, t.seat, t.text,"
        "         e.kind IN " SEAT_ACTS " AS acts"
        "    FROM event_texts t JOIN events e"
        "      ON e.match_id = t.match_id AND e.seq = t.seq"
        "   WHERE t.match_id = $1::bigint"
        "     AND t.seq > $2::bigint AND t.seq <= $3::bigint) AS t ON true"
        " ORDER BY t.seq, t.viewer",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    if (seats > 0) {
        for (int s = 0; s < seats; s++)
            acted[s] = 0;
        if (PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
            read_acted(PQgetvalue(r, 0, 0), seats, acted);
    }
    json_t *rows = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        if (PQgetisnull(r, i, 1))
            continue;
        json_t *seat = PQgetisnull(r, i, 3)
                           ? json_null()
                           : json_integer(atoi(PQgetvalue(r, i, 3)));
        json_array_append_new(
            rows, json_pack("{s:I,s:i,s:o,s:s,s:b}", "seq",
                            (json_int_t)atoll(PQgetvalue(r, i, 1)), "viewer",
                            atoi(PQgetvalue(r, i, 2)), "seat", seat, "text",
                            PQgetvalue(r, i, 4), "acts",
                            PQgetvalue(r, i, 5)[0] == 't'));
    }
    PQclear(r);
    return rows;
}

PGresult *store_event_texts_since_seat_acted(PGconn *conn, long long match_id,
                                             int seat, int limit, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "SELECT seat, kind, text, told FROM ("
        "  SELECT e.seq, e.seat, e.kind, e.body::jsonb #>> '{data,text}' AS "
        "text,"
        "         (SELECT t.text FROM event_texts t"
        "           WHERE t.match_id = e.match_id AND t.seq = e.seq"
        "             AND t.viewer IN (-1, $2::int)"
        "           ORDER BY t.viewer DESC LIMIT 1) AS told"
        "    FROM events e"
        "   WHERE e.match_id = $1::bigint AND e.seq > (SELECT "
        "coalesce(max(seq), 0)"
        "          FROM events WHERE match_id = $1::bigint AND seat = $2::int"
        "           AND kind IN " SEAT_ACTS ")"
        "     AND e.kind NOT IN ('revealed', 'created', 'joined', 'started')"
        "   ORDER BY e.seq DESC LIMIT $3::int) latest ORDER BY seq",
        p.count, p.values, PGRES_TUPLES_OK, err);
}
