#!/bin/sh
# cg_read.sh — callgrind instruction counts of `coarsen --threads T --levels
# 10 --device cpu FILE` (one process), per build: the whole process's total,
# and the read (inclusive coarsen_graph_load on the main thread plus the
# inflating thread; at 1 thread every OpenMP region of the read runs on the
# main thread, so the read is all there).
#   sh cg_read.sh THREADS BUILD_DIR... -- FILE...
# One line per file and build: file T build total_Ir read_Ir.
t=$1
shift
builds=
while [ "$1" != "--" ]; do builds="$builds $1"; shift; done
shift
out=$(mktemp)
for f in "$@"; do
    for b in $builds; do
        COARSEN_ONE_PROCESS=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$b/coarsen" --threads "$t" \
            --levels 10 --device cpu "$f" > /dev/null 2>&1
        callgrind_annotate --auto=no --inclusive=yes "$out" 2> /dev/null | awk -v f="$(basename "$f")" -v t="$t" -v b="$b" '
            /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
            /graph_load.c:coarsen_graph_load / || /text_input.c:inflate_thread / { gsub(",", "", $1); read += $1 }
            END { print f, t, b, total, read }'
    done
done
rm -f "$out"
