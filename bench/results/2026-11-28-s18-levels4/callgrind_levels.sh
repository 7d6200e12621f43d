#!/bin/sh
# callgrind_levels.sh — instructions (callgrind: repeatable) of
# `coarsen --levels 10 --device cpu --threads T FILE` per build, in millions:
# the whole run, the levels (build_levels inclusive), HEC (hec_cpu), the
# contraction (contract_cpu), its placement (place_rows) and its gather
# (gather_rows). s16-levels' script, with COARSEN_ONE_PROCESS=1 (the program
# forks at start since session 17) and every function counted (threshold 100).
#   sh callgrind_levels.sh BUILD FILE...      (environment: THREADS, default 1)
# One line per graph: name total levels hec contract place gather.
set -u
build=$1
shift
thr=${THREADS:-1}
for f in "$@"; do
    out=/tmp/cg-levels.$$.out
    COARSEN_ONE_PROCESS=1 valgrind --tool=callgrind --callgrind-out-file=$out "$build"/coarsen --quiet --device cpu \
        --threads "$thr" --levels 10 "$f" > /dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 $out 2> /dev/null | awk -v name="$(basename "$f")" '
        function m(s) { gsub(",", "", s); return s / 1e6 }
        /PROGRAM TOTALS/ { t = m($1) }
        /hierarchy.c:build_levels \[/ { l = m($1) }
        /hec_cpu.c:hec_cpu \[/ { h = m($1) }
        /contract_cpu.c:contract_cpu \[/ { c = m($1) }
        /contract_cpu.c:place_rows._omp_fn.0 \[/ { p += m($1) }
        /contract_cpu.c:gather_rows._omp_fn.0 \[/ { g += m($1) }
        END { printf "%s %.1f %.1f %.1f %.1f %.1f %.1f\n", name, t, l, h, c, p, g }'
    rm -f $out
done
