#!/usr/bin/env bash
# bench.sh BUILD: the benchmarks, against a fresh database of the private
# PostgreSQL (or DATABASE_URL's server). Prints figures; asserts nothing.
#   PBEM_BENCH_SECONDS  seconds per measurement (default 10)
#   PBEM_BENCH_RESTORE  matches exported and restored (default 1000)
#   PBEM_BENCH_MAIL_GAMES  the games besides Adel Verplichtet whose mails per
#                       match are counted (default the other four)
#   PBEM_BENCH_ONLY     the sections to run, comma-separated (default all):
#                       engines, moves, growth, notify, mail, ratelimit,
#                       restore, streams, slow, lobby, scale, openloop,
#                       watchers
#   PBEM_BENCH_WATCHERS the watchers section's subscriber counts (default
#                       1000,10000) and PBEM_BENCH_WATCHER_MOVES its moves
#                       (default 50)
#   PBEM_BENCH_SCALE    the scale section's database, MATCHES:EVENTS
#                       (default 10000:100000; BENCH_SCALE is read too;
#                       the issue's figure: 100000:10000000)
#   PBEM_BENCH_SCALE_ROUNDS  rounds of empty and full runs (default 2)
#   PBEM_BENCH_OPENLOOP_MATCHES  the matches the open loop's arrivals play
#                       (default 512)
set -euo pipefail
cd "$(dirname "$0")/.."
# The benchmarks measure the service at full speed from one address: the
# rate limits stay on with room for that (bench/ratelimit sets its own).
export PBEM_RATE_ANONYMOUS=${PBEM_RATE_ANONYMOUS:-1000000/60}
export PBEM_RATE_PLAYER=${PBEM_RATE_PLAYER:-1000000/60}
build=$1
seconds=${PBEM_BENCH_SECONDS:-10}
db="pbem_bench_$$"
scripts/pg.sh start
scripts/pg.sh createdb "$db" >/dev/null
export DATABASE_URL; DATABASE_URL=$(scripts/pg.sh url "$db")
server=
others=()
notify_db="pbem_bench_notify_$$"
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    # A section may have stopped its own already: under set -e a failed
    # kill would end cleanup before the databases are dropped, and the
    # run with 1.
    for pid in "${others[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    scripts/pg.sh dropdb "$db" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "$notify_db" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "${db}_restore_a" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "${db}_restore_b" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "pbem_bench_lobby_$$" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "pbem_bench_scale_empty_$$" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "pbem_bench_scale_full_$$" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "pbem_bench_openloop_$$" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "pbem_bench_watchers_$$" >/dev/null 2>&1 || true
}
trap cleanup EXIT
# wanted SECTION: whether PBEM_BENCH_ONLY (default: every section) names it.
wanted() { [ -z "${PBEM_BENCH_ONLY:-}" ] || [[ ",$PBEM_BENCH_ONLY," == *",$1,"* ]]; }

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(. /etc/os-release; echo "$PRETTY_NAME"), $(psql -X -tAc 'show server_version' "$DATABASE_URL" | cut -d' ' -f1) PostgreSQL"
bench_engines() {
    echo
    echo "== rules engines: random complete games ($((seconds / 5 > 0 ? seconds / 5 : 1)) s per row)"
    "$build/bench/engines" "$((seconds / 5 > 0 ? seconds / 5 : 1))"
}

