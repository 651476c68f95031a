#!/usr/bin/env bash
# run.sh BUILD: serve pbemd against DATABASE_URL, or against the private
# PostgreSQL of this checkout (started on demand) when it is not set.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
mkdir -p var
if [ -z "${DATABASE_URL:-}" ]; then
    scripts/pg.sh start
    scripts/pg.sh ensuredb pbem
    DATABASE_URL=$(scripts/pg.sh url pbem)
    export DATABASE_URL
    echo "pbem: private PostgreSQL in var/pg (stop it with: scripts/pg.sh stop)"
fi
exec "$build/pbemd"
