#!/bin/sh
# one_member_gzip.sh — reading a one-member gzip file (what plain gzip
# writes: no index) with one or more coarsen programs (say, a build before
# and after io/gzip_split.c): inflate time and the wall clock of
# `coarsen --levels 10` and `coarsen info`, medians of interleaved runs.
#
#   sh bench/one_member_gzip.sh [-n VERTICES] [-r RUNS] [-t "THREADS..."] [-d DIR] COARSEN [COARSEN...]
#
# Generates rgg (VERTICES, default 2097152, degree 12) as .mtx and .graph
# with the first program, gzips each with `gzip -1` and `gzip -6` (one
# member), then for every file and thread count (default "1 2 N", N the
# cores) runs every program RUNS times (default 5), interleaved. Prints per
# file, threads and program:
#   file=x-1.mtx.gz threads=2 prog=PATH inflate_ms=... read_ms=... levels_wall_ms=... info_wall_ms=...
# (medians; inflate_ms and read_ms are what the program reports in --json).
# Needs only coarsen, gzip and a POSIX shell with GNU date (%N).
set -e
vertices=2097152
runs=5
threads=""
dir=""
while getopts n:r:t:d: o; do
    case $o in
    n) vertices=$OPTARG ;;
    r) runs=$OPTARG ;;
    t) threads=$OPTARG ;;
    d) dir=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-n VERTICES] [-r RUNS] [-t THREADS] [-d DIR] COARSEN [COARSEN...]" >&2; exit 2; }
[ -n "$threads" ] || threads="1 2 $(nproc)"
[ -n "$dir" ] || dir=$(mktemp -d)
mkdir -p "$dir"
first=$1

for ext in mtx graph; do
    [ -f "$dir/x.$ext" ] || "$first" gen rgg --vertices "$vertices" --degree 12 -o "$dir/x.$ext" >/dev/null 2>&1
    for level in 1 6; do
        [ -f "$dir/x-$level.$ext.gz" ] || env -u GZIP gzip -$level -c "$dir/x.$ext" >"$dir/x-$level.$ext.gz"
    done
done

now_ms() { echo $(($(date +%s%N) / 1000000)); }
median() { sort -n | sed -n "$(((runs + 1) / 2))p"; }

for file in "$dir"/x-1.mtx.gz "$dir"/x-6.mtx.gz "$dir"/x-1.graph.gz "$dir"/x-6.graph.gz; do
    for t in $threads; do
        k=0
        for prog in "$@"; do : >"$dir/times.$k"; k=$((k + 1)); done
        r=0
        while [ $r -lt "$runs" ]; do
            k=0
            for prog in "$@"; do
                t0=$(now_ms)
                json=$(OMP_NUM_THREADS=$t "$prog" --levels 10 --json "$file" 2>/dev/null)
                t1=$(now_ms)
                OMP_NUM_THREADS=$t "$prog" info "$file" >/dev/null
                t2=$(now_ms)
                inflate=$(echo "$json" | sed -n 's/.*"inflate_ms": *\([0-9.]*\).*/\1/p' | head -1)
                read=$(echo "$json" | sed -n 's/.*"read_ms": *\([0-9.]*\).*/\1/p' | head -1)
                echo "$inflate $read $((t1 - t0)) $((t2 - t1))" >>"$dir/times.$k"
                k=$((k + 1))
            done
            r=$((r + 1))
        done
        k=0
        for prog in "$@"; do
            f="$dir/times.$k"
            echo "file=$(basename "$file") threads=$t prog=$prog" \
                "inflate_ms=$(cut -d' ' -f1 "$f" | median)" \
                "read_ms=$(cut -d' ' -f2 "$f" | median)" \
                "levels_wall_ms=$(cut -d' ' -f3 "$f" | median)" \
                "info_wall_ms=$(cut -d' ' -f4 "$f" | median)"
            k=$((k + 1))
        done
    done
done