bench_moves() {
    echo
    echo "== service: signed moves through HTTP, signatures, rules and PostgreSQL"
    out=$(mktemp)
    mkdir -p var
    PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 PBEM_THREADS=${PBEM_THREADS:-16} \
        PBEM_KEY_FILE=var/bench.key "$build/pbemd" >"$out" &
    server=$!
    for _ in $(seq 100); do grep -q serving "$out" && break; sleep 0.1; done
    port=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$out")
    [ -n "$port" ] || { echo "pbemd did not start" >&2; exit 1; }
    # CPU time in clock ticks, from /proc: a process's own (all its threads),
    # the reaped children of this shell (the benchmark clients and pgbench, once
    # they exit), and the private cluster's (the postmaster, the backends it has
    # reaped, and the living ones).
    hz=$(getconf CLK_TCK)
    own_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
    reaped_ticks() { awk '{print $16 + $17}' "/proc/$$/stat"; }
    pg_ticks() {
        local pm t p
        pm=$(head -1 var/pg/postmaster.pid)
        t=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat")
        for p in $(pgrep -P "$pm"); do
            t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
        done
        echo "$t"
    }
    ms_per() { awk -v t="$1" -v n="$2" -v hz="$hz" 'BEGIN{ if (n > 0) printf "%.3f", t * 1000 / hz / n; else print "n/a" }'; }

    declare -A service_rate service_p50 service_p99 raw_rate cpu_line server_cpu raw_cpu
    for clients in 1 16 64; do
        s0=$(own_ticks "$server"); p0=$(pg_ticks); c0=$(reaped_ticks)
        line=$("$build/bench/service" "http://127.0.0.1:$port" antiquity_quest "$clients" "$seconds")
        s1=$(own_ticks "$server"); p1=$(pg_ticks); c1=$(reaped_ticks)
        service_rate[$clients]=$(sed -nE 's/.*moves_per_second=([0-9.]+).*/\1/p' <<<"$line")
        service_p50[$clients]=$(sed -nE 's/.*p50_ms=([0-9.]+).*/\1/p' <<<"$line")
        service_p99[$clients]=$(sed -nE 's/.*p99_ms=([0-9.]+).*/\1/p' <<<"$line")
        accepted=$(sed -nE 's/.*accepted=([0-9]+).*/\1/p' <<<"$line")
        cpu_line[$clients]="pbemd $(ms_per $((s1 - s0)) "$accepted"), PostgreSQL $(ms_per $((p1 - p0)) "$accepted"), client $(ms_per $((c1 - c0)) "$accepted")"
        server_cpu[$clients]=$(ms_per $((s1 - s0 + p1 - p0)) "$accepted")
        echo "  $line"
    done
    # The mail section sets its mail-in rate against this one.
    http_moves_16=${service_rate[16]}
    # The same 64 players from one client thread per core (curl multi): on
    # two shared cores, 64 client threads wait for the scheduler too, and
    # that wait counts in their latency.
    loop_line=$("$build/bench/moves_loop" "http://127.0.0.1:$port" antiquity_quest 64 "$seconds")
    echo "  one client thread per core for 64 players (bench/moves_loop): $loop_line"

    echo
    echo "== raw ceiling: pgbench running the same append statements (no HTTP, signatures, rules)"
    psql -X -q "$DATABASE_URL" -c "INSERT INTO matches (match_id, game, engine_version, options,
        seat_count, status, head_seq, head_hash, sealed_seed, created_by)
        SELECT g, 'bench', 1, '{}', 2, 'active', 0, decode(repeat('00', 32), 'hex'), decode('00', 'hex'), 1
        FROM generate_series(1, 64) g"
    declare -A raw_cpu_line
    for clients in 1 16 64; do
        children=$(pgrep -P "$(head -1 var/pg/postmaster.pid)" | wc -l)
        p0=$(pg_ticks); c0=$(reaped_ticks)
        out_pgbench=$(pgbench -n -M prepared -c "$clients" -j "$(nproc)" -T "$seconds" -f scripts/bench-append.sql \
              "$DATABASE_URL" 2>/dev/null)
        # pgbench's backends end after it does: their CPU is counted once
        # the postmaster has reaped them, not while they are exiting.
        for _ in $(seq 100); do
            [ "$(pgrep -P "$(head -1 var/pg/postmaster.pid)" | wc -l)" -le "$children" ] && break
            sleep 0.02
        done
        p1=$(pg_ticks); c1=$(reaped_ticks)
        tps=$(sed -nE 's/^tps = ([0-9.]+).*/\1/p' <<<"$out_pgbench" | head -1)
        done_count=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' <<<"$out_pgbench")
        raw_rate[$clients]=$(awk -v t="$tps" 'BEGIN{ printf "%.1f", t }')
        raw_cpu_line[$clients]="PostgreSQL $(ms_per $((p1 - p0)) "$done_count"), pgbench $(ms_per $((c1 - c0)) "$done_count")"
        raw_cpu[$clients]=$(ms_per $((p1 - p0 + c1 - c0)) "$done_count")
        echo "  clients=$clients appends_per_second=${raw_rate[$clients]}"
    done

    echo
    printf '%-8s %14s %10s %10s %16s %8s\n' clients "moves/s" "p50 ms" "p99 ms" "raw appends/s" ratio
    for clients in 1 16 64; do
        ratio=$(awk -v a="${service_rate[$clients]}" -v b="${raw_rate[$clients]}" 'BEGIN{ if (b > 0) printf "%.2f", a / b; else print "n/a" }')
        printf '%-8s %14s %10s %10s %16s %8s\n' "$clients" "${service_rate[$clients]}" \
            "${service_p50[$clients]}" "${service_p99[$clients]}" "${raw_rate[$clients]}" "$ratio"
    done
    echo
    echo "CPU ms per accepted move / per raw append (the client, pbemd and PostgreSQL share $(nproc) cores);"
    echo "server/raw: the server's CPU per move (pbemd + PostgreSQL, the client excluded) over the raw"
    echo "append's (PostgreSQL + pgbench), same run (target: 1.5 or less at 16 and 64 clients):"
    for clients in 1 16 64; do
        printf '  clients=%-3s move: %s; raw append: %s; server/raw %s\n' "$clients" "${cpu_line[$clients]}" \
            "${raw_cpu_line[$clients]}" \
            "$(awk -v a="${server_cpu[$clients]}" -v b="${raw_cpu[$clients]}" 'BEGIN{ if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
    done
}

bench_growth() {
    echo
    local clients=${PBEM_BENCH_GROWTH_CLIENTS:-4}
    echo "== growth: signed moves on matches whose logs already hold 10, 1,000 and 10,000 events"
    echo "   ($clients clients, each with its own antiquity_quest matches; the logs are grown by play and"
    echo "   admin rewinds, every $((40)) moves, which also keep them from ending; rewinds are not timed)"
    local gdb="pbem_bench_growth_$$" gdir=var/bench-growth-$$ gout admin events matches
    mkdir -p "$gdir"
    admin=$("$build/bench/growth" keygen "$gdir/admin.key")
    for events in 10 1000 10000; do
        # Enough matches that the timed moves grow each log by a fraction
        # of its size, few enough that making the long ones stays short.
        case $events in 10) matches=50 ;; 1000) matches=8 ;; *) matches=2 ;; esac
        scripts/pg.sh createdb "$gdb" >/dev/null
        gout="$gdir/pbemd-$events.out"
        : >"$gout"
        DATABASE_URL=$(scripts/pg.sh url "$gdb") PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 \
            PBEM_THREADS=${PBEM_THREADS:-16} PBEM_KEY_FILE=var/bench.key PBEM_NOTIFY=0 \
            PBEM_ADMIN_KEY="$admin" "$build/pbemd" >"$gout" 2>&1 &
        local gserver=$!
        for _ in $(seq 100); do grep -q serving "$gout" && break; sleep 0.1; done
        local gport; gport=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$gout")
        [ -n "$gport" ] || { echo "pbemd (growth) did not start" >&2; exit 1; }
        "$build/bench/growth" "http://127.0.0.1:$gport" "$gdir/admin.key" "$clients" "$matches" \
            "$seconds" "$events" | sed 's/^/  /'
        kill "$gserver"; wait "$gserver" 2>/dev/null || true
        scripts/pg.sh dropdb "$gdb" >/dev/null 2>&1 || true
    done
    rm -rf "$gdir"
}

