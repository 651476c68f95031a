#!/usr/bin/env bash
# test.sh BUILD SUITE…: every test suite against a fresh test database. A
# SUITE is a Criterion binary, or a browser test tests/web/*.test.mjs.
# PBEM_TEST_FILTER, when set, is passed to each Criterion suite as its
# --filter ("games/*"), to run some tests of a suite while working on them.
# Uses the private PostgreSQL of this checkout unless DATABASE_URL names a
# server (whose user may create databases). Ends with one Criterion-style
# synthesis line over all suites and a non-zero exit on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
build=$1
shift
db="pbem_test_$(date +%s)_$$"
if [ -z "${DATABASE_URL:-}" ]; then
    scripts/pg.sh start || exit 1
    scripts/pg.sh createdb "$db" || exit 1
    admin=$(scripts/pg.sh url postgres)
    export DATABASE_URL; DATABASE_URL=$(scripts/pg.sh url "$db")
else
    admin=$DATABASE_URL
    psql -X -q -v ON_ERROR_STOP=1 "$admin" -c "CREATE DATABASE \"$db\"" || {
        echo "pbem: cannot create a test database with DATABASE_URL's user" >&2; exit 1; }
    DATABASE_URL=$(python3 -c 'import sys,urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/"+sys.argv[2])))' "$admin" "$db")
    export DATABASE_URL
fi
# Drops the test database and the private ones tests made beside it
# (named <db>_p_…, see tests/support/e2e.h).
cleanup() {
    local d
    for d in $(psql -X -tA "$admin" -c "SELECT datname FROM pg_database WHERE starts_with(datname, '${db}_p_')") "$db"; do
        psql -X -q "$admin" -c "DROP DATABASE IF EXISTS \"$d\" WITH (FORCE)"
    done >/dev/null 2>&1
}
# The tests' scratch files (pbemd key files…) live and die with this run.
TMPDIR=$(mktemp -d -t pbem-test.XXXXXX)
export TMPDIR
trap 'cleanup; rm -rf "$TMPDIR" "${recap:-}"' EXIT
export PBEM_BIN="$PWD/$build/pbemd" PBEM_CLI="$PWD/$build/pbem"
# The suites play whole matches at machine speed from one address, far
# past what production's rate limits allow a person or a bot (hundreds of
# requests a second); the limits stay on, with room for that. The rate
# limit suite sets its own budgets.
export PBEM_RATE_ANONYMOUS=${PBEM_RATE_ANONYMOUS:-1000000/60}
export PBEM_RATE_PLAYER=${PBEM_RATE_PLAYER:-1000000/60}
# Answers to mailed moves go at once, as the suites wait for each; the
# suites of merged answers set their own hold.
export PBEM_MAIL_ANSWER_HOLD_SECONDS=${PBEM_MAIL_ANSWER_HOLD_SECONDS:-0}
# Players the suites drive over HTTP still get every turn by mail; the
# suite of the page's players sets its own window.
export PBEM_MAIL_SEEN_MINUTES=${PBEM_MAIL_SEEN_MINUTES:-0}
# Sanitizer builds: only the test runner library's own leak is suppressed.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
echo "pbem: test database $db"

if [ -f web/package-lock.json ]; then
    if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; then
        (cd web && npm ci --no-audit --no-fund --loglevel=error) || {
            echo "pbem: npm ci in web/ failed (is the npm registry reachable?)" >&2; exit 1; }
    fi
fi
if [ -f tests/node/package.json ]; then
    if [ ! -d tests/node/node_modules ] || [ tests/node/package-lock.json -nt tests/node/node_modules ]; then
        (cd tests/node && npm ci --no-audit --no-fund --loglevel=error) || {
            echo "pbem: npm ci in tests/node failed (is the npm registry reachable?)" >&2; exit 1; }
    fi
fi

# The example JavaScript bot (examples/bots/js), played by tests/service/bots.
if [ -f examples/bots/js/package.json ]; then
    if [ ! -d examples/bots/js/node_modules ] || [ examples/bots/js/package-lock.json -nt examples/bots/js/node_modules ]; then
        (cd examples/bots/js && npm ci --no-audit --no-fund --loglevel=error) || {
            echo "pbem: npm ci in examples/bots/js failed (is the npm registry reachable?)" >&2; exit 1; }
    fi
fi

tested=0 passing=0 failing=0 crashing=0 status=0
# What failed, repeated at the end: a CI log is often read from its tail,
# where the suites' own lines are long gone.
recap=$(mktemp)
if [ -f openapi.yaml ]; then
    echo "== openapi.yaml lint (redocly)"
    if tests/node/node_modules/.bin/redocly lint --config tests/node/redocly.yaml openapi.yaml; then
        tested=$((tested+1)); passing=$((passing+1))
    else
        tested=$((tested+1)); failing=$((failing+1)); status=1
        echo "openapi.yaml lint: redocly found problems (above)" >> "$recap"
    fi
fi
# The types a bot author generates from openapi.yaml must compile ordinary
# bot code (tests/node/bot.ts) under tsc --strict: open objects (actions,
# options, views, event data) must be declared open.
if [ -f openapi.yaml ] && [ -f tests/node/bot.ts ]; then
    echo "== openapi.yaml types: openapi-typescript, then tsc --strict on a bot"
    types="$TMPDIR/openapi-types"
    mkdir -p "$types" && cp tests/node/bot.ts "$types/"
    tested=$((tested+1))
    if tests/node/node_modules/.bin/openapi-typescript openapi.yaml -o "$types/api.d.ts" >/dev/null &&
        tests/node/node_modules/.bin/tsc --strict --noEmit --target es2022 \
            --module esnext --moduleResolution bundler "$types/bot.ts"; then
        passing=$((passing+1))
    else
        failing=$((failing+1)); status=1
        echo "openapi.yaml types: the bot does not compile against them (above)" >> "$recap"
    fi
