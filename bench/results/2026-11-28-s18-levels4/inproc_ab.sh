#!/bin/sh
# inproc_ab.sh — A/B of two builds' hierarchy in process (bench_pipeline,
# --device cpu --no-metis, 10 levels, file I/O excluded): the minimum over
# RUNS builds of the whole hierarchy (the least disturbed on a shared
# machine: the heap is warm after the first build, so no page faults), the
# two builds alternated ROUNDS times; per build the smallest minimum.
#   sh inproc_ab.sh BUILD_A BUILD_B FILE...   (environment: RUNS 31, ROUNDS 3, THREADS 1)
# One line per graph: name A_min_ms B_min_ms B/A.
set -u
a=$1/bench/bench_pipeline
b=$2/bench/bench_pipeline
shift 2
runs=${RUNS:-31}
rounds=${ROUNDS:-3}
thr=${THREADS:-1}
for f in "$@"; do
    am=1e9 bm=1e9
    i=0
    while [ $i -lt "$rounds" ]; do
        for p in a b; do
            eval prog=\$$p
            v=$("$prog" --graph "$f" --runs "$runs" --device cpu --threads "$thr" --no-metis 2>/dev/null |
                sed -n 's/.*min_ms=\([0-9.]*\).*/\1/p')
            eval cur=\$${p}m
            eval ${p}m=$(awk -v x="$v" -v y="$cur" 'BEGIN { print (x < y ? x : y) }')
        done
        i=$((i + 1))
    done
    echo "$(basename "$f") $am $bm $(awk -v x="$am" -v y="$bm" 'BEGIN { printf "%.3f", y / x }')"
done
