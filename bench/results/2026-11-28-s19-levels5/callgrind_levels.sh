#!/bin/sh
# callgrind_levels.sh — instructions (callgrind: repeatable) of
# `coarsen --quiet --device cpu --threads 1 --levels 10 FILE`, one process
# (COARSEN_ONE_PROCESS=1), in millions: the whole run, the levels
# (build_levels inclusive), HEC (hec_cpu), its choices (match_strongest_cpu)
# and its two-hop step (two_hop_cpu), the contraction (contract_cpu), its
# gather (gather_rows) and its placement (place_rows). s18-levels4's script
# with the choices and two-hop columns.
#   sh callgrind_levels.sh BUILD FILE...
# One line per graph.
set -u
build=$1
shift
for f in "$@"; do
    out=${TMPDIR:-/tmp}/cg-levels.$$.out
    COARSEN_ONE_PROCESS=1 OMP_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=$out "$build"/coarsen \
        --quiet --device cpu --threads 1 --levels 10 "$f" > /dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 $out 2> /dev/null | awk -v name="$(basename "$f")" '
        function m(s) { gsub(",", "", s); return s / 1e6 }
        /PROGRAM TOTALS/ { t = m($1) }
        /hierarchy.c:build_levels \[/ { l = m($1) }
        /hec_cpu.c:hec_cpu \[/ { h = m($1) }
        /match_cpu.c:match_strongest_cpu \[/ { s = m($1) }
        /two_hop_cpu.c:two_hop_cpu \[/ { th = m($1) }
        /contract_cpu.c:contract_cpu \[/ { c = m($1) }
        /contract_cpu.c:gather_rows._omp_fn.0 \[/ { g += m($1) }
        /contract_cpu.c:place_rows._omp_fn.0 \[/ { p += m($1) }
        END { printf "%s total %.2f levels %.2f hec %.2f strongest %.2f twohop %.2f contract %.2f gather %.2f place %.2f\n",
              name, t, l, h, s, th, c, g, p }'
    rm -f $out
done
