#!/bin/sh
# Instructions of `coarsen info FILE` under callgrind at THREADS threads, for
# each binary: the whole run, and the build = the instructions executed in
# core/graph_build.c's own code (self cost, inlined helpers included, every
# thread; calls into libc/libgomp left out).
# usage: [THREADS=1] callgrind_build.sh FILE BIN...
f=$1
shift
tmp=$(mktemp -d)
for bin in "$@"; do
    OMP_NUM_THREADS=${THREADS:-1} valgrind --tool=callgrind --separate-threads=yes \
        --callgrind-out-file="$tmp/cg.out" "$bin" --threads "${THREADS:-1}" info "$f" >/dev/null 2>"$tmp/log"
    total=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log")
    build=0
    for t in "$tmp"/cg.out*; do
        b=$(callgrind_annotate --auto=no --threshold=100 "$t" 2>/dev/null | grep 'core/graph_build.c:' |
            awk '{gsub(",", "", $1); s += $1} END {print s + 0}')
        build=$((build + b))
        rm -f "$t"
    done
    echo "$(basename "$f") threads=${THREADS:-1} $bin total=$total build=$build"
done
rm -rf "$tmp"
