#!/usr/bin/env bash
# check_sql.sh [TOP]: SQL lives in service/store/, one module per table or close
# group of tables, so that a schema change touches one file (migrations/
# hold the schema itself). Fails, naming file and line, on a string
# literal that starts an SQL statement, or on a call that runs one
# (libpq's PQexec*, PQprepare, PQsendQuery*, or store/db.h's db_query and
# db_command), in the service's or the command line's C files outside
# service/store/. Tests and benchmarks may query the database directly to
# set a scene or check one, as an admin would. A line that only looks
# like SQL (IMAP has a SELECT too) says so with the words "not SQL" in a
# comment on it or on the line above it.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
statement='"[[:space:]]*(SELECT|INSERT[[:space:]]+INTO|UPDATE[[:space:]]+[a-z_]+[[:space:]]+SET|DELETE[[:space:]]+FROM|WITH[[:space:]]+[a-z_]+[[:space:]]+AS|(UN)?LISTEN|NOTIFY|LOCK[[:space:]]+TABLE|TRUNCATE|BEGIN|COMMIT|ROLLBACK|SET[[:space:]]+(LOCAL|SESSION))([[:space:]"]|$)'
runs='(^|[^a-z_])(PQexec|PQexecParams|PQexecPrepared|PQprepare|PQsendQuery|PQsendQueryParams|PQsendQueryPrepared|db_query|db_command)[[:space:]]*[(]'
files=$( { find service cli client -name '*.[ch]' -not -path 'service/store/*' 2>/dev/null || true; } | sort)
[ -n "$files" ] || exit 0
found=$(awk -v statement="$statement" -v runs="$runs" '
    FNR == 1 { previous = "" }
    ($0 ~ statement || $0 ~ runs) && $0 !~ /not SQL/ && previous !~ /not SQL/ {
        print FILENAME ":" FNR ":" $0
    }
    { previous = $0 }' $files)
if [ -n "$found" ]; then
    echo "$found"
    echo "pbem: SQL outside service/store/ ($(wc -l <<<"$found") lines above): move each statement into the store module of its table" >&2
    exit 1
fi
echo "check_sql: no SQL outside service/store/"
