#!/bin/sh
# options_tradeoff.sh COARSEN [graphs...] — what the default restarts and
# METIS tries cost and bring: for each graph, k = 8, the cut and the
# instructions (callgrind Ir, whole process, OMP_WAIT_POLICY=passive) of
# `COARSEN partition -k 8 --device cpu` with the defaults, with --restarts 1,
# and with --restarts 1 --metis-tries 1, and gpmetis's Ir. These are
# existing options: no code is changed. DATA, METIS_GRAPHS as ir_counts.sh.
set -eu
c=$1; shift
data=${DATA:-../shared/data}; mg=${METIS_GRAPHS:-/tmp/metis-graphs}
tmp=$(mktemp -d)
ir() { OMP_WAIT_POLICY=passive valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" > "$tmp/out" 2>/dev/null; sed -n 's/^summary: //p; s/^totals: //p' "$tmp/cg" | head -1; rm -f "$tmp/cg"; }
cut() { sed -n 's/^k [0-9]*: cut \([^,]*\),.*/\1/p' "$tmp/out"; }
echo "| graph | default cut | Ir (M) | --restarts 1 cut | Ir (M) | --restarts 1 --metis-tries 1 cut | Ir (M) | gpmetis Ir (M) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for g in "$@"; do
    f=; for e in .graph .graph.gz .mtx .mtx.gz; do [ -e "$data/$g$e" ] && f=$data/$g$e && break; done
    a=$(ir "$c" partition -k 8 --device cpu "$f"); ca=$(cut)
    b=$(ir "$c" partition -k 8 --device cpu --restarts 1 "$f"); cb=$(cut)
    d=$(ir "$c" partition -k 8 --device cpu --restarts 1 --metis-tries 1 "$f"); cd=$(cut)
    m=$(ir gpmetis "$mg/$g.graph" 8)
    awk -v g="$g" -v a="$a" -v b="$b" -v d="$d" -v m="$m" -v ca="$ca" -v cb="$cb" -v cd="$cd" \
        'BEGIN { printf "| %s | %s | %.1f | %s | %.1f | %s | %.1f | %.1f |\n", g, ca, a/1e6, cb, b/1e6, cd, d/1e6, m/1e6 }'
done
rm -rf "$tmp"
