#!/bin/bash
# lead call 1 (session 18): the merged tree of session 17 (main 36d2229) on the
# device: whole GPU suite, memcheck, road-FLA 20 levels and rgg 10 levels against
# c37920e (build/baseline), the one-member gzip patch (build/coarsen-pgz) end to
# end with the GPU backend, the edge-list build at 16 threads, the crossover.
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
S=$(date +%s); el() { echo "elapsed $(( $(date +%s) - S )) s"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
echo "== whole suite (GPU backend)"
timeout 200 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep -c '\[SKIP\]' $L/tests.log | sed 's/^/skipped: /'
el
echo "== memcheck"
SAN_TIMEOUT=60 SAN_FILTERS='hierarchy_gpu/cpu_and_gpu* hec_gpu/* two_hop_gpu/* handshake/gpu_small* */gpu_graph_totals* contract_gpu/small*' sh scripts/device-sanitize.sh 2>&1 | tail -20
el
F=.deps/data/road-FLA.mtx.gz
for m in hec handshake; do
echo "== road-FLA 20 levels $m: base new (levels_ms), interleaved x8"
for i in 1 2 3 4 5 6 7 8; do for b in build/baseline build; do
  printf "%s %s " $m $b; $b/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $m $F | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["phases"]["levels_ms"])'
done; done
done
el
echo "== identity base/new road-FLA + rgg_n_2_15 GPU files"
for g in road-FLA.mtx.gz rgg_n_2_15_s0.graph.gz copter2.graph.gz; do for b in build/baseline build; do rm -rf /tmp/o_$(basename $b); $b/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 --out /tmp/o_$(basename $b) .deps/data/$g; done
  diff -r /tmp/o_baseline /tmp/o_build >/dev/null && echo "$g same" || { echo "$g DIFFER"; diff -r /tmp/o_baseline /tmp/o_build | head -5; }; done
el
echo "== rgg 10 levels, bench_pipeline no_upload_ms (base / new)"
for g in rgg:n=4194304,deg=12 rgg:n=16777216,deg=12 rgg:n=16777216,deg=12,weights=int; do for b in build/baseline build; do
  echo "$g $b $($b/bench/bench_pipeline --graph $g --levels 10 --device gpu --no-metis --runs 5 2>&1 | grep -iE 'no_upload|median' | tr '\n' ' ' | cut -c1-300)"
done; done
el
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
build/coarsen convert --quiet $T/g.graph $T/g.mtx; gzip -1 -c $T/g.mtx > $T/g1.mtx.gz
el
echo "== rgg 2^23 end to end: base new pgz interleaved"
for f in g.graph g.mtx g1.mtx.gz; do for d in gpu auto cpu; do [ $f != g1.mtx.gz ] && [ $d = cpu ] && continue; for i in 1 2 3; do for b in build/baseline/coarsen build/coarsen build/coarsen-pgz; do
  s=$(date +%s.%N); $b --levels 10 --device $d $T/$f 2>/tmp/err >/dev/null; e=$(date +%s.%N)
  echo "$f $d $(basename $(dirname $b))/$(basename $b) wall=$(awk "BEGIN{print $e-$s}") $(grep 'time:' /tmp/err | sed 's/coarsen: time: //' | cut -c1-170)"
done; done; done; done
el
echo "== edge_build 16 threads base/new"
FILE=$T/g.mtx THREADS="16" RUNS=5 sh bench/edge_build.sh build/baseline/coarsen build/coarsen 2>&1 | tail -4
el
echo "== crossover (new), 16 threads"
SIZES="262144 524288 1048576 2097152 4194304" RUNS=3 LOG=$L sh bench/crossover.sh build 2>&1 | tail -12
el
} 2>&1 | tee $L/call1.txt
