#!/bin/sh
# levels_ab.sh — interleaved A/B of the levels phase (stderr's `coarsen:
# time:` line, "levels N ms") of `coarsen --levels 10 --device cpu --threads T
# FILE`, runs A B A B ..., and the whole command's wall (date before and
# after): median and minimum per graph and build (the minimum is the run
# least disturbed by the other helpers' jobs on this shared machine).
#   sh levels_ab.sh BUILD_A BUILD_B FILE...   (environment: RUNS 31, THREADS 1)
# One line per graph: name A_levels_med B_levels_med A_levels_min B_levels_min
# A_wall_med B_wall_med (ms).
set -u
a=$1/coarsen
b=$2/coarsen
shift 2
runs=${RUNS:-31}
thr=${THREADS:-1}
tmp=${TMPDIR:-/tmp}/levels-ab.$$
med() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
least() { sort -g | head -1; }
for f in "$@"; do
    : > $tmp.a.l; : > $tmp.b.l; : > $tmp.a.w; : > $tmp.b.w
    i=0
    while [ $i -lt "$runs" ]; do
        for p in a b; do
            eval prog=\$$p
            t0=$(date +%s%N)
            "$prog" --device cpu --threads "$thr" --levels 10 "$f" > /dev/null 2> $tmp.err
            t1=$(date +%s%N)
            echo "($t1 - $t0) / 1000000" | bc -l >> $tmp.$p.w
            sed -n 's/.*levels \([0-9.]*\) ms.*/\1/p' $tmp.err >> $tmp.$p.l
        done
        i=$((i + 1))
    done
    printf '%s %s %s %s %s %.1f %.1f\n' "$(basename "$f")" "$(med < $tmp.a.l)" "$(med < $tmp.b.l)" \
        "$(least < $tmp.a.l)" "$(least < $tmp.b.l)" "$(med < $tmp.a.w)" "$(med < $tmp.b.w)"
done
rm -f $tmp.*
