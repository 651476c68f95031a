/* reachability.c: who in a match can be notified (reachability.h). */
#include "store/reachability.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/db.h"
#include "store/db_params.h"

static unsigned long reachability_changes;

static long long monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void store_reachability_changed(void)
{
    __atomic_add_fetch(&reachability_changes, 1, __ATOMIC_SEQ_CST);
}

void store_reachability_starts(store_reachability *reach)
{
    memset(reach, 0, sizeof *reach);
    reach->changes = __atomic_load_n(&reachability_changes, __ATOMIC_SEQ_CST);
    reach->read_ms = monotonic_ms();
}

void store_reachability_read_for(store_reachability *reach,
                                 const long long seat_player[STORE_MAX_SEATS])
{
    memcpy(reach->seat_player, seat_player, sizeof reach->seat_player);
}

bool store_reachability_current(const store_reachability *reach,
                                const long long seat_player[STORE_MAX_SEATS],
                                long long max_age_ms)
{
    return !reach->unknown &&
           reach->changes ==
               __atomic_load_n(&reachability_changes, __ATOMIC_SEQ_CST) &&
           monotonic_ms() - reach->read_ms < max_age_ms &&
           memcmp(reach->seat_player, seat_player, sizeof reach->seat_player) ==
               0;
}

void store_reachability_forget(store_reachability *reach)
{
    reach->seat_has_email = reach->seat_has_webhook = 0;
    reach->relay_webhooks = false;
    reach->unknown = true;
}

bool store_reachability_load(PGconn *conn, long long match_id,
                             const long long seat_player[STORE_MAX_SEATS],
                             store_reachability *reach, apierr *err)
{
    store_reachability_starts(reach);
    store_reachability_read_for(reach, seat_player);
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *result = db_query(
        conn,
        "SELECT s.seat, p.email IS NOT NULL AND coalesce(ns.email, true),"
        "       coalesce(ns.webhooks, true) AND"
        "       EXISTS (SELECT 1 FROM webhooks w"
        "                WHERE w.player_id = p.player_id"
        "                  AND w.match_id IS NULL AND w.disabled_at IS NULL)"
        "       OR EXISTS (SELECT 1 FROM player_stream_heads h"
        "                   WHERE h.player_id = p.player_id)"
        "       OR EXISTS (SELECT 1 FROM push_subscriptions ps"
        "                   WHERE ps.player_id = p.player_id"
        "                     AND ps.disabled_at IS NULL),"
        "       EXISTS (SELECT 1 FROM webhooks w WHERE w.match_id = s.match_id"
        "                  AND w.disabled_at IS NULL)"
        "  FROM seats s JOIN players p USING (player_id)"
        "  LEFT JOIN notification_settings ns USING (player_id)"
        " WHERE s.match_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL) {
        /* As before the read: whatever it was is no longer known. */
        store_reachability_forget(reach);
        return false;
    }
    for (int row = 0; row < PQntuples(result); row++) {
        int seat = atoi(PQgetvalue(result, row, 0));
        if (seat < 0 || seat >= STORE_MAX_SEATS)
            continue;
        if (PQgetvalue(result, row, 1)[0] == 't')
            reach->seat_has_email |= 1u << seat;
        if (PQgetvalue(result, row, 2)[0] == 't')
            reach->seat_has_webhook |= 1u << seat;
        reach->relay_webhooks = PQgetvalue(result, row, 3)[0] == 't';
    }
    PQclear(result);
    return true;
}