bench_notify() {
    echo
    echo "== notifications: delivered per second to local receivers"
    echo "   (webhooks verified by npm standardwebhooks, mail parsed by smtp-server + mailparser, on the same cores)"
    if [ ! -d tests/node/node_modules ] || [ tests/node/package-lock.json -nt tests/node/node_modules ]; then
        (cd tests/node && npm ci --no-audit --no-fund --loglevel=error) >/dev/null
    fi
    work=$(mktemp -d)
    : > "$work/secrets"
    node tests/node/webhook-receiver.mjs --out "$work/hooks.jsonl" --secrets "$work/secrets" >"$work/hook.out" &
    others+=($!)
    node tests/node/smtp-receiver.mjs --out "$work/mail.jsonl" >"$work/smtp.out" &
    others+=($!)
    for _ in $(seq 100); do grep -q listening "$work/hook.out" && grep -q listening "$work/smtp.out" && break; sleep 0.1; done
    hook_port=$(awk '/listening/{print $2}' "$work/hook.out")
    smtp_port=$(awk '/listening/{print $2}' "$work/smtp.out")
    [ -n "$hook_port" ] && [ -n "$smtp_port" ] || { echo "the receivers did not start" >&2; exit 1; }
    scripts/pg.sh createdb "$notify_db" >/dev/null 2>&1
    notify_url=$(scripts/pg.sh url "$notify_db")
    DATABASE_URL=$notify_url PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 PBEM_KEY_FILE=var/bench.key \
        PBEM_SMTP_URL="smtp://127.0.0.1:$smtp_port" PBEM_WEBHOOK_ALLOW_LOOPBACK=1 \
        PBEM_NOTIFY_BATCH=64 "$build/pbemd" >"$work/pbemd.out" &
    others+=($!)
    for _ in $(seq 100); do grep -q serving "$work/pbemd.out" && break; sleep 0.1; done
    notify_port=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$work/pbemd.out")
    [ -n "$notify_port" ] || { echo "pbemd (notifications) did not start" >&2; exit 1; }
    DATABASE_URL=$notify_url "$build/bench/notify" "http://127.0.0.1:$notify_port" \
        "http://127.0.0.1:$hook_port/hook" "$work/secrets" "${PBEM_BENCH_NOTIFICATIONS:-2000}" |
        sed 's/^/  /'
    verified=$(grep -c '"verified":true' "$work/hooks.jsonl" || true)
    echo "  webhook deliveries verified by standardwebhooks: $verified of $(wc -l <"$work/hooks.jsonl")"
    rm -rf "$work"
}

