#!/bin/sh
# levels_ab.sh — the levels phase (stderr's "levels N ms") of
# `coarsen --levels 10 FILE` for two builds, runs interleaved A B A B ...,
# median per graph and build. One line per graph: name, A's median ms,
# B's median ms, B / A.
#   sh levels_ab.sh BUILD_A BUILD_B FILE...
# Environment: RUNS (11), THREADS (unset: all cores).
set -u
a=$1/coarsen
b=$2/coarsen
shift 2
runs=${RUNS:-11}
tmp=${TMPDIR:-/tmp}/levels2-ab.$$
thr=${THREADS:+--threads $THREADS}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for f in "$@"; do
    : > $tmp.a
    : > $tmp.b
    i=0
    while [ $i -lt "$runs" ]; do
        for p in a b; do
            eval prog=\$$p
            $prog $thr --levels 10 "$f" 2>&1 > /dev/null | sed -n 's/.*levels \([0-9.]*\) ms.*/\1/p' >> $tmp.$p
        done
        i=$((i + 1))
    done
    ma=$(median < $tmp.a)
    mb=$(median < $tmp.b)
    echo "$(basename "$f") $ma $mb $(echo "$mb $ma" | awk '{printf "%.3f", $1 / $2}')"
done
rm -f $tmp.a $tmp.b
