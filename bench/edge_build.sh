#!/bin/sh
# edge_build.sh — the edge-list build of Matrix Market reading (core/graph_build.c)
# for one or more coarsen programs, run in turn (interleaved) on the same
# file: per program and thread count the medians of RUNS runs of the read's
# parse and build phases and of the command's wall time (`coarsen --device
# cpu --levels LEVELS`; stderr's "coarsen: time:" line), and the largest
# maximum RSS (/usr/bin/time, when present).
#
#   sh bench/edge_build.sh PROG...            (e.g. base/build/coarsen build/coarsen)
#   THREADS="1 16" RUNS=7 sh bench/edge_build.sh PROG...
#   FILE=x.mtx sh bench/edge_build.sh PROG... (an existing file instead)
#
# Without FILE, the first program writes GEN (default rgg 2^23, degree 12:
# 5.0e7 stored entries, 1.0e8 adjacency entries) to $TMPDIR/edge_build.mtx
# once. One line per program and thread count, key=value.
set -u
[ $# -ge 1 ] || { echo "usage: sh bench/edge_build.sh PROG..." >&2; exit 2; }
runs=${RUNS:-5}
levels=${LEVELS:-1}
tmp=${TMPDIR:-/tmp}/edge_build
gen=${GEN:-rgg --vertices 8388608 --degree 12 --seed 1}
mkdir -p "$tmp"
file=${FILE:-$tmp/../edge_build.mtx}
if [ ! -e "$file" ]; then
    # shellcheck disable=SC2086
    "$1" --quiet gen $gen -o "$file" || exit 1
fi
rss=""
[ -x /usr/bin/time ] && rss="/usr/bin/time -f rss_kb=%M"

median() { sort -g | awk '{a[NR]=$1} END {if (NR) printf "%.1f", (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

for t in ${THREADS:-16}; do
    k=0
    for p in "$@"; do : > "$tmp/runs.$k"; k=$((k + 1)); done
    i=0
    while [ "$i" -lt "$runs" ]; do
        k=0
        for p in "$@"; do
            # shellcheck disable=SC2086
            $rss "$p" --threads "$t" --device cpu --levels "$levels" "$file" > /dev/null 2> "$tmp/err" ||
                { echo "failed: $p" >&2; cat "$tmp/err" >&2; exit 1; }
            phases=$(sed -n 's/^coarsen: time: read [0-9.]* ms (inflate [0-9.]*, parse \([0-9.]*\), build \([0-9.]*\)).* wall \([0-9.]*\) ms.*/\1 \2 \3/p' "$tmp/err")
            echo "$phases $(sed -n 's/^rss_kb=//p' "$tmp/err")" >> "$tmp/runs.$k"
            k=$((k + 1))
        done
        i=$((i + 1))
    done
    k=0
    for p in "$@"; do
        f=$tmp/runs.$k
        echo "prog=$p threads=$t runs=$runs parse_ms=$(cut -d' ' -f1 "$f" | median)" \
            "build_ms=$(cut -d' ' -f2 "$f" | median) wall_ms=$(cut -d' ' -f3 "$f" | median)" \
            "max_rss_kb=$(cut -d' ' -f4 "$f" | sort -g | tail -1) builds=$(cut -d' ' -f2 "$f" | sort -g | tr '\n' ' ')"
        k=$((k + 1))
    done
done
rm -rf "$tmp"