bench_mail() {
    echo
    mail_matches=${PBEM_BENCH_MAIL_MATCHES:-16}
    mail_rounds=${PBEM_BENCH_MAIL_ROUNDS:-10}
    echo "== mail: messages handled per second ($mail_matches matches, $mail_rounds rounds of one mailed move each)"
    echo "   (the move's mail parsed by GMime, its reply address and sender checked, the move applied, the answer queued)"
    mail_db="pbem_bench_mail_$$"
    mail_dir=var/bench-mail-$$
    mkdir -p "$mail_dir"
    mail_public=$("$build/bench/mail" keygen "$mail_dir/mail.key")
    imap_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    scripts/dovecot.sh start "$mail_dir/dovecot" "$imap_port" pbem bench-secret
    # Each pipe delivery is its own process: a mail server runs several at
    # once (Postfix's default_destination_concurrency_limit is 20), so
    # mail-in is measured one at a time, as before, and 16 at once, on 64
    # matches so that 16 stay busy.
    mail_at_once=16
    mail_at_once_matches=${PBEM_BENCH_MAIL_AT_ONCE_MATCHES:-64}
    mail_at_once_rounds=${PBEM_BENCH_MAIL_AT_ONCE_ROUNDS:-5}
    declare -A mail_line
    # IMAP twice: polling every second, as before, and every 100 ms. Dovecot
    # tells an idling session of new mail about half a second late, so a
    # round of 16 messages waits that long for the worker to wake: the
    # second figure is the worker's own rate.
    for mode in mailin "mailin:$mail_at_once" imap imap:100; do
        mode_db="${mail_db}_${mode//:/_}"
        scripts/pg.sh createdb "$mode_db" >/dev/null
        murl=$(scripts/pg.sh url "$mode_db")
        imap_env=()
        [ "${mode%%:*}" = imap ] && imap_env=(PBEM_IMAP_URL="imap://pbem:bench-secret@127.0.0.1:$imap_port/INBOX" PBEM_IMAP_POLL_MS=$([ "$mode" = imap ] && echo 1000 || echo "${mode#imap:}"))
        env DATABASE_URL="$murl" PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 PBEM_KEY_FILE=var/bench.key \
            PBEM_MAIL_REPLY_TO=pbem@bench.example PBEM_MAIL_INBOUND_KEY="$mail_public" \
            PBEM_MAIL_ANSWERS_PER_HOUR=1000000 PBEM_NOTIFY=0 "${imap_env[@]}" \
            "$build/pbemd" >"$mail_dir/pbemd-${mode%%:*}.out" 2>&1 &
        mail_server=$!
        for _ in $(seq 100); do grep -q serving "$mail_dir/pbemd-${mode%%:*}.out" && break; sleep 0.1; done
        mport=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$mail_dir/pbemd-${mode%%:*}.out")
        [ -n "$mport" ] || { echo "pbemd (mail) did not start" >&2; cat "$mail_dir/pbemd-${mode%%:*}.out" >&2; exit 1; }
        # Without the moves section, the HTTP figure the mail-in rate is
        # set against is measured here, on this pbemd.
        if [ "$mode" = "mailin:$mail_at_once" ] && [ -z "${http_moves_16:-}" ]; then
            http_line=$("$build/bench/service" "http://127.0.0.1:$mport" antiquity_quest 16 "$seconds")
            http_moves_16=$(sed -nE 's/.*moves_per_second=([0-9.]+).*/\1/p' <<<"$http_line")
            echo "  HTTP moves for the ratio (16 clients, this pbemd): $http_line"
        fi
        matches=$mail_matches rounds=$mail_rounds
        [ "$mode" = "mailin:$mail_at_once" ] && { matches=$mail_at_once_matches; rounds=$mail_at_once_rounds; }
        mail_line[$mode]=$(DATABASE_URL="$murl" PBEM_MAIL_REPLY_TO=pbem@bench.example "$build/bench/mail" \
            "http://127.0.0.1:$mport" "${mode/#imap:*/imap}" "$matches" "$rounds" var/bench.key \
            "$mail_dir/mail.key" "$build/pbem" "imap://pbem:bench-secret@127.0.0.1:$imap_port/INBOX")
        echo "  ${mail_line[$mode]}$([ "$mode" = imap:100 ] && echo " poll_ms=100")"
        kill "$mail_server"; wait "$mail_server" 2>/dev/null || true
        scripts/pg.sh dropdb "$mode_db" >/dev/null 2>&1 || true
    done
    # The targets (#42): the pipe at 16 at once at least a quarter of HTTP
    # moves/s at 16 clients, the IMAP worker at least half the pipe's rate.
    field() { sed -nE "s/.* $1=([0-9.]+).*/\1/p" <<<"$2"; }
    pipe_line=${mail_line[mailin:$mail_at_once]}
    pipe_rate=$(field messages_per_second "$pipe_line")
    awk -v n="$(field messages "$pipe_line")" -v a="$(field moves_applied "$pipe_line")" \
        -v s="$(field seconds "$pipe_line")" -v x="$pipe_rate" -v y="${http_moves_16:-0}" -v k="$mail_at_once" 'BEGIN{
        printf "  mail-in, %d at once: %d messages, %d moves applied, %.2f s, %.1f messages/s (HTTP moves/s at 16 clients in this run: %.1f; ratio X/Y = %s, target 0.25)\n",
            k, n, a, s, x, y, (y > 0 ? sprintf("%.2f", x / y) : "n/a") }'
    for mode in imap imap:100; do
        imap_line=${mail_line[$mode]}
        awk -v n="$(field messages "$imap_line")" -v a="$(field moves_applied "$imap_line")" \
            -v s="$(field handled_seconds "$imap_line")" -v x="$(field handled_per_second "$imap_line")" -v y="$pipe_rate" -v k="$mail_at_once" \
            -v poll="$([ "$mode" = imap ] && echo 1000 || echo 100)" 'BEGIN{
            printf "  imap, polling every %d ms: %d messages, %d moves applied, %.2f s from delivery to recorded, %.1f messages/s (ratio to the pipe, %d at once: %s, target 0.5)\n",
                poll, n, a, s, x, k, (y > 0 ? sprintf("%.2f", x / y) : "n/a") }'
    done
    scripts/dovecot.sh stop "$mail_dir/dovecot"
    rm -rf "$mail_dir"
    bench_mail_volume
}

# Mails each player receives for a whole match played by mail only: the
# mail suite's volume test (three people answering each mail with one of
# the moves it lists, every answer to a sealed choice held for the next
# turn's mail), run on its own database.
bench_mail_volume() {
    echo "== mail: mails per player per match (a whole Adel Verplichtet match by mail, 3 players)"
    vol_db="pbem_bench_volume_$$"
    vol_tmp=$(mktemp -d -t pbem-bench.XXXXXX)
    scripts/pg.sh createdb "$vol_db" >/dev/null
    # play_volume GAME: the line of figures of a whole match of GAME.
    play_volume() {
        env DATABASE_URL="$(scripts/pg.sh url "$vol_db")" TMPDIR="$vol_tmp" \
            PBEM_BIN="$PWD/$build/pbemd" PBEM_CLI="$PWD/$build/pbem" \
            PBEM_RATE_ANONYMOUS=1000000/60 PBEM_RATE_PLAYER=1000000/60 \
            PBEM_MAIL_SEEN_MINUTES=0 PBEM_MAIL_VOLUME_GAME="$1" \
            "$build/tests/service/mailin/suite" \
            --filter 'mail_volume/one_mail_per_decision_and_every_mail_answered' 2>&1 |
            sed -nE "s/^$1 by mail, /  $2/p; s/^\[----\] +(.+)\$/  failed: \1/p" || true
    }
    play_volume adel_verplichtet ""
    # The other games, each a whole match by mail of 3 players
    # (PBEM_BENCH_MAIL_GAMES: fewer, or none, for a shorter run).
    echo "== mail: mails per player per match, the other games (a whole match by mail each, 3 players)"
    for game in ${PBEM_BENCH_MAIL_GAMES-antiquity_quest another_mans_treasure quarriors artifact_stack}; do
        play_volume "$game" "$game: "
    done
    vol_admin=$(scripts/pg.sh url postgres)
    for d in $(psql -X -tA "$vol_admin" -c "SELECT datname FROM pg_database WHERE starts_with(datname, '${vol_db}_p_')") "$vol_db"; do
        psql -X -q "$vol_admin" -c "DROP DATABASE IF EXISTS \"$d\" WITH (FORCE)"
    done >/dev/null 2>&1
    rm -rf "$vol_tmp"
}

