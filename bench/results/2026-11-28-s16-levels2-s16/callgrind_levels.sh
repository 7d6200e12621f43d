#!/bin/sh
# callgrind_levels.sh — instructions (callgrind, 1 thread: repeatable) of
# `coarsen --levels 10 FILE` per build: the whole run, the levels
# (build_levels inclusive), HEC (hec_cpu) and the contraction (contract_cpu).
#   sh callgrind_levels.sh BUILD FILE...
# One line per graph: name total levels hec contract (millions).
set -u
build=$1
shift
for f in "$@"; do
    out=/tmp/cg-levels.$$.out
    valgrind --tool=callgrind --callgrind-out-file=$out "$build"/coarsen --quiet --threads 1 --levels 10 "$f" > /dev/null 2>&1
    callgrind_annotate --inclusive=yes $out 2> /dev/null | awk -v name="$(basename "$f")" '
        function m(s) { gsub(",", "", s); return s / 1e6 }
        /PROGRAM TOTALS/ { t = m($1) }
        /hierarchy.c:build_levels \[/ { l = m($1) }
        /hec_cpu.c:hec_cpu \[/ { h = m($1) }
        /contract_cpu.c:contract_cpu \[/ { c = m($1) }
        END { printf "%s %.1f %.1f %.1f %.1f\n", name, t, l, h, c }'
    rm -f $out
done
