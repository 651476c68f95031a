/* players_seen.c: see players_seen.h. */
#include "store/players_seen.h"

#include "store/db.h"
#include "store/db_params.h"

bool store_players_seen_mark(PGconn *conn, long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    return db_command(conn,
                      "INSERT INTO players_seen (player_id, seen_at)"
                      " VALUES ($1, now())"
                      " ON CONFLICT (player_id) DO UPDATE SET seen_at = now()",
                      p.count, p.values, err);
}
