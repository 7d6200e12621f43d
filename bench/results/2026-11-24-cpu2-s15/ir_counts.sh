#!/bin/sh
# ir_counts.sh BASE NEW [graphs...] — instructions executed (valgrind
# callgrind's Ir, whole process, one thread) by the user's command
# `coarsen --threads 1 --device cpu --quiet --levels 10 FILE` and by
# `coarsen partition -k 8 --device cpu --threads 1 --quiet FILE --out P`,
# for two builds: a measure of work that other sessions' load on this shared
# machine does not disturb. GRAPHS_DIR holds the shared graphs uncompressed
# (zcat of ../shared/data/NAME.*.gz: inflating is the same in both builds).
set -eu
base=$1; new=$2; shift 2
dir=${GRAPHS_DIR:-/tmp/cpu2-graphs}
graphs=${*:-copter2 mdual road-NY road-FLA astro-ph wing delaunay_n15}
tmp=$(mktemp -d)
ir() { OMP_WAIT_POLICY=passive valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" >/dev/null 2>&1; sed -n 's/^summary: //p; s/^totals: //p' "$tmp/cg" | head -1; rm -f "$tmp/cg"; }
echo "| graph | levels before (M) | levels after (M) | after / before | partition before (M) | partition after (M) | after / before |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for g in $graphs; do
    f=; for e in .graph .mtx; do [ -e "$dir/$g$e" ] && f=$dir/$g$e && break; done
    a=$(ir "$base" --threads 1 --device cpu --quiet --levels 10 "$f")
    b=$(ir "$new" --threads 1 --device cpu --quiet --levels 10 "$f")
    c=$(ir "$base" partition -k 8 --device cpu --threads 1 --quiet "$f" --out "$tmp/p")
    d=$(ir "$new" partition -k 8 --device cpu --threads 1 --quiet "$f" --out "$tmp/p")
    awk -v g="$g" -v a="$a" -v b="$b" -v c="$c" -v d="$d" 'BEGIN { printf "| %s | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f |\n", g, a/1e6, b/1e6, b/a, c/1e6, d/1e6, d/c }'
done
rm -rf "$tmp"
