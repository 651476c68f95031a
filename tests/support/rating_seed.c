/* rating_seed.c: see rating_seed.h. */
#include "rating_seed.h"

#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

void rating_seed(const char *name, const char *game, double rating)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    char value[32];
    snprintf(value, sizeof value, "%.17g", rating);
    const char *params[] = {name, game, value};
    PGresult *r = PQexecParams(
        conn,
        "INSERT INTO ratings (game, player_id, rating, deviation, volatility,"
        " matches, wins) SELECT $2, player_id, $3::float8, 60, 0.06, 30, 15"
        " FROM players WHERE name = $1"
        " ON CONFLICT (game, player_id) DO UPDATE SET rating = $3::float8",
        3, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQerrorMessage(conn));
    cr_assert_str_eq(PQcmdTuples(r), "1", "no player is called %s", name);
    PQclear(r);
    PQfinish(conn);
}