bench_ratelimit() {
    echo
    echo "== rate limits: a normal client's /healthz and moves while 16 anonymous loops GET /verify"
    echo "   (the flood from one address, the client from another, both behind a trusted proxy; the"
    echo "   verified match is a long one still in play, so each verify reads and hashes its whole log;"
    echo "   the flood runs niced in its own process: an attacker's CPU is not the server's)"
    rl_db="pbem_bench_rate_$$"
    rl_dir=var/bench-rate-$$
    mkdir -p "$rl_dir"
    scripts/pg.sh createdb "$rl_db" >/dev/null
    rl_url=$(scripts/pg.sh url "$rl_db")
    rl_match=
    for limits in off on shared; do
        if [ "$limits" = off ]; then rl_env=(PBEM_RATE_ANONYMOUS=off PBEM_RATE_PLAYER=off)
        # The same budgets kept in PostgreSQL, as several pbemd share them.
        elif [ "$limits" = shared ]; then rl_env=(PBEM_RATE_ANONYMOUS=600/60 PBEM_RATE_PLAYER=1000000/60 PBEM_RATE_SHARED=1)
        # The anonymous budget at its default; the client plays at machine
        # speed, far past what a person does, so its key gets room.
        else rl_env=(PBEM_RATE_ANONYMOUS=600/60 PBEM_RATE_PLAYER=1000000/60); fi
        env DATABASE_URL="$rl_url" PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 PBEM_KEY_FILE=var/bench.key \
            PBEM_TRUSTED_PROXIES=127.0.0.1 PBEM_NOTIFY=0 "${rl_env[@]}" \
            "$build/pbemd" >"$rl_dir/pbemd-$limits.out" 2>&1 &
        rl_server=$!
        for _ in $(seq 100); do grep -q serving "$rl_dir/pbemd-$limits.out" && break; sleep 0.1; done
        rl_port=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$rl_dir/pbemd-$limits.out")
        [ -n "$rl_port" ] || { echo "pbemd (rate limits $limits) did not start" >&2; exit 1; }
        rl_base="http://127.0.0.1:$rl_port"
        if [ -z "$rl_match" ]; then
            setup=$("$build/bench/ratelimit" setup "$rl_base" another_mans_treasure "${PBEM_BENCH_VERIFY_MOVES:-1500}")
            rl_match=$(sed -nE 's/.*match=([^ ]+).*/\1/p' <<<"$setup")
            echo "  verified match: $setup"
        fi
        echo "  limits=$limits quiet: $("$build/bench/ratelimit" measure "$rl_base" "$seconds")"
        nice -n 19 "$build/bench/ratelimit" flood "$rl_base" "$rl_match" "$((seconds + 1))" 16 >"$rl_dir/flood" &
        rl_flood=$!
        sleep 0.5
        measured=$("$build/bench/ratelimit" measure "$rl_base" "$seconds")
        wait "$rl_flood"
        echo "  limits=$limits flood: $measured $(cat "$rl_dir/flood")"
        kill "$rl_server"; wait "$rl_server" 2>/dev/null || true
    done
    scripts/pg.sh dropdb "$rl_db" >/dev/null 2>&1 || true
    rm -rf "$rl_dir"
}

bench_restore() {
    echo
    restore_count=${PBEM_BENCH_RESTORE:-1000}
    echo "== restore: $restore_count exported matches verified (chain, signatures, requests, replay) and restored"
    scripts/pg.sh createdb "${db}_restore_a" >/dev/null
    scripts/pg.sh createdb "${db}_restore_b" >/dev/null
    restore_out=$("$build/bench/restore" "$build/pbemd" "$restore_count" \
        "$(scripts/pg.sh url "${db}_restore_a")" "$(scripts/pg.sh url "${db}_restore_b")")
    sed 's/^/  /' <<<"$restore_out"
    line=$(tail -1 <<<"$restore_out")
    printf '  %s matches restored in %s s: %s matches/s, %s events verified and replayed per second\n' \
        "$(sed -nE 's/.*matches=([0-9]+).*/\1/p' <<<"$line")" \
        "$(sed -nE 's/.*seconds=([0-9.]+).*/\1/p' <<<"$line")" \
        "$(sed -nE 's/.*matches_per_second=([0-9.]+).*/\1/p' <<<"$line")" \
        "$(sed -nE 's/.*events_verified_and_replayed_per_second=([0-9.]+).*/\1/p' <<<"$line")"
}

