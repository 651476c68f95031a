#!/usr/bin/env bash
# header_guards.sh [--fix] [TOP]: every header's include guard is its path from
# the top of the tree, upper-cased, with each other character an
# underscore (service/store/events.h: SERVICE_STORE_EVENTS_H), so a guard
# never needs thought and two headers never share one. Without --fix it
# lists the headers whose guard is not that and exits 1 if there are any.
set -euo pipefail
fix=
if [ "${1:-}" = "--fix" ]; then fix=--fix; shift; fi
cd "${1:-$(dirname "$0")/..}"
bad=0
while IFS= read -r header; do
    want=$(printf '%s' "$header" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9\n' '_')
    have=$(awk '/^#ifndef / { print $2; exit }' "$header")
    define=$(awk '/^#define / { print $2; exit }' "$header")
    [ "$have" = "$want" ] && [ "$define" = "$want" ] && continue
    if [ "$fix" = "--fix" ] && [ -n "$have" ]; then
        sed -i -E "0,/^#ifndef $have\$/s//#ifndef $want/; 0,/^#define $have\$/s//#define $want/; s@^#endif( *)/\\*\\s*$have\\s*\\*/@#endif\\1/* $want */@" "$header"
    else
        echo "pbem: $header: include guard ${have:-missing}, expected $want" >&2
        bad=1
    fi
done < <( { find service rules client cli tests bench examples -name '*.h' -not -path '*/node_modules/*' 2>/dev/null || true; } | sort)
exit $bad
