/* db_params.h: the parameters of one libpq statement, numbers included.
 *
 * libpq takes every parameter as text. Instead of each query formatting
 * its numbers into buffers of a guessed size, a statement collects its
 * parameters here in order ($1, $2, …) and hands count and values to
 * db_query / db_command (db.h):
 *
 *     db_params p = {0};
 *     db_params_int(&p, match_id);
 *     db_params_text(&p, kind);
 *     PGresult *r = db_query(conn, sql, p.count, p.values, …);
 *
 * Strings are borrowed, so they must outlive the statement; numbers are
 * copied into the struct. Everything lives on the caller's stack. */
#ifndef SERVICE_STORE_DB_PARAMS_H
#define SERVICE_STORE_DB_PARAMS_H

#define DB_PARAMS_MAX 16

typedef struct db_params {
    int count;
    const char *values[DB_PARAMS_MAX];
    char numbers[DB_PARAMS_MAX][24]; /* a long long in decimal fits */
} db_params;

/* Appends value as decimal text. More than DB_PARAMS_MAX parameters is a
 * programming error: it aborts with file:line. */
void db_params_int(db_params *params, long long value);

/* Appends text (borrowed; NULL is SQL NULL). Aborts like db_params_int. */
void db_params_text(db_params *params, const char *text);

/* The text of a bigint[] parameter, "{1,2,3}" ("{}" for none), for
 * db_params_text: malloc'd, the caller frees it after the statement. */
char *db_params_int_array(const long long *values, int count);

#endif
