/* When a reading of who can be notified may be kept with a cached match
 * (store_reachability_current): a move served from the cache notifies by
 * it, so it must go out of date whenever it could be wrong. */
#include <criterion/criterion.h>

#include "../../support/pgtest.h"
#include "store/matches.h"
#include "store/reachability.h"
#include "store_support.h"

static void load_seated_match(store_match *match, store_reachability *reach)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match made;
    store_test_match(conn, &made, 81);
    store_match_free(&made);
    pgtest_exec(conn, "INSERT INTO players (player_id, name, email) VALUES"
                      " (1, 'Ann', 'ann@example.org'), (2, 'Bo', NULL)");
    pgtest_exec(conn, "INSERT INTO seats (match_id, seat, player_id) VALUES"
                      " (81, 0, 1), (81, 1, 2)");
    apierr err;
    cr_assert(store_load_match_reachable(conn, 81, match, reach, &err), "%s",
              err.message);
    PQfinish(conn);
    cr_assert_eq(reach->seat_has_email, 1u, "seat 0 has email, seat 1 not");
}

Test(reachability, a_fresh_reading_is_current)
{
    store_match match;
    store_reachability reach;
    load_seated_match(&match, &reach);
    cr_expect(store_reachability_current(&reach, match.seat_player, 60000));
    store_match_free(&match);
}

Test(reachability, a_change_in_this_process_makes_it_out_of_date)
{
    store_match match;
    store_reachability reach;
    load_seated_match(&match, &reach);
    store_reachability_changed();
    cr_expect(!store_reachability_current(&reach, match.seat_player, 60000));
    store_match_free(&match);
}

Test(reachability, other_seat_holders_make_it_out_of_date)
{
    store_match match;
    store_reachability reach;
    load_seated_match(&match, &reach);
    match.seat_player[1] = 3;
    cr_expect(!store_reachability_current(&reach, match.seat_player, 60000));
    store_match_free(&match);
}

Test(reachability, an_old_or_unknown_reading_is_out_of_date)
{
    store_match match;
    store_reachability reach;
    load_seated_match(&match, &reach);
    cr_expect(!store_reachability_current(&reach, match.seat_player, 0));
    reach.unknown = true;
    cr_expect(!store_reachability_current(&reach, match.seat_player, 60000));
    store_match_free(&match);
}
