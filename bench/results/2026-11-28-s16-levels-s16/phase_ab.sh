#!/bin/sh
# phase_ab.sh — per level, the median matching and contraction ms of
# `coarsen --levels 10 FILE` (stdout's table) for two builds, runs
# interleaved A B A B ...; one line per level: level, A match, B match,
# A contract, B contract.
#   sh phase_ab.sh BUILD_A BUILD_B FILE
# Environment: RUNS (9), THREADS (unset: all cores).
set -u
runs=${RUNS:-9}
thr=${THREADS:+--threads $THREADS}
: > /tmp/phase-ab.a
: > /tmp/phase-ab.b
i=0
while [ $i -lt "$runs" ]; do
    "$1"/coarsen $thr --levels 10 "$3" 2> /dev/null | awk '$1 ~ /^[0-9]+$/ && $1 > 0 {print $1, $7, $9}' >> /tmp/phase-ab.a
    "$2"/coarsen $thr --levels 10 "$3" 2> /dev/null | awk '$1 ~ /^[0-9]+$/ && $1 > 0 {print $1, $7, $9}' >> /tmp/phase-ab.b
    i=$((i + 1))
done
med() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for l in $(awk '{print $1}' /tmp/phase-ab.a | sort -n | uniq); do
    am=$(awk -v l=$l '$1 == l {print $2}' /tmp/phase-ab.a | med)
    bm=$(awk -v l=$l '$1 == l {print $2}' /tmp/phase-ab.b | med)
    ac=$(awk -v l=$l '$1 == l {print $3}' /tmp/phase-ab.a | med)
    bc=$(awk -v l=$l '$1 == l {print $3}' /tmp/phase-ab.b | med)
    echo "$l $am $bm $ac $bc"
done
