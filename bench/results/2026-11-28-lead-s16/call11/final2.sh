#!/bin/bash
# final call 2: every branch merged. GPU suite, memcheck on the hierarchy's
# CPU-and-GPU tests, and benchmarks against main before the session
# (build/baseline/coarsen), interleaved, on this 16-core host.
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
S=$(date +%s); el() { echo "elapsed $(( $(date +%s) - S )) s"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
echo "== whole suite (GPU backend)"
timeout 200 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep -c '\[SKIP\]' $L/tests.log | sed 's/^/skipped: /'
el
echo "== memcheck: hierarchy CPU and GPU"
SAN_TIMEOUT=50 SAN_FILTERS='hierarchy_gpu/cpu_and_gpu*' sh scripts/device-sanitize.sh 2>&1 | tail -3
el
echo "== rgg 2^23 reads, base / new interleaved (read split)"
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
build/coarsen convert --quiet $T/g.graph $T/g.mtx; gzip -1 -c $T/g.mtx > $T/g1.mtx.gz
for f in g.mtx g1.mtx.gz g.graph; do for i in 1 2 3; do for b in build/baseline build; do
  s=$(date +%s.%N); $b/coarsen --levels 10 --device gpu $T/$f 2>/tmp/err >/dev/null; e=$(date +%s.%N)
  echo "$f $b wall=$(awk "BEGIN{print $e-$s}") $(grep 'time:' /tmp/err | sed 's/coarsen: time: //' | cut -c1-150)"
done; done; done
el
echo "== shared graphs, auto, base / new interleaved (e2e_ab.sh: name A_wall B_wall A_levels B_levels metis)"
COARSEN_DATA=.deps/data RUNS=5 sh bench/results/2026-11-28-s16-levels-s16/e2e_ab.sh build/baseline build \
  copter2 mdual road-FLA road-NY astro-ph wing delaunay_n15 rgg_n_2_15_s0 4elt p2p-Gnutella06 PGPgiantcompo polblogs 2>&1
el
echo "== phase split of the mid-size graphs at 16 threads (new)"
for g in astro-ph.graph.gz wing.graph.gz delaunay_n15.graph.gz rgg_n_2_15_s0.graph.gz 4elt.graph; do for i in 1 2; do
  echo "$g $(build/coarsen --levels 10 .deps/data/$g 2>&1 >/dev/null | grep time: | sed 's/coarsen: time: //' | cut -c1-150)"
done; done
el
echo "== crossover (new), 16 threads"
SIZES="524288 1048576 2097152 4194304" RUNS=3 LOG=$L sh bench/crossover.sh build 2>&1 | tail -8
el
} 2>&1 | tee $L/final2.txt
