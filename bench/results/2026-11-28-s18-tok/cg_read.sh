#!/bin/sh
# cg_read.sh — callgrind instructions of `coarsen --threads T --levels L
# --device cpu FILE` in one process (COARSEN_ONE_PROCESS=1), per build: the
# whole process, the read (inclusive coarsen_graph_load plus the inflating
# thread: all of it at 1 thread) and the METIS parse (the largest inclusive
# parse_chunk* entry: parse_chunk, or parse_chunk_rows where not inlined).
#   LEVELS=10 sh cg_read.sh THREADS BUILD_DIR... -- FILE...
# One line per file and build: file T build total_Ir read_Ir parse_Ir.
t=$1
shift
builds=
while [ "$1" != "--" ]; do builds="$builds $1"; shift; done
shift
out=$(mktemp)
for f in "$@"; do
    for b in $builds; do
        COARSEN_ONE_PROCESS=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$b/coarsen" --threads "$t" \
            --levels "${LEVELS:-10}" --device cpu "$f" > /dev/null 2>&1
        callgrind_annotate --auto=no --inclusive=yes "$out" 2> /dev/null | awk -v f="$(basename "$f")" -v t="$t" -v b="$b" '
            /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
            /graph_load.c:coarsen_graph_load / || /text_input.c:inflate_thread / { gsub(",", "", $1); read += $1 }
            /metis_read.c:parse_chunk/ { gsub(",", "", $1); if ($1 + 0 > parse + 0) parse = $1 }
            END { print f, t, b, total, read, parse }'
    done
done
rm -f "$out"
