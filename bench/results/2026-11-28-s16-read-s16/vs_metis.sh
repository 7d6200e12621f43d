#!/bin/sh
# Medians of RUNS interleaved runs: METIS 5.1's I/O and coarsening
# (gpmetis -ptype=rb -dbglvl=2 G.graph 2, on the uncompressed file) against
# the read and the whole wall of `coarsen --levels 10` (base, new) on the
# file as stored (G.graph.gz). usage: vs_metis.sh BASE_BIN NEW_BIN RUNS DIR NAME...
base=$1 new=$2 runs=$3 dir=$4
shift 4
med() { sort -n | awk '{a[NR]=$1} END {printf "%s", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for g in "$@"; do
    tmp=$(mktemp -d)
    zcat "$dir/$g.graph.gz" >"$tmp/g.graph"
    i=0
    while [ $i -lt "$runs" ]; do
        gpmetis -ptype=rb -dbglvl=2 "$tmp/g.graph" 2 >"$tmp/m" 2>&1
        awk '/I\/O:/ {print $2 * 1000}' "$tmp/m" >>"$tmp/io"
        awk '/Coarsening:/ {print $2 * 1000}' "$tmp/m" >>"$tmp/co"
        for b in base new; do
            eval bin=\$$b
            "$bin" --threads 2 --levels 10 "$dir/$g.graph.gz" 2>&1 >/dev/null | tail -1 >"$tmp/l"
            sed -n 's/.*read \([0-9.]*\) ms.*/\1/p' "$tmp/l" >>"$tmp/$b.read"
            sed -n 's/.*wall \([0-9.]*\) ms.*/\1/p' "$tmp/l" >>"$tmp/$b.wall"
        done
        i=$((i + 1))
    done
    echo "$g metis_io $(med <"$tmp/io") metis_coarsening $(med <"$tmp/co") base_read $(med <"$tmp/base.read") base_wall $(med <"$tmp/base.wall") new_read $(med <"$tmp/new.read") new_wall $(med <"$tmp/new.wall")"
    rm -rf "$tmp"
done
