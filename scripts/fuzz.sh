#!/usr/bin/env bash
# fuzz.sh TARGET…: builds the libFuzzer binaries of tests/fuzz/ (make FUZZ=1
# fuzz-targets) and runs each target for FUZZ_SECONDS (default 60), one at a
# time, then prints per target the executions run and the crashes found.
#
# Each run starts from the committed corpus tests/fuzz/<target>/ and keeps
# what it finds in var/fuzz/<target>/corpus (not committed). A crash stops
# its target; the input is left in var/fuzz/<target>/crashes/ and named in
# the table: fix the bug, then add the input to tests/fuzz/<target>/ so
# make test replays it from then on. FUZZ_MERGE=1 adds to the committed
# corpus the inputs of var/fuzz/<target>/corpus that reach new code
# (libFuzzer's -merge=1), to refresh it now and then. See docs/fuzzing.md.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
[ $# -gt 0 ] || { echo "usage: $0 TARGET…" >&2; exit 2; }

# clang and libFuzzer's runtime are needed here only, not by make run or
# make test (these replay the corpus with the ordinary compiler), so they
# are checked and installed here rather than in deps.sh.
runtime() {
    command -v clang >/dev/null &&
        [ -f "$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a" ]
}
if ! runtime; then
    echo "pbem: make fuzz needs clang and libFuzzer (Debian: clang libclang-rt-dev); installing them"
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y -q clang libclang-rt-dev >/dev/null 2>&1 || {
        $SUDO apt-get update -q >/dev/null
        $SUDO apt-get install -y -q clang libclang-rt-dev
    }
    runtime || { echo "pbem: clang's libFuzzer runtime is still missing; install clang and libclang-rt-dev" >&2; exit 1; }
fi

make --no-print-directory -j"${JOBS:-2}" FUZZ=1 \
    $(printf 'build-fuzz/tests/fuzz/%s-fuzz ' "$@") || exit 1

# Inputs larger than this are not tried: a mail or an export needs room,
# a move or a body does not.
max_len() {
    case $1 in
        mail|mail_parts|export) echo 16384 ;;
        rules_load) echo 8192 ;;
        *) echo 4096 ;;
    esac
}

rows=() status=0
for target in "$@"; do
    dir=var/fuzz/$target
    mkdir -p "$dir/corpus" "$dir/crashes"
    before=$(ls "$dir/crashes" | wc -l)
    dict=()
    [ -f "tests/fuzz/$target.dict" ] && dict=(-dict="tests/fuzz/$target.dict")
    echo "== fuzz $target for ${seconds} s"
    build-fuzz/tests/fuzz/"$target"-fuzz -max_total_time="$seconds" \
        -max_len="$(max_len "$target")" -close_fd_mask=3 -print_final_stats=1 \
        -artifact_prefix="$dir/crashes/" "${dict[@]}" \
        "$dir/corpus" "tests/fuzz/$target" > "$dir/log" 2>&1
    rc=$?
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$dir/log" | tail -1)
    took=$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' "$dir/log" | tail -1)
    found=$(($(ls "$dir/crashes" | wc -l) - before))
    artifact=$(ls -t "$dir/crashes" | head -1)
    if [ "$rc" -ne 0 ]; then
        status=1
        [ "$found" -eq 0 ] && found=1
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$dir/log" | head -3
        echo "   the input is $dir/crashes/$artifact; the whole report is in $dir/log"
    fi
    if [ "${FUZZ_MERGE:-0}" = 1 ] && [ "$rc" -eq 0 ]; then
        build-fuzz/tests/fuzz/"$target"-fuzz -merge=1 -max_len="$(max_len "$target")" \
            -close_fd_mask=3 "tests/fuzz/$target" "$dir/corpus" >> "$dir/log" 2>&1
    fi
    rows+=("$(printf '%-12s %10s %8s %10s %8s  %s' "$target" "${runs:-?}" "${took:-$seconds}" \
        "$(( ${runs:-0} / (${took:-$seconds} > 0 ? ${took:-$seconds} : 1) ))" "$found" \
        "$([ "$rc" -ne 0 ] && echo "$dir/crashes/$artifact")")")
done
echo
printf '%-12s %10s %8s %10s %8s  %s\n' target executions seconds exec/s crashes input
printf '%s\n' "${rows[@]}"
exit $status