bench_streams() {
    echo
    echo "== streams: one match's events fanned out to N open spectator streams"
    echo "   (latency: from sending the move to reading its event on a stream, the move's own round trip included)"
    streams_db="pbem_bench_streams_$$"
    scripts/pg.sh createdb "$streams_db" >/dev/null
    streams_out=$(mktemp)
    # Every stream comes from this machine's one address, as from a proxy.
    DATABASE_URL=$(scripts/pg.sh url "$streams_db") PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 \
        PBEM_KEY_FILE=var/bench.key PBEM_TRUSTED_PROXIES=127.0.0.1 PBEM_NOTIFY=0 \
        "$build/pbemd" >"$streams_out" &
    streams_server=$!
    for _ in $(seq 100); do grep -q serving "$streams_out" && break; sleep 0.1; done
    sport=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$streams_out")
    [ -n "$sport" ] || { echo "pbemd (streams) did not start" >&2; exit 1; }
    ulimit -n "$(ulimit -Hn)"
    for n in 10 100 1000; do
        "$build/bench/streams" "http://127.0.0.1:$sport" antiquity_quest "$n" "$seconds" | sed 's/^/  /'
    done
    kill "$streams_server"; wait "$streams_server" 2>/dev/null || true
    scripts/pg.sh dropdb "$streams_db" >/dev/null 2>&1 || true
    rm -f "$streams_out"
}

bench_lobby() {
    echo
    echo "== lobby: quick match among 10,000 waiting seeks; the open-match listing among 100,000 matches"
    echo "   (rows made with COPY; one client, sequential; load: $(cut -d' ' -f1-3 /proc/loadavg))"
    lobby_db="pbem_bench_lobby_$$"
    scripts/pg.sh createdb "$lobby_db" >/dev/null
    lobby_out=$(mktemp)
    DATABASE_URL=$(scripts/pg.sh url "$lobby_db") PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 \
        PBEM_KEY_FILE=var/bench.key PBEM_NOTIFY=0 "$build/pbemd" >"$lobby_out" &
    lobby_server=$!
    others+=("$lobby_server")
    for _ in $(seq 100); do grep -q serving "$lobby_out" && break; sleep 0.1; done
    lport=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$lobby_out")
    [ -n "$lport" ] || { echo "pbemd (lobby) did not start" >&2; exit 1; }
    DATABASE_URL=$(scripts/pg.sh url "$lobby_db") \
        "$build/bench/lobby" "http://127.0.0.1:$lport" "$seconds" "${PBEM_BENCH_LISTINGS:-1000}" | sed 's/^/  /'
    kill "$lobby_server"; wait "$lobby_server" 2>/dev/null || true
    scripts/pg.sh dropdb "$lobby_db" >/dev/null 2>&1 || true
    rm -f "$lobby_out"
}

bench_slow() {
    echo
    echo "== slow clients: a normal client's /healthz while N connections trickle headers a line a second"
    echo "   (the slow ones from 127.0.0.2… at 200 per address, the limit; the deadline is the default 30 s,"
    echo "   so every slow connection is held for the whole measurement; load: $(cut -d' ' -f1-3 /proc/loadavg))"
    slow_db="pbem_bench_slow_$$"
    scripts/pg.sh createdb "$slow_db" >/dev/null
    slow_out=$(mktemp)
    DATABASE_URL=$(scripts/pg.sh url "$slow_db") PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 \
        PBEM_KEY_FILE=var/bench.key PBEM_NOTIFY=0 "$build/pbemd" >"$slow_out" 2>&1 &
    slow_server=$!
    for _ in $(seq 100); do grep -q serving "$slow_out" && break; sleep 0.1; done
    slow_port=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$slow_out")
    [ -n "$slow_port" ] || { echo "pbemd (slow clients) did not start" >&2; exit 1; }
    ulimit -n "$(ulimit -Hn)"
    for n in 0 1000; do
        "$build/bench/slow_clients" "$slow_port" "$n" "$seconds" | sed 's/^/  /'
    done
    kill "$slow_server"; wait "$slow_server" 2>/dev/null || true
    scripts/pg.sh dropdb "$slow_db" >/dev/null 2>&1 || true
    rm -f "$slow_out"
}

