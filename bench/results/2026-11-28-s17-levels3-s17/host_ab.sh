#!/bin/sh
# host_ab.sh — the user's command `coarsen --levels 10 FILE` (stdout
# discarded) for several builds, runs interleaved build by build within each
# round: medians of the whole process's wall seconds and of stderr's levels
# ms and of the contraction ms summed over the levels (stdout's table); METIS's own I/O + coarsening timers (gpmetis -ptype=rb -dbglvl=2, on
# the inflated / converted METIS copy) once per round. For the lent device
# host, from a pack carried with the working tree:
#   PACK/bin/NAME (the builds), PACK/bin/gpmetis, PACK/lib (libisal, libmetis),
#   PACK/data (the shared files as shipped), PACK/metis (METIS copies).
#   sh host_ab.sh PACK THREADS RUNS NAME...   (THREADS: 0 = the default, all cores)
# One line per graph: name, then per build "wall_s/levels_ms/contract_ms", then METIS s.
# Environment: GRAPHS (names to run, default every file in PACK/data).
set -u
pack=$1 thr=$2 runs=$3
shift 3
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
topt=""
[ "$thr" != 0 ] && topt="--threads $thr"
tmp=${TMPDIR:-/tmp}/host-ab.$$
mkdir -p $tmp
med() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for f in "$pack"/data/*; do
    name=$(basename "$f"); name=${name%%.*}
    case " ${GRAPHS:-$name} " in *" $name "*) ;; *) continue ;; esac
    for b in "$@"; do : > $tmp/$b.w; : > $tmp/$b.l; : > $tmp/$b.c; done
    : > $tmp/m
    i=0
    while [ $i -lt "$runs" ]; do
        for b in "$@"; do
            t0=$(date +%s%N)
            "$pack/bin/$b" $topt --levels 10 "$f" > $tmp/out 2> $tmp/err
            t1=$(date +%s%N)
            awk "BEGIN { print ($t1 - $t0) / 1e9 }" >> $tmp/$b.w
            sed -n 's/.*levels \([0-9.]*\) ms.*/\1/p' $tmp/err >> $tmp/$b.l
            awk '$1 ~ /^[0-9]+$/ && $1 > 0 && NF == 9 {s += $9} END {print s}' $tmp/out >> $tmp/$b.c
        done
        cp "$pack/metis/$name.graph" $tmp/g.graph
        "$pack/bin/gpmetis" -ptype=rb -dbglvl=2 $tmp/g.graph 2 > $tmp/metis.txt 2>&1
        awk '/I\/O:/ {io = $2} /Coarsening:/ {co = $2} END {print io + co}' $tmp/metis.txt >> $tmp/m
        i=$((i + 1))
    done
    line=$name
    for b in "$@"; do line="$line $(med < $tmp/$b.w | cut -c1-6)/$(med < $tmp/$b.l)/$(med < $tmp/$b.c)"; done
    echo "$line $(med < $tmp/m)"
done
rm -rf $tmp
