#!/bin/sh
# wall.sh BASE NEW [graphs...] — wall seconds, median of RUNS (7) runs
# interleaved base / new, of the user's command `coarsen --levels 10
# --device cpu --quiet FILE` and of `coarsen partition -k 8 --device cpu
# --quiet FILE --out P` (all threads of the machine, or --threads $THREADS)
# on the shared files as they are (gzip; COARSEN_DATA may name a folder of
# uncompressed copies instead). Medians of interleaved runs, since the
# machine is shared: a load that comes and goes falls on both builds alike.
set -eu
base=$1; new=$2; shift 2
data=${COARSEN_DATA:-/work/shared/data}; runs=${RUNS:-7}
graphs=${*:-copter2 mdual road-NY road-FLA astro-ph wing delaunay_n15}
th=${THREADS:+--threads $THREADS}
tmp=$(mktemp -d)
now() { date +%s.%N; }
med() { sort -g "$1" | awk '{a[NR]=$1} END {printf "%.4f", (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "threads: ${THREADS:-all}; data: $data; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| graph | levels before s | levels after s | after / before | partition before s | partition after s | after / before |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for g in $graphs; do
    f=; for e in .graph.gz .mtx.gz .graph .mtx; do [ -e "$data/$g$e" ] && f=$data/$g$e && break; done
    : > "$tmp/la"; : > "$tmp/lb"; : > "$tmp/pa"; : > "$tmp/pb"
    i=0
    while [ $i -lt "$runs" ]; do
        for b in a b; do
            p=$base; [ $b = b ] && p=$new
            t0=$(now); "$p" $th --levels 10 --device cpu --quiet "$f" > /dev/null; t1=$(now)
            awk "BEGIN { print $t1 - $t0 }" >> "$tmp/l$b"
            t0=$(now); "$p" partition -k 8 --device cpu $th --quiet "$f" --out "$tmp/part" > /dev/null; t1=$(now)
            awk "BEGIN { print $t1 - $t0 }" >> "$tmp/p$b"
        done
        i=$((i + 1))
    done
    la=$(med "$tmp/la"); lb=$(med "$tmp/lb"); pa=$(med "$tmp/pa"); pb=$(med "$tmp/pb")
    awk -v g="$g" -v la="$la" -v lb="$lb" -v pa="$pa" -v pb="$pb" 'BEGIN { printf "| %s | %.4f | %.4f | %.2f | %.4f | %.4f | %.2f |\n", g, la, lb, lb/la, pa, pb, pb/pa }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$tmp"
