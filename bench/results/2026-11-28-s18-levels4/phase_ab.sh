#!/bin/sh
# phase_ab.sh — interleaved A/B of builds on `coarsen --levels 10 --device cpu
# --threads T FILE`: per run the levels phase (stderr "levels N ms"), the
# matching and contraction ms summed over the levels (stdout's table) and
# the whole wall (date before/after); runs A B A B ..., medians per graph.
#   sh phase_ab.sh BUILD_A BUILD_B FILE...   (environment: RUNS 15, THREADS 1)
# One line per graph: name, then for A and B: levels match contract wall(ms).
set -u
a=$1/coarsen
b=$2/coarsen
shift 2
runs=${RUNS:-15}
thr=${THREADS:-1}
tmp=${TMPDIR:-/tmp}/phase-ab.$$
med() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for f in "$@"; do
    for p in a b; do for q in l m c w; do : > $tmp.$p.$q; done; done
    i=0
    while [ $i -lt "$runs" ]; do
        for p in a b; do
            eval prog=\$$p
            t0=$(date +%s%N)
            "$prog" --device cpu --threads "$thr" --levels 10 "$f" > $tmp.out 2> $tmp.err
            t1=$(date +%s%N)
            echo "($t1 - $t0) / 1000000" | bc -l >> $tmp.$p.w
            sed -n 's/.*levels \([0-9.]*\) ms.*/\1/p' $tmp.err >> $tmp.$p.l
            awk '$1 ~ /^[0-9]+$/ && $1 > 0 && NF == 9 { m += $7; c += $9 } END { print m > "'$tmp.$p.m.1'"; print c }' $tmp.out >> $tmp.$p.c
            cat $tmp.$p.m.1 >> $tmp.$p.m
        done
        i=$((i + 1))
    done
    printf "%s" "$(basename "$f")"
    for p in a b; do
        printf " %s %s %s %s" "$(med < $tmp.$p.l)" "$(med < $tmp.$p.m)" "$(med < $tmp.$p.c)" "$(med < $tmp.$p.w | xargs printf %.1f)"
    done
    echo
done
rm -f $tmp.*
