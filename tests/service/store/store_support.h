/* store_support.h: what the store suites set up alike: a schema of its
 * own with every migration applied, and a match row to append to. */
#ifndef TESTS_SERVICE_STORE_SUPPORT_H
#define TESTS_SERVICE_STORE_SUPPORT_H

#include <libpq-fe.h>

#include "store/store.h"

/* A fresh schema (its name written to schema) with the migrations
 * applied; the connection uses it. */
PGconn *store_test_schema(char *schema);

/* Inserts an open two-seat "toy" match with id into *match. */
void store_test_match(PGconn *conn, store_match *match, long long id);

#endif