fi
record="$PWD/var/e2e-responses.jsonl"
mkdir -p var && : > "$record"
export PBEM_E2E_RECORD="$record"
# Each suite's wall-clock seconds are printed after its lines, so a slow
# one shows where make test's time goes.
for suite in "$@"; do
    name=${suite#"$build"/tests/}; name=${name%/suite}
    echo "== $name"
    began=$SECONDS
    log=$(mktemp)
    # A browser test (tests/web/*.test.mjs, node driving chromium) reports
    # "[browser] Tested: N | Passing: P | Failing: F", one per check.
    if [[ $suite == *.mjs ]]; then
        node "$suite" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        line=$(grep -a '\[browser\] Tested:' "$log" | tail -1)
        [ -n "$line" ] && line="$line | Crashing: 0"
    else
        # Two tests at a time, one a core; the mail suite's tests mostly
        # wait for mail to come and go, so four of them fill the two
        # cores (264 s against 212 s on a quiet machine). PBEM_TEST_JOBS,
        # when set, is every suite's.
        jobs=2
        [ "$name" = service/mailin ] && jobs=4
        "$suite" --jobs "${PBEM_TEST_JOBS:-$jobs}" \
            ${PBEM_TEST_FILTER:+--filter "$PBEM_TEST_FILTER"} 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        line=$(grep -a 'Synthesis: Tested:' "$log" | tail -1)
    fi
    if [ -n "$line" ]; then
        read -r t p f c <<<"$(sed -E 's/.*Tested: ([0-9]+) \| Passing: ([0-9]+) \| Failing: ([0-9]+) \| Crashing: ([0-9]+).*/\1 \2 \3 \4/' <<<"$line")"
        tested=$((tested+t)) passing=$((passing+p)) failing=$((failing+f)) crashing=$((crashing+c))
    else
        crashing=$((crashing+1))
    fi
    # Sanitizer builds (tests/lsan.supp says why this is not a suppression):
    # a leak allocated by libcriterion.so itself (the first frame after the
    # allocator is in it) is the runner's own, which makes a passing
    # runner exit non-zero; any other leak is ours, and since Criterion
    # counts a test passed before its worker exits and LeakSanitizer reports
    # at that exit (or at pbemd's), its report is what fails the suite.
    if grep -aq 'ERROR: LeakSanitizer' "$log"; then
        ours=$(awk '/^(Direct|Indirect) leak of/ { want = 1; next }
            want && /^ *#1 / { if ($0 !~ /libcriterion\.so/) n++; want = 0 }
            END { print n + 0 }' "$log")
        if [ "$ours" -gt 0 ]; then
            echo "pbem: $name: LeakSanitizer reported $ours leak(s) of ours (above)" >&2
            failing=$((failing+1)); status=1
        elif [ -n "$line" ] && [ "$f" -eq 0 ] && [ "$c" -eq 0 ]; then
            rc=0
        fi
    fi
    if [ "$rc" -ne 0 ]; then
        status=1
        # Criterion's failed tests and the assertions they failed (its
        # "[----]" lines, less its banner), or a browser test's failed checks
        # (the first line of each).
        { echo "$name:"
          grep -a -E '^\[(FAIL|----)\]' "$log" |
              grep -a -v -E 'Criterion v[0-9]|Running [0-9]+ tests?' | tail -40
          [ -z "$line" ] && echo "  (no synthesis line: the suite crashed or was killed; its last lines are above)"
        } >> "$recap"
    fi
    rm -f "$log"
    echo "   $((SECONDS - began)) s"
done
# The fuzz corpora (tests/fuzz/<target>/), each input once through its
# target built by the ordinary compiler, so that every input make fuzz kept,
# the crashes it found among them, stays a test (under SAN=1 too).
for replay in "$build"/tests/fuzz/*-replay; do
    [ -x "$replay" ] || continue
    target=$(basename "$replay" -replay)
    echo "== fuzz corpus $target"
    began=$SECONDS
    tested=$((tested+1))
    log=$(mktemp)
    if "$replay" "tests/fuzz/$target" 2>"$log"; then
        passing=$((passing+1))
    else
        tail -40 "$log"; failing=$((failing+1)); status=1
        echo "fuzz corpus $target: an input crashed its target (above)" >> "$recap"
    fi
    rm -f "$log"
    echo "   $((SECONDS - began)) s"
done
if [ -s "$record" ]; then
    echo "== e2e responses against openapi.yaml"
    tested=$((tested+1))
    if node tests/node/check-responses.mjs openapi.yaml "$record"; then
        passing=$((passing+1))
    else
        failing=$((failing+1)); status=1
        echo "e2e responses: some do not match openapi.yaml (above)" >> "$recap"
    fi
fi
echo "   all: $SECONDS s"
if [ -s "$recap" ]; then
    echo "== what failed (each suite's own lines are above)"
    cat "$recap"
fi
echo "[====] Synthesis: Tested: $tested | Passing: $passing | Failing: $failing | Crashing: $crashing"
exit $status
