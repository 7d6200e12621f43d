#!/bin/sh
# run.sh — the wall-clock figures of this folder's README, on the machine at hand:
#   sh run.sh NEW_BUILD_DIR BASE_BUILD_DIR DATA_DIR
# NEW_BUILD_DIR holds coarsen and bench/bench_one_member (make BUILD=...
# all), BASE_BUILD_DIR the coarsen of the base commit; DATA_DIR receives the
# rgg 2^21 files that bench/one_member_gzip.sh generates (x-1.mtx.gz ...).
set -e
new=$1 base=$2 data=$3
here=$(cd "$(dirname "$0")" && pwd)
# 0. the files (one pass of the program benchmark at 1 thread makes them)
[ -f "$data/x-6.graph.gz" ] || sh "$here/../../one_member_gzip.sh" -r 1 -t 1 -d "$data" "$new/coarsen" >/dev/null
# 1. decoders, one thread each (zlib, ISA-L, ours), and the split path on 1 and 2 threads
for f in x-1.mtx.gz x-6.mtx.gz x-1.graph.gz x-6.graph.gz; do
    for t in 1 2; do
        OMP_NUM_THREADS=$t "$new/bench/bench_one_member" --runs 5 "$data/$f" | sed "s|^|file=$f |"
    done
done
# 2. the program before and after, interleaved, medians of 5, at 4 threads
#    (the split path's threshold: at 1 and 2 threads both read the same way)
sh "$here/../../one_member_gzip.sh" -r 5 -t 4 -d "$data" "$new/coarsen" "$base/coarsen"
# 3. memory peak of `coarsen info` at 4 threads (split path) against the base
for p in "$new/coarsen" "$base/coarsen"; do
    for f in x-6.mtx.gz x-1.graph.gz; do
        OMP_NUM_THREADS=4 /usr/bin/time -f "prog=$p file=$f threads=4 maxrss_kb=%M wall_s=%e" "$p" info "$data/$f" 2>&1 >/dev/null | tail -1
    done
done