# Moves on a database that holds years of play, against an empty one: the
# same 16 clients on new matches, the two databases taking turns (empty,
# full, then full, empty, …) so that the machine's drift falls on both.
bench_scale() {
    echo
    local scale=${PBEM_BENCH_SCALE:-${BENCH_SCALE:-10000:100000}}
    local matches=${scale%%:*} events=${scale##*:}
    local rounds=${PBEM_BENCH_SCALE_ROUNDS:-2}
    echo "== scale: signed moves on new matches (16 clients) with $matches matches and $events events in the database, against an empty one"
    echo "   (rows made with COPY; the two databases take turns, $rounds rounds of $seconds s each; load: $(cut -d' ' -f1-3 /proc/loadavg))"
    local sdir=var/bench-scale-$$ which round line pid servers=()
    local -A url port
    mkdir -p "$sdir"
    for which in empty full; do
        scripts/pg.sh createdb "pbem_bench_scale_${which}_$$" >/dev/null
        url[$which]=$(scripts/pg.sh url "pbem_bench_scale_${which}_$$")
        DATABASE_URL=${url[$which]} PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 \
            PBEM_THREADS=${PBEM_THREADS:-16} PBEM_KEY_FILE=var/bench.key PBEM_NOTIFY=0 \
            "$build/pbemd" >"$sdir/pbemd-$which.out" 2>&1 &
        servers+=($!)
        others+=($!)
        for _ in $(seq 100); do grep -q serving "$sdir/pbemd-$which.out" && break; sleep 0.1; done
        port[$which]=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$sdir/pbemd-$which.out")
        [ -n "${port[$which]}" ] || { echo "pbemd (scale, $which) did not start" >&2; exit 1; }
    done
    DATABASE_URL=${url[full]} "$build/bench/scale" fill "$matches" "$events" | sed 's/^/  /'
    local -A rate p99 wal
    local wal0 wal_kb
    rate[empty]=0 rate[full]=0 p99[empty]=0 p99[full]=0 wal[empty]=0 wal[full]=0
    for round in $(seq "$rounds"); do
        local order="empty full"
        [ $((round % 2)) -eq 0 ] && order="full empty"
        for which in $order; do
            # WAL written per move: the one figure of a run that the
            # machine's load does not move (full-page images of index
            # pages touched for the first time since a checkpoint).
            wal0=$(psql -X -tAc "SELECT pg_current_wal_lsn()" "${url[$which]}")
            line=$("$build/bench/service" "http://127.0.0.1:${port[$which]}" antiquity_quest 16 "$seconds")
            wal_kb=$(psql -X -tAc "SELECT round(pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal0') / 1024
                / greatest($(sed -nE 's/.*accepted=([0-9]+).*/\1/p' <<<"$line"), 1), 2)" "${url[$which]}")
            echo "  database=$which round=$round load=$(cut -d' ' -f1 /proc/loadavg) $line wal_kb_per_move=$wal_kb"
            wal[$which]=$(awk -v a="${wal[$which]}" -v b="$wal_kb" 'BEGIN{ print a + b }')
            rate[$which]=$(awk -v a="${rate[$which]}" -v b="$(sed -nE 's/.*moves_per_second=([0-9.]+).*/\1/p' <<<"$line")" 'BEGIN{ print a + b }')
            p99[$which]=$(awk -v a="${p99[$which]}" -v b="$(sed -nE 's/.*p99_ms=([0-9.]+).*/\1/p' <<<"$line")" 'BEGIN{ print a + b }')
        done
    done
    awk -v fr="${rate[full]}" -v er="${rate[empty]}" -v fp="${p99[full]}" -v ep="${p99[empty]}" -v n="$rounds" 'BEGIN{
        printf "  full/empty over %d rounds: moves/s %.1f/%.1f = %.2f (target 0.90 or more), p99 %.2f/%.2f ms = %.2f (target 1.10 or less)\n",
            n, fr / n, er / n, (er > 0 ? fr / er : 0), fp / n, ep / n, (ep > 0 ? fp / ep : 0) }'
    awk -v fw="${wal[full]}" -v ew="${wal[empty]}" -v n="$rounds" 'BEGIN{
        printf "  full/empty WAL per move: %.2f/%.2f KiB = %.2f\n", fw / n, ew / n, (ew > 0 ? fw / ew : 0) }'
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
    DATABASE_URL=${url[full]} "$build/bench/scale" check "${url[empty]}" | sed 's/^/  /'
    scripts/pg.sh dropdb "pbem_bench_scale_empty_$$" >/dev/null 2>&1 || true
    scripts/pg.sh dropdb "pbem_bench_scale_full_$$" >/dev/null 2>&1 || true
    rm -rf "$sdir"
}

