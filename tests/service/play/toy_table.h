/* toy_table.h: a match of the rules harness's toy engine (toy.c) in a
 * fresh schema, driven through the use cases in this process rather than
 * through pbemd, for the tests of what the doors tell. */
#ifndef TESTS_SERVICE_PLAY_TOY_TABLE_H
#define TESTS_SERVICE_PLAY_TOY_TABLE_H

#include <jansson.h>
#include <libpq-fe.h>

#include "rules.h"
#include "store/matches.h"

extern const rules_engine toy_engine;

/* This process's db.h connections use a fresh schema with every
 * migration applied; returns this thread's connection. */
PGconn *toy_table_database(void);

/* Appends events (count of them, stolen) to match in a transaction of
 * their own, committed (store_commit). */
void toy_table_append(PGconn *conn, store_match *match,
                      const rules_state *before, const rules_state *state,
                      const char *status, json_t **events, int count);

/* A started two-seat toy match (id 4242) of Ann (seat 0) and Bob (seat 1):
 * its state, the caller's to destroy. */
rules_state *toy_table_match(PGconn *conn, store_match *match);

#endif
