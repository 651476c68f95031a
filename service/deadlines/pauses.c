/* pauses.c */
#include "deadlines/pauses.h"

#include "store/vacations.h"

int pauses_of_player(PGconn *conn, long long player_id, long long since,
                     deadline_span *out, int max, apierr *err)
{
    store_vacation vacations[PAUSES_MAX];
    if (max > PAUSES_MAX)
        max = PAUSES_MAX;
    int n = store_vacations_after(conn, player_id, since, vacations, max, err);
    for (int i = 0; i < n; i++) {
        out[i].from = vacations[i].starts;
        out[i].until = vacations[i].ends;
    }
    return n;
}
