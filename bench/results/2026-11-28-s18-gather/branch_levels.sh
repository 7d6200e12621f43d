#!/bin/sh
# branch_levels.sh — callgrind's branch simulation (--branch-sim=yes:
# repeatable, a model of a simple predictor, not this CPU's) of
# `coarsen --levels 10 --device cpu --threads 1 FILE` per build: instructions
# (M) and conditional-branch mispredicts (k) of the levels (build_levels
# inclusive), HEC (hec_cpu) and the contraction's gather (gather_rows).
#   sh branch_levels.sh BUILD FILE...
# One line per graph: name levels_Ir levels_Bcm hec_Ir hec_Bcm gather_Ir gather_Bcm.
set -u
build=$1
shift
for f in "$@"; do
    out=/tmp/bs-levels.$$.out
    COARSEN_ONE_PROCESS=1 valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file=$out "$build"/coarsen \
        --quiet --device cpu --threads 1 --levels 10 "$f" > /dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 --show-percs=no $out 2> /dev/null | awk -v name="$(basename "$f")" '
        function m(s) { gsub(",", "", s); return s / 1e6 }
        function k(s) { gsub(",", "", s); return s / 1e3 }
        /hierarchy.c:build_levels \[/ { li = m($1); lb = k($3) }
        /hec_cpu.c:hec_cpu \[/ { hi = m($1); hb = k($3) }
        /contract_cpu.c:gather_rows._omp_fn.0 \[/ { gi += m($1); gb += k($3) }
        END { printf "%s %.1f %.0f %.1f %.0f %.1f %.0f\n", name, li, lb, hi, hb, gi, gb }'
    rm -f $out
done
