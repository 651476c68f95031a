/* The sealed choices' rows against the real PostgreSQL: what a commit
 * writes reads back the same, who has committed and who must still reveal,
 * a seat commits once, a reveal drops the sealed copy, an export restores
 * as it was, and a rewind drops the decisions committed to after it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "store/events.h"
#include "store/matches.h"
#include "store/sealed_choices.h"
#include "store/store.h"
#include "store_support.h"

static const uint8_t sealed_bytes[] = {1, 2, 3, 250, 251};

static void fill(uint8_t commitment[SEAL_HASH_BYTES], uint8_t with)
{
    memset(commitment, with, SEAL_HASH_BYTES);
}

/* Seat 0 commits to decision with a choice the service sealed, seat 1
 * with a commitment of its own. */
static void commit_both(PGconn *conn, long long match_id, const char *decision)
{
    uint8_t commitment[SEAL_HASH_BYTES];
    apierr err = {.head = -1};
    fill(commitment, 0xa0);
    cr_assert(sealed_choices_insert(conn, match_id, decision, 0, false,
                                    commitment, sealed_bytes,
                                    sizeof sealed_bytes, &err),
              "%s", err.message);
    fill(commitment, 0xb1);
    cr_assert(sealed_choices_insert(conn, match_id, decision, 1, true,
                                    commitment, NULL, 0, &err),
              "%s", err.message);
}

Test(sealed_choices, a_commit_reads_back_as_written)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 21);
    commit_both(conn, 21, "bid-1");
    sealed_choice seats[SEALED_CHOICES_MAX_SEATS] = {0};
    apierr err = {.head = -1};
    cr_assert(sealed_choices_load(conn, 21, "bid-1", seats, &err), "%s",
              err.message);
    uint8_t expected[SEAL_HASH_BYTES];
    cr_expect(seats[0].committed && !seats[0].client_mode &&
              !seats[0].revealed);
    fill(expected, 0xa0);
    cr_expect_arr_eq(seats[0].commitment, expected, SEAL_HASH_BYTES);
    cr_assert_eq(seats[0].sealed_len, sizeof sealed_bytes);
    cr_expect_arr_eq(seats[0].sealed, sealed_bytes, sizeof sealed_bytes);
    cr_expect(seats[1].committed && seats[1].client_mode);
    fill(expected, 0xb1);
    cr_expect_arr_eq(seats[1].commitment, expected, SEAL_HASH_BYTES);
    cr_expect_null(seats[1].sealed);
    cr_expect(!seats[2].committed);
    sealed_choices_free(seats);
    cr_expect_null(seats[0].sealed);
    cr_expect(!seats[0].committed);
    /* Another decision has no rows. */
    cr_assert(sealed_choices_load(conn, 21, "bid-2", seats, &err));
    cr_expect(!seats[0].committed && !seats[1].committed);
    store_match_free(&match);
    PQfinish(conn);
}

Test(sealed_choices, progress_names_who_committed_and_who_must_reveal)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 22);
    apierr err = {.head = -1};
    uint32_t committed = 99, unrevealed = 99;
    cr_assert(sealed_choices_progress(conn, 22, "bid-1", &committed,
                                      &unrevealed, &err));
    cr_expect_eq(committed, 0);
    cr_expect_eq(unrevealed, 0);
    commit_both(conn, 22, "bid-1");
    cr_assert(sealed_choices_progress(conn, 22, "bid-1", &committed,
                                      &unrevealed, &err));
    cr_expect_eq(committed, 3u);
    cr_expect_eq(unrevealed, 2u, "only seat 1 has a commitment of its own");
    cr_expect_eq(sealed_choices_committed(conn, 22, "bid-1"), 3u);
    /* Revealed: no longer waited for, and nothing sealed is kept. */
    cr_assert(sealed_choices_mark_revealed(conn, 22, "bid-1", 1, &err));
    cr_assert(sealed_choices_mark_revealed(conn, 22, "bid-1", 0, &err));
    cr_assert(sealed_choices_progress(conn, 22, "bid-1", &committed,
                                      &unrevealed, &err));
    cr_expect_eq(committed, 3u);
    cr_expect_eq(unrevealed, 0u);
    sealed_choice seats[SEALED_CHOICES_MAX_SEATS] = {0};
    cr_assert(sealed_choices_load(conn, 22, "bid-1", seats, &err));
    cr_expect(seats[0].revealed && seats[1].revealed);
    cr_expect_null(seats[0].sealed);
    sealed_choices_free(seats);
    store_match_free(&match);
    PQfinish(conn);
}

