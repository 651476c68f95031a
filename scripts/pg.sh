#!/usr/bin/env bash
# pg.sh: a private PostgreSQL cluster for this checkout, in ./var/pg.
#   pg.sh start        initdb on first use, start if not running
#   pg.sh url DBNAME   print the connection URL of database DBNAME
#   pg.sh createdb DB  create database DB (fresh); pg.sh dropdb DB
#   pg.sh stop
# It listens on a unix socket only (no TCP port to collide with a system
# server or another checkout). PostgreSQL refuses to run as root, so as root
# the cluster belongs to the unprivileged 'postgres' user.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
data="$top/var/pg"
bindir=$(pg_config --bindir 2>/dev/null || true)
for candidate in "$bindir" /usr/lib/postgresql/*/bin; do
    [ -x "$candidate/initdb" ] && { bindir=$candidate; break; }
done
[ -x "$bindir/initdb" ] || { echo "pbem: PostgreSQL server binaries (initdb) not found; install the postgresql package." >&2; exit 1; }

# A unix socket path is limited to ~107 bytes: a deep checkout gets a short
# folder under /tmp named after a hash of its path.
sockdir="$top/var/run"
if [ ${#sockdir} -gt 80 ]; then
    sockdir="/tmp/pbem-$(printf '%s' "$top" | sha256sum | cut -c1-12)"
fi

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
    mkdir -p "$top/var" "$sockdir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$sockdir"; fi
    chmod 0700 "$sockdir"
    if [ ! -f "$data/PG_VERSION" ]; then
        mkdir -p "$data"
        [ "$(id -u)" -eq 0 ] && chown postgres: "$data"
        as_owner "$bindir/initdb" -D "$data" -U pbem --auth=trust -E UTF8 \
            --locale=C.UTF-8 >"$top/var/initdb.log" 2>&1 \
            || { echo "pbem: initdb failed, see var/initdb.log" >&2; exit 1; }
    fi
    if as_owner "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        return 0
    fi
    as_owner "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$sockdir' -c unix_socket_permissions=0700 -c fsync=on -c max_connections=300 -c shared_preload_libraries=pg_stat_statements" \
        start >/dev/null \
        || { echo "pbem: PostgreSQL did not start; see var/pg/server.log" >&2; exit 1; }
}

url() { printf 'postgresql:///%s?host=%s&user=pbem\n' "$1" "$sockdir"; }

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 "$(url postgres)" "$@"; }

case "${1:-}" in
    start) start ;;
    url) url "$2" ;;
    createdb)
        psql_admin -c "DROP DATABASE IF EXISTS \"$2\"" -c "CREATE DATABASE \"$2\"" ;;
    ensuredb)
        psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$2'" | grep -q 1 \
            || psql_admin -c "CREATE DATABASE \"$2\"" ;;
    dropdb) psql_admin -c "DROP DATABASE IF EXISTS \"$2\" WITH (FORCE)" ;;
    stop) as_owner "$bindir/pg_ctl" -D "$data" -m fast stop ;;
    *) echo "usage: $0 start|url DB|createdb DB|ensuredb DB|dropdb DB|stop" >&2; exit 2 ;;
esac
