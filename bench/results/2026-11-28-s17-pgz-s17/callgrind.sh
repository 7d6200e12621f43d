#!/bin/sh
# callgrind.sh — instructions per decoder on 30 MB of rgg 2^21 text
# (repeatable, unlike wall clocks on a shared machine):
#   sh callgrind.sh BUILD_DIR DATA_DIR      (DATA_DIR/x.mtx, x.graph from run.sh's step 0)
# Each count is the whole program's minus a run that decodes nothing
# (--only none: reading the file, zlib's reference inflate).
set -e
bench=$1/bench/bench_one_member data=$2
head -c 30000000 "$data/x.mtx" | env -u GZIP gzip -1 >"$data/s1.mtx.gz"
head -c 30000000 "$data/x.mtx" | env -u GZIP gzip -6 >"$data/s6.mtx.gz"
head -c 30000000 "$data/x.graph" | env -u GZIP gzip -6 >"$data/s6.graph.gz"
ir() { OMP_NUM_THREADS=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" --runs 1 --only "$2" "$3" 2>&1 |
    sed -n 's/.*Collected : *//p'; }
for f in s1.mtx.gz s6.mtx.gz s6.graph.gz; do
    none=$(ir 1 none "$data/$f")
    for d in zlib isal deflate_decode split; do
        echo "file=$f dec=$d threads=1 Ir=$(($(ir 1 $d "$data/$f") - none))"
    done
    echo "file=$f dec=split threads=2 Ir=$(($(ir 2 split "$data/$f") - none))"
done
