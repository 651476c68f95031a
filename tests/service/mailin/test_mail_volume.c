/* One mail per decision point: a player whose mailed move leaves it their
 * turn again reads that turn in the answer to their mail, and gets no
 * separate "your turn" mail for it. Counted over a whole match played by
 * mail only. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail_people.h"

/* One number a query answers. */
static long long number(PGconn *db, const char *sql, const char *match)
{
    const char *values[] = {match + 2};
    PGresult *r = PQexecParams(db, sql, 1, NULL, values, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQresultErrorMessage(r));
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

Test(mail_volume, a_mailed_move_that_keeps_the_turn_is_answered_once,
     .timeout = 600)
{
    srand(35);
    mail_scene scene;
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "adel_verplichtet", 3, "");
    size_t from = t.cursor;
    mail_table_play_to_the_end(&t, 5000);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK, "%s", PQerrorMessage(db));
    /* A "your turn" mail sent about the very transaction in which the
     * same seat's mailed move was applied: the answer had told it. */
    long long twice =
        number(db,
               "SELECT count(*) FROM outbox o"
               "  JOIN seats s ON s.match_id = o.match_id"
               "              AND s.player_id = o.player_id"
               " WHERE o.match_id = $1::bigint AND o.channel = 'email'"
               "   AND o.reason = 'your_turn' AND o.status <> 'cancelled'"
               "   AND EXISTS (SELECT 1 FROM events e"
               "                WHERE e.match_id = o.match_id"
               "                  AND e.created_at = o.created_at"
               "                  AND e.seat = s.seat"
               "                  AND e.body::jsonb #>> '{data,request,via}'"
               "                      = 'email')",
               t.match);
    long long spared =
        number(db,
               "SELECT count(*) FROM outbox WHERE match_id = $1::bigint"
               "   AND channel = 'email' AND reason = 'your_turn'"
               "   AND status = 'cancelled'"
               "   AND last_error LIKE 'the answer to the mailed move%'",
               t.match);
    cr_expect_eq(twice, 0,
                 "%lld turns were mailed twice: in the answer and again",
                 twice);
    cr_expect_gt(spared, 0, "no mailed move kept its player's turn");
    /* The figures: mails each player received for the whole match. */
    json_t *lines = receiver_lines(&scene.smtp);
    int received[MAIL_PEOPLE_MAX] = {0}, all = 0;
    for (size_t i = from; i < json_array_size(lines); i++) {
        const char *to = json_string_value(json_array_get(
            json_object_get(json_array_get(lines, i), "envelope_to"), 0));
        for (int p = 0; p < t.seats && to; p++)
            if (strcasecmp(to, t.people[p].address) == 0) {
                received[p]++;
                all++;
            }
    }
    json_decref(lines);
    fprintf(stderr,
            "adel_verplichtet by mail, 3 players, %d moves: %d mails "
            "(Alice %d, Bob %d, Carol %d); %lld more without one mail per "
            "decision\n",
            t.moves, all, received[0], received[1], received[2], spared);
    PQfinish(db);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
