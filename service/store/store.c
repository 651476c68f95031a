/* store.c: the transaction and public ids (store.h). */
#include "store/store.h"

#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"

bool store_begin(PGconn *conn, apierr *err)
{
    return db_begin(conn, err);
}

bool store_begin_shared(PGconn *conn, long long match_id, apierr *err)
{
    return db_begin_shared(conn, match_id, err);
}

bool store_begin_read_only(PGconn *conn, apierr *err)
{
    return db_command(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
                      0, NULL, err);
}

bool store_commit(PGconn *conn, apierr *err)
{
    return db_command(conn, "COMMIT", 0, NULL, err);
}

void store_rollback(PGconn *conn)
{
    db_rollback(conn);
}

void store_match_ref(long long match_id, char out[32])
{
    snprintf(out, 32, "m_%lld", match_id);
}

void store_player_ref(long long player_id, char out[32])
{
    snprintf(out, 32, "p_%lld", player_id);
}

/* The id after prefix ("m_", "p_"): decimal digits without a leading
 * zero, sign or space, that fit a bigint; 0 otherwise, so each id has one
 * spelling. */
static long long parse_ref(const char *text, const char *prefix)
{
    size_t skip = strlen(prefix);
    if (text == NULL || strncmp(text, prefix, skip) != 0)
        return 0;
    const char *digits = text + skip;
    size_t n = strlen(digits);
    if (n == 0 || n > 19 || digits[0] < '1' || digits[0] > '9' ||
        strspn(digits, "0123456789") != n)
        return 0;
    errno = 0;
    long long id = strtoll(digits, NULL, 10);
    return errno == ERANGE ? 0 : id;
}

long long store_parse_match_ref(const char *text)
{
    return parse_ref(text, "m_");
}

long long store_parse_player_ref(const char *text)
{
    return parse_ref(text, "p_");
}