# Moves that arrive on their own clock (bench/open_loop.c): a closed loop's
# latency is a function of its throughput, so the tail is measured at a
# fixed Poisson arrival rate, 50 % and 80 % of the closed-loop capacity
# measured by the same pbemd just before, against one player's p50.
bench_openloop() {
    echo
    local matches=${PBEM_BENCH_OPENLOOP_MATCHES:-512}
    echo "== open loop: signed moves arriving at a fixed rate (Poisson), at 50 % and 80 % of the closed-loop capacity"
    echo "   (latency from each move's due time to its answer; $matches antiquity_quest matches; $seconds s per load;"
    echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg))"
    local odb="pbem_bench_openloop_$$" oout single closed capacity line
    scripts/pg.sh createdb "$odb" >/dev/null
    oout=$(mktemp)
    DATABASE_URL=$(scripts/pg.sh url "$odb") PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 \
        PBEM_THREADS=${PBEM_THREADS:-16} PBEM_KEY_FILE=var/bench.key "$build/pbemd" >"$oout" &
    local oserver=$!
    others+=("$oserver")
    for _ in $(seq 100); do grep -q serving "$oout" && break; sleep 0.1; done
    local oport; oport=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$oout")
    [ -n "$oport" ] || { echo "pbemd (open loop) did not start" >&2; exit 1; }
    local url="http://127.0.0.1:$oport"
    single=$("$build/bench/moves_loop" "$url" antiquity_quest 1 "$seconds")
    closed=$("$build/bench/moves_loop" "$url" antiquity_quest 16 "$seconds")
    echo "  one client, closed loop (bench/moves_loop): $single"
    echo "  16 clients, closed loop (bench/moves_loop): $closed"
    capacity=$(sed -nE 's/.* moves_per_second=([0-9.]+).*/\1/p' <<<"$closed")
    # pbemd's own histogram of the moves, read before and after each load:
    # its time from the request line to the answer, against the client's.
    move_metrics() {
        curl -s "$url/metrics" | grep -F 'route="POST /v1/matches/{id}/moves"' |
            grep -E '_seconds_(bucket|sum|count)' || true
    }
    local pct rate m0 m1 open=
    for pct in 50 80; do
        rate=$(awk -v c="$capacity" -v p="$pct" 'BEGIN{ printf "%.1f", c * p / 100 }')
        m0=$(move_metrics)
        # An error is in the line (failed=, errors=); the figures still print.
        line=$("$build/bench/open_loop" "$url" antiquity_quest "$matches" "$seconds" "$rate") || true
        m1=$(move_metrics)
        echo "  $pct %: $line"
        awk -v a="$m0" -v b="$m1" '
            function read(text, into,   n, i, l, k, v) {
                n = split(text, l, "\n")
                for (i = 1; i <= n; i++) {
                    v = l[i]; sub(/.* /, "", v); k = l[i]
                    if (k ~ /_sum\{/) k = "sum"; else if (k ~ /_count\{/) k = "count"
                    else { sub(/.*le="/, "", k); sub(/".*/, "", k) }
                    into[k] = v
                }
            }
            BEGIN {
                read(a, x); read(b, y); n = y["count"] - x["count"]
                if (n <= 0) { print "  pbemd saw no moves"; exit }
                printf "  pbemd, from the request line to the answer: mean %.2f ms; under 2.5 ms %.1f %%, 5 ms %.1f %%, 10 ms %.1f %%, 25 ms %.1f %%, 100 ms %.1f %%\n",
                    (y["sum"] - x["sum"]) * 1000 / n, 100 * (y["0.0025"] - x["0.0025"]) / n,
                    100 * (y["0.005"] - x["0.005"]) / n, 100 * (y["0.01"] - x["0.01"]) / n,
                    100 * (y["0.025"] - x["0.025"]) / n, 100 * (y["0.1"] - x["0.1"]) / n }'
        open+="$line"$'\n'
    done
    local single_p50; single_p50=$(sed -nE 's/.* p50_ms=([0-9.]+).*/\1/p' <<<"$single")
    echo "open loop: single client p50 $single_p50 ms; closed-loop capacity $capacity moves/s (16 clients)"
    local i=0
    pct=(50 80)
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        awk -v l="$line" -v pct="${pct[$i]}" 'BEGIN{
            n = split(l, kv, " "); for (j = 1; j <= n; j++) { split(kv[j], p, "="); v[p[1]] = p[2] }
            printf "open loop %d %%: %s moves/s offered, %s answered, p50 %s p99 %s p99.9 %s max %s ms, over 1 s: %s (missed arrivals: %s, failed: %s, the client sending late: p99 %s ms)\n",
                pct, v["offered_per_second"], v["answered_per_second"], v["p50_ms"], v["p99_ms"],
                v["p999_ms"], v["max_ms"], v["over_1s"], v["missed"], v["failed"], v["send_lag_p99_ms"] }'
        i=$((i + 1))
    done <<<"$open"
    # The keys with a leading space: send_lag_p99_ms ends like p99_ms.
    awk -v s="$single_p50" -v h="$(sed -nE '1s/.* p99_ms=([0-9.]+).*/\1/p' <<<"$open")" \
        -v o="$(sed -nE '2s/.* over_1s=([0-9]+).*/\1/p' <<<"$open")" 'BEGIN{
        printf "open loop target: p99 at 50 %% / single p50 = %s (target 3 or less); requests over 1 s at 80 %%: %s (target 0)\n",
            (s > 0 && h != "" ? sprintf("%.2f", h / s) : "n/a"), (o != "" ? o : "n/a") }'
    kill "$oserver"; wait "$oserver" 2>/dev/null || true
    scripts/pg.sh dropdb "$odb" >/dev/null 2>&1 || true
    rm -f "$oout"
}

# Ten thousand idle subscribers on one pbemd, and a watched match's moves
# fanned out to them (issue #42).
bench_watchers() {
    echo
    local counts=${PBEM_BENCH_WATCHERS:-1000,10000} moves=${PBEM_BENCH_WATCHER_MOVES:-50}
    local most=${counts##*,} wdb="pbem_bench_watchers_$$" wout pid port
    echo "== watchers: event-stream subscribers ($counts) on one pbemd: RSS per idle subscriber, and $moves moves of a watched match fanned out"
    echo "   (match and player streams, SSE and NDJSON, through 127.0.0.1 as the trusted proxy with X-Forwarded-For;"
    echo "   fan-out: from sending a move to the last subscriber reading its item, p99 over moves; load: $(cut -d' ' -f1-3 /proc/loadavg))"
    scripts/pg.sh createdb "$wdb" >/dev/null
    wout=$(mktemp)
    ulimit -n "$(ulimit -Hn)"
    DATABASE_URL=$(scripts/pg.sh url "$wdb") PBEM_LISTEN=127.0.0.1:0 PBEM_QUIET=1 \
        PBEM_KEY_FILE=var/bench.key PBEM_TRUSTED_PROXIES=127.0.0.1 PBEM_NOTIFY=0 \
        PBEM_STREAMS_MAX=$((most + 100)) PBEM_HTTP_CONNECTIONS=$((most + 500)) \
        PBEM_STREAM_HEARTBEAT_SECONDS=5 "$build/pbemd" >"$wout" 2>&1 &
    pid=$!
    others+=("$pid")
    for _ in $(seq 100); do grep -q serving "$wout" && break; sleep 0.1; done
    port=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$wout")
    [ -n "$port" ] || { echo "pbemd (watchers) did not start" >&2; exit 1; }
    "$build/bench/watchers" "http://127.0.0.1:$port" "$pid" antiquity_quest "$counts" "$moves" | sed 's/^/  /'
    kill "$pid"; wait "$pid" 2>/dev/null || true
    scripts/pg.sh dropdb "$wdb" >/dev/null 2>&1 || true
    rm -f "$wout"
}

for section in engines moves growth notify mail ratelimit restore streams slow lobby scale openloop; do
    if wanted "$section"; then "bench_$section"; fi
done
if wanted watchers; then bench_watchers; fi