Test(sealed_choices, a_seat_commits_once)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 23);
    commit_both(conn, 23, "bid-1");
    uint8_t commitment[SEAL_HASH_BYTES];
    fill(commitment, 0xcc);
    apierr err = {.head = -1};
    cr_expect(!sealed_choices_insert(conn, 23, "bid-1", 1, true, commitment,
                                     NULL, 0, &err));
    cr_expect_str_eq(err.code, "database:23505");
    store_match_free(&match);
    PQfinish(conn);
}

Test(sealed_choices, an_export_imports_as_it_was)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match from, to;
    store_test_match(conn, &from, 24);
    store_test_match(conn, &to, 25);
    commit_both(conn, 24, "bid-1");
    apierr err = {.head = -1};
    cr_assert(sealed_choices_mark_revealed(conn, 24, "bid-1", 1, &err));
    PGresult *rows = sealed_choices_export(conn, 24, &err);
    cr_assert_not_null(rows, "%s", err.message);
    cr_assert_eq(PQntuples(rows), 2);
    for (int row = 0; row < PQntuples(rows); row++)
        cr_assert(
            sealed_choices_import(
                conn, 25, PQgetvalue(rows, row, 0),
                atoll(PQgetvalue(rows, row, 1)), PQgetvalue(rows, row, 2),
                PQgetvalue(rows, row, 3),
                PQgetisnull(rows, row, 4) ? NULL : PQgetvalue(rows, row, 4),
                strcmp(PQgetvalue(rows, row, 5), "t") == 0, &err),
            "%s", err.message);
    PQclear(rows);
    sealed_choice was[SEALED_CHOICES_MAX_SEATS] = {0};
    sealed_choice now[SEALED_CHOICES_MAX_SEATS] = {0};
    cr_assert(sealed_choices_load(conn, 24, "bid-1", was, &err));
    cr_assert(sealed_choices_load(conn, 25, "bid-1", now, &err));
    for (int s = 0; s < 2; s++) {
        cr_expect_eq(now[s].committed, was[s].committed);
        cr_expect_eq(now[s].client_mode, was[s].client_mode);
        cr_expect_eq(now[s].revealed, was[s].revealed);
        cr_expect_arr_eq(now[s].commitment, was[s].commitment, SEAL_HASH_BYTES);
        cr_expect_eq(now[s].sealed_len, was[s].sealed_len);
    }
    cr_expect_arr_eq(now[0].sealed, sealed_bytes, sizeof sealed_bytes);
    cr_expect_null(now[1].sealed);
    sealed_choices_free(was);
    sealed_choices_free(now);
    store_match_free(&from);
    store_match_free(&to);
    PQfinish(conn);
}

static json_t *committed_event(int seat, const char *decision)
{
    return json_pack("{s:s,s:i,s:{s:s}}", "kind", "committed", "seat", seat,
                     "data", "decision", decision);
}

Test(sealed_choices, a_rewind_drops_the_decisions_committed_to_after_it)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 26);
    apierr err = {.head = -1};
    json_t *first = committed_event(0, "bid-1");
    json_t *second = committed_event(0, "bid-2");
    cr_assert(store_append(conn, &match, &first, 1, NULL, &err), "%s",
              err.message);
    cr_assert(store_append(conn, &match, &second, 1, NULL, &err), "%s",
              err.message);
    json_decref(first);
    json_decref(second);
    commit_both(conn, 26, "bid-1");
    commit_both(conn, 26, "bid-2");
    cr_assert(sealed_choices_drop_after(conn, 26, 1, &err), "%s", err.message);
    cr_expect_eq(sealed_choices_committed(conn, 26, "bid-1"), 3u);
    cr_expect_eq(sealed_choices_committed(conn, 26, "bid-2"), 0u);
    store_match_free(&match);
    PQfinish(conn);
}

Test(sealed_choices, holding_the_match_tells_whether_its_head_moved)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 27);
    apierr err = {.head = -1};
    bool current = false;
    cr_assert(store_begin(conn, &err));
    cr_assert(sealed_choices_hold_match(conn, 27, 0, &current, &err), "%s",
              err.message);
    cr_expect(current);
    cr_assert(sealed_choices_hold_match(conn, 27, 5, &current, &err));
    cr_expect(!current);
    store_rollback(conn);
    store_match_free(&match);
    PQfinish(conn);
}
