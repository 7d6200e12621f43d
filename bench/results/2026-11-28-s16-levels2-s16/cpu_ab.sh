#!/bin/sh
# cpu_ab.sh — CPU time (user + sys, from /usr/bin/time) of the whole
# `coarsen --threads 1 --levels 10 FILE` for two builds, runs interleaved
# A B A B ..., median per graph and build: less sensitive than wall time to
# the other processes of a shared machine (waiting for a core is not counted).
#   sh cpu_ab.sh BUILD_A BUILD_B FILE...
# Environment: RUNS (11). One line per graph: name, A's median s, B's, B / A.
set -u
a=$1/coarsen
b=$2/coarsen
shift 2
runs=${RUNS:-11}
tmp=${TMPDIR:-/tmp}/cpu-ab.$$
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for f in "$@"; do
    : > $tmp.a
    : > $tmp.b
    i=0
    while [ $i -lt "$runs" ]; do
        for p in a b; do
            eval prog=\$$p
            /usr/bin/time -f "%U %S" -o $tmp.t $prog --quiet --threads 1 --levels 10 "$f" > /dev/null 2>&1
            awk '{print $1 + $2}' $tmp.t >> $tmp.$p
        done
        i=$((i + 1))
    done
    ma=$(median < $tmp.a)
    mb=$(median < $tmp.b)
    echo "$(basename "$f") $ma $mb $(echo "$mb $ma" | awk '{printf "%.3f", $1 / $2}')"
done
rm -f $tmp.a $tmp.b $tmp.t
