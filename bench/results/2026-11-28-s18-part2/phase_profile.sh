#!/bin/sh
# phase_profile.sh COARSEN FILE [K] — where `COARSEN partition -k K --device cpu` spends its
# instructions (callgrind, whole process, COARSEN_ONE_PROCESS=1 so that the work is not in a
# forked child; OMP_WAIT_POLICY=passive): the inclusive counts of the phases' entry points as
# their callers see them (coarsen_hierarchy_build: the hierarchies, the V-cycles' included;
# partition_metis: the METIS runs; partition_refine_level under multilevel.c: the coarsest
# level's runs refined and polished; partition_uncoarsen; partition_vcycle; partition_polish_cpu:
# every polish call), then the 12 costliest functions by their own instructions.
set -eu
prog=$1; file=$2; k=${3:-8}
out=$(mktemp)
COARSEN_ONE_PROCESS=1 OMP_WAIT_POLICY=passive valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$prog" partition -k "$k" --device cpu --quiet "$file" --out "$out.part" > /dev/null 2>&1
callgrind_annotate "$out" | grep TOTALS
callgrind_annotate --inclusive=yes --auto=yes "$out" 2>/dev/null |
    grep -E "=> .*(coarsen_hierarchy_build|partition_metis|partition_refine_level|partition_uncoarsen|partition_vcycle|partition_polish_cpu) \(" | sort -u
callgrind_annotate "$out" | sed -n '/file:function/,$p' | sed -n 3,14p
rm -f "$out" "$out.part"
