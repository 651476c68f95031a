/* toy_table.c: see toy_table.h. */
#include "toy_table.h"

#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/pgtest.h"
#include "play/append.h"
#include "store/db.h"
#include "store/migrate.h"
#include "store/players.h"

/* This process's db.h connections use a fresh schema with every
 * migration applied. */
PGconn *toy_table_database(void)
{
    cr_assert(sodium_init() >= 0);
    char schema[64];
    PGconn *setup = pgtest_fresh_schema(schema);
    apierr err;
    cr_assert(migrate_apply(setup, "migrations", NULL, &err), "%s",
              err.message);
    PQfinish(setup);
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url);
    char with_schema[1024];
    snprintf(with_schema, sizeof with_schema, "%s%soptions=-csearch_path%%3D%s",
             url, strchr(url, '?') != NULL ? "&" : "?", schema);
    cr_assert(db_init(with_schema, &err), "%s", err.message);
    PGconn *conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    return conn;
}

/* Appends events (stolen) to match in a transaction of their own. */
void toy_table_append(PGconn *conn, store_match *match,
                      const rules_state *before, const rules_state *state,
                      const char *status, json_t **events, int count)
{
    apierr err;
    cr_assert(store_begin(conn, &err), "%s", err.message);
    append_change change = {.events = events,
                            .count = count,
                            .state = state,
                            .before = before,
                            .status = status,
                            .tell = APPEND_TELL_NOBODY};
    cr_assert(append_events(conn, match, &toy_engine, &change, NULL, &err),
              "%s", err.message);
    cr_assert(store_commit(conn, &err), "%s", err.message);
    for (int i = 0; i < count; i++)
        json_decref(events[i]);
}

/* A started two-seat toy match of Ann (seat 0) and Bob (seat 1). */
rules_state *toy_table_match(PGconn *conn, store_match *match)
{
    apierr err;
    long long players[2];
    char key_id[40];
    const char *names[2] = {"Ann", "Bob"};
    memset(match, 0, sizeof *match);
    match->match_id = 4242;
    strcpy(match->game, "toy");
    match->engine_version = 1;
    match->options = json_object();
    match->seat_count = 2;
    strcpy(match->status, "open");
    cr_assert(store_begin(conn, &err), "%s", err.message);
    for (int s = 0; s < 2; s++) {
        char email[32];
        snprintf(email, sizeof email, "%s@example.org", names[s]);
        cr_assert(store_create_player(conn, names[s], email, NULL, &players[s],
                                      key_id, &err),
                  "%s", err.message);
        match->seat_player[s] = players[s];
        snprintf(match->seat_name[s], sizeof match->seat_name[s], "%s",
                 names[s]);
    }
    match->created_by = players[0];
    cr_assert(store_insert_match(conn, match, &err), "%s", err.message);
    for (int s = 0; s < 2; s++)
        cr_assert(store_insert_seat(conn, match->match_id, s, players[s], &err),
                  "%s", err.message);
    cr_assert(store_commit(conn, &err), "%s", err.message);
    json_t *events[] = {
        json_pack("{s:s,s:{}}", "kind", "created", "data"),
        json_pack("{s:s,s:i,s:{}}", "kind", "joined", "seat", 0, "data"),
        json_pack("{s:s,s:i,s:{}}", "kind", "joined", "seat", 1, "data"),
        json_pack("{s:s,s:{}}", "kind", "started", "data")};
    toy_table_append(conn, match, NULL, NULL, "active", events, 4);
    uint8_t seed[RULES_SEED_BYTES] = {1};
    rules_error rerr = {{0}};
    rules_state *state = toy_engine.setup(NULL, 2, seed, &rerr);
    cr_assert_not_null(state, "%s", rerr.message);
    return state;
}
