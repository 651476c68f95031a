/* store_support.h: what the store suites set up alike: a schema of its
 * own with every migration applied, and a match row to append to. */
#ifndef TESTS_SERVICE_STORE_STORE_SUPPORT_H
#define TESTS_SERVICE_STORE_STORE_SUPPORT_H

#include <libpq-fe.h>

#include "store/matches.h"

/* A fresh schema (its name written to schema) with the migrations
 * applied; the connection uses it. */
PGconn *store_test_schema(char *schema);

/* Inserts an open two-seat "toy" match with id into *match. */
void store_test_match(PGconn *conn, store_match *match, long long id);

/* Expects err to be the 503 a database that does not answer in time
 * gives, retry_after set, after took_ms: less than 3 s with a limit of
 * 400 ms. */
void store_expect_unavailable_in_time(const apierr *err, long long took_ms);

#endif
