/* match_messages.c: see match_messages.h. */
#include "store/match_messages.h"

#include <stdio.h>
#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_messages_insert(PGconn *conn, const store_message *message,
                           long long *message_id, char at[32], apierr *err)
{
    db_params p = {0};
    db_params_int(&p, message->match_id);
    db_params_int(&p, message->seq);
    db_params_int(&p, message->from_seat);
    db_params_int(&p, message->from_player);
    if (message->to_seat >= 0)
        db_params_int(&p, message->to_seat);
    else
        db_params_text(&p, NULL);
    db_params_text(&p, message->text);
    db_params_text(&p, message->request);
    PGresult *r = db_query(
        conn,
        "WITH next AS ("
        "  INSERT INTO match_message_heads (match_id, last_id)"
        "  VALUES ($1, 1) ON CONFLICT (match_id)"
        "  DO UPDATE SET last_id = match_message_heads.last_id + 1"
        "  RETURNING last_id)"
        " INSERT INTO match_messages (match_id, message_id, seq, from_seat,"
        "   from_player, to_seat, text, request)"
        " SELECT $1, last_id, $2, $3::int, $4, $5::int, $6, $7::jsonb"
        "   FROM next RETURNING message_id, to_char(created_at AT TIME ZONE"
        "   'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *message_id = atoll(PQgetvalue(r, 0, 0));
    snprintf(at, 32, "%s", PQgetvalue(r, 0, 1));
    PQclear(r);
    return true;
}

int store_messages_recent(PGconn *conn, long long match_id, int seat,
                          int seconds, long long *oldest_leaves, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, seconds);
    PGresult *r = db_query(
        conn,
        "SELECT count(*), coalesce(ceil(extract(epoch FROM min(created_at)"
        "  + make_interval(secs => $3::int) - now()))::bigint, 0)"
        " FROM match_messages WHERE match_id = $1 AND from_seat = $2::int"
        "  AND created_at > now() - make_interval(secs => $3::int)",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = atoi(PQgetvalue(r, 0, 0));
    *oldest_leaves = atoll(PQgetvalue(r, 0, 1));
    PQclear(r);
    return count;
}

/* The columns of a read, and who may see a row: $2 the reader's seat (-1
 * a spectator), $3 the reader's player (for their mutes). */
#define MESSAGE_COLUMNS                                                        \
    "SELECT m.message_id, m.seq, m.from_seat, m.to_seat, m.text,"              \
    " to_char(m.created_at AT TIME ZONE 'UTC',"                                \
    "         'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"                               \
    " FROM match_messages m WHERE m.match_id = $1"                             \
    "  AND (m.to_seat IS NULL OR ($2::int >= 0 AND"                            \
    "       (m.to_seat = $2::int OR m.from_seat = $2::int)))"                  \
    "  AND NOT EXISTS (SELECT 1 FROM player_mutes u"                           \
    "   WHERE u.player_id = $3 AND u.muted_player_id = m.from_player)"

PGresult *store_messages_read(PGconn *conn, long long match_id, int seat,
                              long long reader_player, long long after,
                              int limit, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, reader_player);
    db_params_int(&p, after);
    db_params_int(&p, limit);
    return db_query(conn,
                    MESSAGE_COLUMNS " AND m.message_id > $4"
                                    " ORDER BY m.message_id LIMIT $5::int",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_messages_public_at(PGconn *conn, long long match_id,
                                   long long seq, int limit, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, -1);
    db_params_int(&p, 0);
    db_params_int(&p, seq);
    db_params_int(&p, limit);
    return db_query(conn,
                    MESSAGE_COLUMNS " AND m.seq = $4"
                                    " ORDER BY m.message_id LIMIT $5::int",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_messages_before(PGconn *conn, long long match_id, long long seq,
                           long long *message_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    PGresult *r = db_query(conn,
                           "SELECT coalesce(max(message_id), 0)"
                           " FROM match_messages"
                           " WHERE match_id = $1 AND seq < $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *message_id = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}

PGresult *store_messages_unmailed(PGconn *conn, long long match_id, int seat,
                                  long long reader_player, int limit,
                                  apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, reader_player);
    db_params_int(&p, limit);
    return db_query(
        conn,
        MESSAGE_COLUMNS
        " AND m.from_seat <> $2::int"
        " AND m.message_id > coalesce((SELECT through FROM"
        "   match_message_mailed WHERE match_id = $1 AND player_id = $3), 0)"
        " ORDER BY m.message_id LIMIT $4::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_messages_mailed(PGconn *conn, long long match_id,
                           long long reader_player, long long through,
                           apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, reader_player);
    db_params_int(&p, through);
    return db_command(
        conn,
        "INSERT INTO match_message_mailed (match_id, player_id, through)"
        " VALUES ($1, $2, $3) ON CONFLICT (match_id, player_id)"
        " DO UPDATE SET through = greatest(match_message_mailed.through,"
        "                                  excluded.through)",
        p.count, p.values, err);
}

bool store_mutes_get(PGconn *conn, long long player_id, long long other,
                     bool *muted, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, other);
    PGresult *r = db_query(conn,
                           "SELECT 1 FROM player_mutes WHERE player_id = $1"
                           " AND muted_player_id = $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *muted = PQntuples(r) > 0;
    PQclear(r);
    return true;
}

bool store_mutes_set(PGconn *conn, long long player_id, long long other,
                     bool muted, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, other);
    return db_command(conn,
                      muted ? "INSERT INTO player_mutes (player_id,"
                              " muted_player_id) VALUES ($1, $2)"
                              " ON CONFLICT DO NOTHING"
                            : "DELETE FROM player_mutes WHERE player_id = $1"
                              " AND muted_player_id = $2",
                      p.count, p.values, err);
}
