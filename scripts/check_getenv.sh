#!/usr/bin/env bash
# check_getenv.sh [DIR]: fails when a file of service/ (or DIR) reads the
# environment anywhere but core/config.c, the one module that owns pbemd's
# configuration: every variable has its row there, with its default, its
# range and its meaning, and is checked once at start (docs/configuration.md
# is written from that table). A getenv elsewhere would be a variable that
# escapes both. Prints each offending line and exits 1; prints a one-line
# summary and exits 0 otherwise.
set -euo pipefail
dir=${1:-service}
cd "$(dirname "$0")/.."

found=$(grep -rnE --include='*.c' --include='*.h' '\b(secure_)?getenv[[:space:]]*\(' "$dir" |
    grep -v "^$dir/core/config\.c:" || true)
if [ -n "$found" ]; then
    printf '%s\n' "$found"
    echo "check_getenv: $dir reads the environment outside $dir/core/config.c;" \
        "add a row to its table and ask config instead" >&2
    exit 1
fi
echo "check_getenv: only $dir/core/config.c reads the environment"
