#!/bin/sh
# ir_counts.sh BASE NEW [graphs...] — instructions executed (valgrind
# callgrind's Ir, whole process: start-up, reading, partitioning, writing) by
# `BASE|NEW partition -k 8 --device cpu --quiet FILE --out P` and by `gpmetis
# FILE.graph 8`, one run each: a measure of work that other sessions' load
# does not disturb (wall clock on this shared machine does). OpenMP threads
# wait passively (OMP_WAIT_POLICY=passive) so that no spinning is counted;
# Ir sums both threads' instructions. DATA: the shared graphs; METIS_GRAPHS:
# their .graph forms (../2026-11-24-cpu-backend/prepare_graphs.sh).
set -eu
base=$1; new=$2; shift 2
data=${DATA:-../shared/data}; mg=${METIS_GRAPHS:-/tmp/metis-graphs}
graphs=${*:-karate jgl009 Ragusa16 GD97_b chesapeake lesmis west0067 kahip_example_weighted test_mgraph 1138_bus jagmesh7 power bcspwr10 polblogs bcsstk13 rajat01 p2p-Gnutella06 PGPgiantcompo bayer10 4elt astro-ph delaunay_n15 rgg_n_2_15_s0 wing copter2 road-NY mdual road-FLA}
tmp=$(mktemp -d)
ir() { OMP_WAIT_POLICY=passive valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" >/dev/null 2>&1; sed -n 's/^summary: //p; s/^totals: //p' "$tmp/cg" | head -1; rm -f "$tmp/cg"; }
echo "| graph | before Ir (M) | after Ir (M) | gpmetis Ir (M) | after / gpmetis |"
echo "|---|---:|---:|---:|---:|"
for g in $graphs; do
    f=; for e in .graph .graph.gz .mtx .mtx.gz; do [ -e "$data/$g$e" ] && f=$data/$g$e && break; done
    a=$(ir "$base" partition -k 8 --device cpu --quiet "$f" --out "$tmp/p")
    b=$(ir "$new" partition -k 8 --device cpu --quiet "$f" --out "$tmp/p")
    m=$(ir gpmetis "$mg/$g.graph" 8)
    awk -v g="$g" -v a="$a" -v b="$b" -v m="$m" 'BEGIN { printf "| %s | %.1f | %.1f | %.1f | %.2f |\n", g, a/1e6, b/1e6, m/1e6, b/m }'
done
rm -rf "$tmp"
