#!/bin/sh
# cpu_time_ab.sh — CPU time (perf stat's task-clock, ns resolution: less
# disturbed than the wall clock by the other jobs of a shared machine, since
# time spent waiting for a core is not counted) of the whole
# `coarsen --levels 10 --threads T FILE` for two builds, runs interleaved
# A B A B ..., and the levels phase (stderr's "levels N ms", wall).
#   sh cpu_time_ab.sh BUILD_A BUILD_B FILE...
# Environment: RUNS (11), THREADS (1).
# One line per graph: name A_task_ms B_task_ms B/A A_levels_ms B_levels_ms B/A (medians).
set -u
a=$1/coarsen
b=$2/coarsen
shift 2
runs=${RUNS:-11}
thr=${THREADS:-1}
tmp=${TMPDIR:-/tmp}/cpu-time-ab.$$
med() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for f in "$@"; do
    for p in a b; do : > $tmp.$p.t; : > $tmp.$p.l; done
    i=0
    while [ $i -lt "$runs" ]; do
        for p in a b; do
            eval prog=\$$p
            perf stat -x, -e task-clock -o $tmp.stat "$prog" --threads $thr --levels 10 "$f" 2> $tmp.err > /dev/null
            awk -F, '/task-clock/ {print $1}' $tmp.stat >> $tmp.$p.t
            sed -n 's/.*levels \([0-9.]*\) ms.*/\1/p' $tmp.err >> $tmp.$p.l
        done
        i=$((i + 1))
    done
    at=$(med < $tmp.a.t); bt=$(med < $tmp.b.t); al=$(med < $tmp.a.l); bl=$(med < $tmp.b.l)
    echo "$(basename "$f") $at $bt $(awk "BEGIN {printf \"%.3f\", $bt / $at}") $al $bl $(awk "BEGIN {printf \"%.3f\", $bl / $al}")"
done
rm -f $tmp.*
