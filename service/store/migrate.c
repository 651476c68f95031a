/* migrate.c */
#include "store/migrate.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "core/log.h"

#define MIGRATIONS_MAX 256
/* Any constant works; it only has to be the same in every process. */
#define MIGRATION_LOCK_KEY "7243010101"

typedef struct migration_file {
    int version;
    char name[200];
} migration_file;

static int by_version(const void *a, const void *b)
{
    return ((const migration_file *)a)->version -
           ((const migration_file *)b)->version;
}

static int list_migrations(const char *dir, migration_file *files, apierr *err)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        apierr_set(err, 500, "migrations_missing",
                   "cannot open the migrations folder %s; run from the "
                   "checkout or set PBEM_MIGRATIONS",
                   dir);
        return -1;
    }
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        size_t len = strlen(entry->d_name);
        int version;
        if (len < 5 || strcmp(entry->d_name + len - 4, ".sql") != 0)
            continue;
        if (sscanf(entry->d_name, "%d_", &version) != 1 || version <= 0)
            continue;
        if (count == MIGRATIONS_MAX || len >= sizeof files[0].name)
            break;
        files[count].version = version;
        memcpy(files[count].name, entry->d_name, len + 1);
        count++;
    }
    closedir(d);
    qsort(files, (size_t)count, sizeof *files, by_version);
    for (int i = 1; i < count; i++) {
        if (files[i].version == files[i - 1].version) {
            apierr_set(err, 500, "migrations_conflict",
                       "two migrations share number %d: %s and %s",
                       files[i].version, files[i - 1].name, files[i].name);
            return -1;
        }
    }
    return count;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text == NULL || fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        fclose(f);
        return NULL;
    }
    text[size] = '\0';
    fclose(f);
    return text;
}

static bool apply_one(PGconn *conn, const char *dir, const migration_file *file,
                      apierr *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file->name);
    char *sql = read_file(path);
    if (sql == NULL)
        return apierr_set(err, 500, "migrations_missing", "cannot read %s",
                          path);
    db_params params = {0};
    db_params_int(&params, file->version);
    db_params_text(&params, file->name);
    bool ok = db_command(conn, "BEGIN", 0, NULL, err);
    if (ok) {
        PGresult *result = PQexec(conn, sql);
        if (PQresultStatus(result) != PGRES_COMMAND_OK &&
            PQresultStatus(result) != PGRES_TUPLES_OK) {
            char detail[300];
            snprintf(detail, sizeof detail, "%s",
                     PQresultErrorMessage(result));
            detail[strcspn(detail, "\n")] = '\0';
            ok = apierr_set(err, 500, "migration_failed",
                            "migration %s failed: %s", file->name, detail);
        }
        PQclear(result);
    }
    if (ok)
        ok = db_command(conn,
                        "INSERT INTO schema_migrations (version, name) "
                        "VALUES ($1, $2)",
                        params.count, params.values, err);
    if (ok)
        ok = db_command(conn, "COMMIT", 0, NULL, err);
    else
        PQclear(PQexec(conn, "ROLLBACK"));
    free(sql);
    if (ok)
        log_info("applied migration %s", file->name);
    return ok;
}

bool migrate_apply(PGconn *conn, const char *dir, int *applied, apierr *err)
{
    migration_file files[MIGRATIONS_MAX];
    int count = list_migrations(dir, files, err);
    if (applied != NULL)
        *applied = 0;
    if (count < 0)
        return false;
    const char *lock[] = {MIGRATION_LOCK_KEY};
    if (!db_command(conn, "SELECT pg_advisory_lock($1::bigint)", 1, lock, err))
        return false;
    bool ok = db_command(conn,
                         "CREATE TABLE IF NOT EXISTS schema_migrations ("
                         " version integer PRIMARY KEY, name text NOT NULL,"
                         " applied_at timestamptz NOT NULL DEFAULT now())",
                         0, NULL, err);
    PGresult *result = NULL;
    if (ok)
        result = db_query(conn,
                          "SELECT version, name FROM schema_migrations "
                          "ORDER BY version",
                          0, NULL, PGRES_TUPLES_OK, err);
    ok = result != NULL;
    int known_max = count > 0 ? files[count - 1].version : 0;
    for (int row = 0; ok && row < PQntuples(result); row++) {
        int version = atoi(PQgetvalue(result, row, 0));
        if (version > known_max)
            ok = apierr_set(err, 500, "database_newer",
                            "the database has migration %s, newer than this "
                            "service knows (up to %d); run a newer pbemd",
                            PQgetvalue(result, row, 1), known_max);
    }
    for (int i = 0; ok && i < count; i++) {
        bool done = false;
        for (int row = 0; row < PQntuples(result); row++) {
            if (atoi(PQgetvalue(result, row, 0)) == files[i].version)
                done = true;
        }
        if (done)
            continue;
        ok = apply_one(conn, dir, &files[i], err);
        if (ok && applied != NULL)
            (*applied)++;
    }
    PQclear(result);
    apierr unlock_err;
    db_command(conn, "SELECT pg_advisory_unlock($1::bigint)", 1, lock,
               &unlock_err);
    return ok;
}
