#!/bin/sh
# Medians of interleaved runs of `coarsen --levels 10 FILE`: the read phase
# split (stderr's last line) for two builds, base and new, run alternately.
# usage: [LEVELS=10] read_split.sh BASE_BIN NEW_BIN RUNS THREADS FILE...
base=$1 new=$2 runs=$3 threads=$4
shift 4
tmp=$(mktemp -d)
for f in "$@"; do
    i=0
    while [ $i -lt "$runs" ]; do
        for b in base new; do
            eval bin=\$$b
            "$bin" --threads "$threads" --levels "${LEVELS:-10}" "$f" 2>&1 >/dev/null | tail -1 |
                sed -n 's/.*read \([0-9.]*\) ms (inflate \([0-9.]*\), parse \([0-9.]*\), build \([0-9.]*\)).*/\1 \2 \3 \4/p' >>"$tmp/$b"
        done
        i=$((i + 1))
    done
    for b in base new; do
        printf '%s %s ' "$(basename "$f")" "$b"
        for c in 1 2 3 4; do
            cut -d' ' -f$c "$tmp/$b" | sort -n | awk '{a[NR]=$1} END {printf "%s ", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
        done
        echo
        rm -f "$tmp/$b"
    done
done
rmdir "$tmp"
