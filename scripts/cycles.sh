#!/usr/bin/env bash
# cycles.sh [DIR]: fails when service/'s modules include each other in a
# loop, or when its folders (subsystems) do.
#
# A module is name.c with name.h; "a includes b's header" is the edge
# a -> b, because in C a call needs the declaration. A loop of such edges
# means none of the modules in it can be read, tested or changed alone,
# which is what this project's layering forbids (docs/architecture.md).
# The folder graph is the same graph with each module replaced by its
# folder: subsystems form layers, so no folder may need one that needs it.
# The folders' order is written down below (LAYERS, lowest first; folders
# in one layer are separated by '|' and may not include each other): an
# include from a folder to one in a higher layer, or to another in its own,
# fails too, so the layering of docs/architecture.md cannot drift.
# Prints every loop it finds (tsort names one per strongly connected
# part) and exits 1; prints a one-line summary and exits 0 otherwise.
set -euo pipefail
dir=${1:-service}
cd "$(dirname "$0")/.."

# "from to" pairs: module paths relative to $dir, without .c/.h.
module_edges() {
    local file from to
    while IFS= read -r file; do
        from=${file#"$dir"/}
        from=${from%.[ch]}
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$file" |
            while IFS= read -r to; do
                # Only headers of this tree: rules.h and system headers are
                # below every service module.
                [ -f "$dir/$to.h" ] || continue
                [ "$to" = "$from" ] || printf '%s %s\n' "$from" "$to"
            done
    done < <(find "$dir" -name '*.[ch]' | sort)
}

# tsort prints "tsort: -: input contains a loop:" followed by the loop's
# members on stderr, once per loop it has to break.
loops_of() {
    tsort 2>&1 >/dev/null <<<"$1" |
        sed -e 's/^tsort: -: input contains a loop:$/loop:/' -e 's/^tsort: /  /' || true
}

LAYERS="core ledger store auth deadlines|notify play timers|admin|mailin|streams chat http"

# The layer number of a folder, or nothing for one not in LAYERS.
layer_of() {
    local i=0 layer
    for layer in $LAYERS; do
        case "|$layer|" in *"|$1|"*) echo "$i"; return ;; esac
        i=$((i + 1))
    done
}

edges=$(module_edges | sort -u)
folder_edges=$(awk '{ split($1, a, "/"); split($2, b, "/");
                      if (a[1] != b[1]) print a[1], b[1] }' <<<"$edges" | sort -u)
module_loops=$(loops_of "$edges")
folder_loops=$(loops_of "$folder_edges")
status=0
if [ -n "$module_loops" ]; then
    echo "cycles: modules of $dir/ include each other in a loop:"
    sed 's/^/  /' <<<"$module_loops"
    status=1
fi
if [ -n "$folder_loops" ]; then
    echo "cycles: folders of $dir/ need each other in a loop:"
    sed 's/^/  /' <<<"$folder_loops"
    status=1
fi
upward=""
while read -r from to; do
    [ -n "$from" ] || continue
    from_layer=$(layer_of "$from") to_layer=$(layer_of "$to")
    if [ -z "$from_layer" ] || [ -z "$to_layer" ]; then
        # main.c (the root) may include anything; a new folder must be
        # given its place in LAYERS first.
        [ "$from" = "${from%/*}" ] && [ -f "$dir/$from.c" ] && continue
        upward="$upward  $from -> $to: add the folder to LAYERS in $0"$'\n'
    elif [ "$to_layer" -ge "$from_layer" ]; then
        upward="$upward  $from -> $to"$'\n'
    fi
done <<<"$folder_edges"
if [ -n "$upward" ]; then
    echo "cycles: folders of $dir/ include a folder of their own layer or above"
    echo "  (layers, lowest first: $LAYERS):"
    printf '%s' "$upward"
    status=1
fi
if [ "$status" -eq 0 ]; then
    echo "cycles: none in $dir/ ($(wc -l <<<"$edges") include edges between" \
         "$(tr ' ' '\n' <<<"$edges" | sort -u | wc -l) modules," \
         "$(wc -l <<<"$folder_edges") between folders)"
fi
exit "$status"
