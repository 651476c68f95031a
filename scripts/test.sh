#!/usr/bin/env bash
# test.sh BUILD SUITE…: every test suite, each against a fresh database of
# its own, two suites at a time (PBEM_TEST_LANES=1: one after the other,
# their lines as they come). A SUITE is a Criterion binary, or a browser
# test tests/web/*.test.mjs. PBEM_TEST_FILTER, when set, is passed to each
# Criterion suite as its --filter ("games/*"), to run some tests of a suite
# while working on them.
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
    url_of() { scripts/pg.sh url "$1"; }
else
    admin=$DATABASE_URL
    psql -X -q -v ON_ERROR_STOP=1 "$admin" -c "CREATE DATABASE \"$db\"" || {
        echo "pbem: cannot create a test database with DATABASE_URL's user" >&2; exit 1; }
    url_of() {
        python3 -c 'import sys,urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/"+sys.argv[2])))' "$admin" "$1"
    }
fi
# Drops the database $1 and those named $1_…, in one session. A run makes
# some 250 (each suite's <db>_s<n>, and the private ones its tests make
# beside it, <db>_s<n>_p_…, see tests/support/e2e.h); a psql and a
# connection for each drop doubled its cost, and dropping them all at the
# end took make test a minute more.
drop_databases() {
    psql -X -q "$admin" >/dev/null 2>&1 <<SQL
SELECT format('DROP DATABASE IF EXISTS %I WITH (FORCE)', datname)
  FROM pg_database WHERE datname = '$1' OR starts_with(datname, '$1_') \gexec
SQL
}
# The test database and whatever a suite left.
cleanup() {
    drop_databases "$db"
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
# The run's database is migrated once and copied for each suite and each
# private database a test makes (PBEM_TEST_TEMPLATE, tests/support/e2e.h):
# migrating each of the 250 of a run cost PostgreSQL 0.3 s of CPU apiece.
# Nothing connects to it after, as PostgreSQL requires of a template.
DATABASE_URL=$(url_of "$db") "$build/pbemd" migrate > "$TMPDIR/migrate.log" 2>&1 || {
    cat "$TMPDIR/migrate.log" >&2; echo "pbem: cannot migrate the test database $db" >&2; exit 1; }
export PBEM_TEST_TEMPLATE=$db

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
# Each run records in its own scratch folder: two runs at once (two
# terminals, or a loop beside make test) shared var/'s file, each emptying
# and checking the other's. A failing check leaves its file in var/.
record="$TMPDIR/e2e-responses.jsonl"
: > "$record"
export PBEM_E2E_RECORD="$record"
# Two suites run at a time (PBEM_TEST_LANES), each in a database of its
# own: many suites wait on servers, mail and browsers more than they
# compute. One at a time took 1,257 s on two cores; two at a time 1,126 s,
# the cores 98 % busy, and three at a time gained nothing (1,111 s against
# 1,112). The longest start first, so that the lanes end together; the
# rest keep the order given. Each suite's lines are printed whole when it ends, then its
# wall-clock seconds, so a slow one shows where make test's time goes.
lanes=${PBEM_TEST_LANES:-2}
[[ $lanes =~ ^[1-9][0-9]?$ ]] || {
    echo "pbem: PBEM_TEST_LANES is a count of suites at a time, 1 to 99, not \"$lanes\"" >&2; exit 2; }
first=(service/mailin tests/web/browser.test.mjs service/failover service/notify
       rules/antiquity_quest rules/another_mans_treasure)
name_of() {
    local n=${1#"$build"/tests/}
    echo "${n%/suite}"
}
queue=()
for want in "${first[@]}"; do
    for suite in "$@"; do
        [ "$(name_of "$suite")" = "$want" ] && queue+=("$suite")
    done
done
for suite in "$@"; do
    [[ " ${first[*]} " == *" $(name_of "$suite") "* ]] || queue+=("$suite")
done
[ "${#queue[@]}" -lt "$lanes" ] && lanes=${#queue[@]}
# live: its lines go to the terminal as they come (one lane), not only
# to its log.
run_suite() {
    local i=$1 suite=$2 live=$3 name log rc line
    name=$(name_of "$suite")
    log="$TMPDIR/suite-$i.log"
    psql -X -q "$admin" -c "CREATE DATABASE \"${db}_s$i\" TEMPLATE \"$db\"" > "$log" 2>&1 || {
        echo "$name: cannot create its database ${db}_s$i" >> "$TMPDIR/suite-$i.recap"
        echo "0 0 0 1 1 0" > "$TMPDIR/suite-$i.result"; return; }
    export DATABASE_URL; DATABASE_URL=$(url_of "${db}_s$i")
    # A browser test (tests/web/*.test.mjs, node driving chromium) reports
    # "[browser] Tested: N | Passing: P | Failing: F", one per check.
    if [[ $suite == *.mjs ]]; then
        if [ "$live" = 1 ]; then node "$suite" 2>&1 | tee -a "$log"; rc=${PIPESTATUS[0]}
        else node "$suite" >> "$log" 2>&1; rc=$?; fi
        line=$(grep -a '\[browser\] Tested:' "$log" | tail -1)
        [ -n "$line" ] && line="$line | Crashing: 0"
    else
        # Two tests at a time, one a core; the mail suite's tests mostly
        # wait for mail to come and go, so four of them fill the two
        # cores (264 s against 212 s on a quiet machine). PBEM_TEST_JOBS,
        # when set, is every suite's.
        local jobs=2
        [ "$name" = service/mailin ] && jobs=4
        local args=(--jobs "${PBEM_TEST_JOBS:-$jobs}" ${PBEM_TEST_FILTER:+--filter "$PBEM_TEST_FILTER"})
        if [ "$live" = 1 ]; then "$suite" "${args[@]}" 2>&1 | tee -a "$log"; rc=${PIPESTATUS[0]}
        else "$suite" "${args[@]}" >> "$log" 2>&1; rc=$?; fi
        line=$(grep -a 'Synthesis: Tested:' "$log" | tail -1)
    fi
    local t=0 p=0 f=0 c=1
    if [ -n "$line" ]; then
        read -r t p f c <<<"$(sed -E 's/.*Tested: ([0-9]+) \| Passing: ([0-9]+) \| Failing: ([0-9]+) \| Crashing: ([0-9]+).*/\1 \2 \3 \4/' <<<"$line")"
    fi
    # Sanitizer builds (tests/lsan.supp says why this is not a suppression):
    # a leak allocated by libcriterion.so itself (the first frame after the
    # allocator is in it) is the runner's own, which makes a passing
    # runner exit non-zero; any other leak is ours, and since Criterion
    # counts a test passed before its worker exits and LeakSanitizer reports
    # at that exit (or at pbemd's), its report is what fails the suite.
    if grep -aq 'ERROR: LeakSanitizer' "$log"; then
        local ours
        ours=$(awk '/^(Direct|Indirect) leak of/ { want = 1; next }
            want && /^ *#1 / { if ($0 !~ /libcriterion\.so/) n++; want = 0 }
            END { print n + 0 }' "$log")
        if [ "$ours" -gt 0 ]; then
            echo "pbem: $name: LeakSanitizer reported $ours leak(s) of ours (above)" |
                if [ "$live" = 1 ]; then tee -a "$log" >&2; else cat >> "$log"; fi
            f=$((f+1)); rc=1
        elif [ -n "$line" ] && [ "$f" -eq 0 ] && [ "$c" -eq 0 ]; then
            rc=0
        fi
    fi
    if [ "$rc" -ne 0 ]; then
        # Criterion's failed tests and the assertions they failed (its
        # "[----]" lines, less its banner), or a browser test's failed checks
        # (the first line of each).
        { echo "$name:"
          grep -a -E '^\[(FAIL|----)\]' "$log" |
              grep -a -v -E 'Criterion v[0-9]|Running [0-9]+ tests?' | tail -40
          [ -z "$line" ] && echo "  (no synthesis line: the suite crashed or was killed; its last lines are above)"
        } >> "$TMPDIR/suite-$i.recap"
    fi
    # Its databases go as it ends, beside the other lane's suite, rather
    # than all at the end.
    drop_databases "${db}_s$i"
    # The CPU seconds of the suite and the processes it started (pbemd,
    # browsers, Dovecot…), not of PostgreSQL: with lanes, the cores are
    # what make test waits for, so this says which suite costs them.
    # (times itself, not in $(…), whose subshell has no children.)
    local cpu
    times > "$TMPDIR/suite-$i.times"
    cpu=$(tail -1 "$TMPDIR/suite-$i.times" | awk '{ split($1, u, /[ms]/);
        split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
    echo "$t $p $f $c $rc $cpu" > "$TMPDIR/suite-$i.result"
}
declare -A running=() began=()
# Prints suite i's lines (unless they went by live) and adds up its result.
suite_ended() {
    local i=$1 t p f c rc cpu
    [ "$lanes" -gt 1 ] && { echo "== $(name_of "${queue[$i]}")"; cat "$TMPDIR/suite-$i.log"; }
    read -r t p f c rc cpu < "$TMPDIR/suite-$i.result"
    tested=$((tested+t)) passing=$((passing+p)) failing=$((failing+f)) crashing=$((crashing+c))
    if [ "$rc" -ne 0 ]; then
        status=1
        cat "$TMPDIR/suite-$i.recap" >> "$recap" 2>/dev/null
    fi
    echo "   $((SECONDS - began[$i])) s, ${cpu:-?} s of CPU"
}
# Waits for the next suite of those running to end.
reap_one() {
    local ended
    wait -n -p ended "${!running[@]}"
    suite_ended "${running[$ended]}"
    unset "running[$ended]"
}
for i in "${!queue[@]}"; do
    [ "${#running[@]}" -ge "$lanes" ] && reap_one
    # With lanes, a line when it starts too: a run cut short still says
    # which suites it was in.
    if [ "$lanes" -eq 1 ]; then echo "== $(name_of "${queue[$i]}")"
    else echo "-- $(name_of "${queue[$i]}") starts"; fi
    began[$i]=$SECONDS
    run_suite "$i" "${queue[$i]}" "$((lanes == 1))" &
    running[$!]=$i
done
while [ "${#running[@]}" -gt 0 ]; do
    reap_one
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
        mkdir -p var && cp "$record" var/e2e-responses.jsonl
        echo "e2e responses: some do not match openapi.yaml (above; every answer recorded is in var/e2e-responses.jsonl)" >> "$recap"
    fi
fi
echo "   all: $SECONDS s"
if [ -s "$recap" ]; then
    echo "== what failed (each suite's own lines are above)"
    cat "$recap"
fi
echo "[====] Synthesis: Tested: $tested | Passing: $passing | Failing: $failing | Crashing: $crashing"
exit $status
