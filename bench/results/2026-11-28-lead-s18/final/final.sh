#!/bin/bash
# lead final call (session 18): the merged tree of session 18 on the device:
# whole GPU suite (with the faulty build), memcheck, the benchmarks against
# main 36d2229 (build/baseline), interleaved, a pause between GPU runs (so
# that each starts the driver cold: this host has no persistence mode).
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
export COARSEN_FAULTY_PROG=$PWD/build/coarsen-faulty
S=$(date +%s); el() { echo "elapsed $(( $(date +%s) - S )) s"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
echo "== whole suite (GPU backend)"
timeout 220 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep '\[SKIP\]' $L/tests.log | cut -c1-90
el
echo "== memcheck"
SAN_TIMEOUT=60 SAN_FILTERS="${SAN:-hierarchy_gpu/cpu_and_gpu* hec_gpu/* two_hop_gpu/* handshake/gpu_small* */gpu_graph_totals* contract_gpu/small*}" sh scripts/device-sanitize.sh 2>&1 | tail -24
el
F=.deps/data/road-FLA.mtx.gz
for m in hec handshake; do
echo "== road-FLA 20 levels $m: base new (levels_ms), interleaved x8"
for i in 1 2 3 4 5 6 7 8; do for b in build/baseline build; do
  printf "%s %s " $m $b; $b/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $m $F | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["phases"]["levels_ms"])'
done; done
done
el
echo "== identity base/new GPU files"
for g in road-FLA.mtx.gz rgg_n_2_15_s0.graph.gz copter2.graph.gz astro-ph.graph.gz p2p-Gnutella06.mtx; do for b in build/baseline build; do rm -rf /tmp/o_$(basename $b); $b/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 --out /tmp/o_$(basename $b) .deps/data/$g; done
  diff -rq -x stats.json /tmp/o_baseline /tmp/o_build >/dev/null && echo "$g same" || echo "$g DIFFER"; done
el
echo "== rgg 10 levels, bench_pipeline no_upload_ms (base / new)"
for g in rgg:n=4194304,deg=12 rgg:n=16777216,deg=12 rgg:n=16777216,deg=12,weights=int; do for b in build/baseline build; do
  echo "$g $b $($b/bench/bench_pipeline --graph $g --levels 10 --device gpu --no-metis --runs 5 2>&1 | grep -o 'no_upload_ms=[0-9.]* upload_ms=[0-9.]* matching_ms=[0-9.]* two_hop_ms=[0-9.]* contraction_ms=[0-9.]*')"
done; done
el
echo "== shared graphs, auto, base / new interleaved (name A_wall B_wall A_levels B_levels metis)"
COARSEN_DATA=.deps/data RUNS=5 sh bench/results/2026-11-28-s16-levels-s16/e2e_ab.sh build/baseline build \
  copter2 mdual road-FLA road-NY astro-ph wing delaunay_n15 rgg_n_2_15_s0 4elt p2p-Gnutella06 PGPgiantcompo polblogs power bcsstk13 2>&1
el
echo "== phase split, 16 threads (new)"
for g in astro-ph.graph.gz wing.graph.gz p2p-Gnutella06.mtx 4elt.graph polblogs.graph; do for i in 1 2; do
  echo "$g $(build/coarsen --levels 10 .deps/data/$g 2>&1 >/dev/null | grep time: | sed 's/coarsen: time: //' | cut -c1-170)"
done; done
el
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
build/coarsen convert --quiet $T/g.graph $T/g.mtx; gzip -1 -c $T/g.mtx > $T/g1.mtx.gz
el
echo "== rgg 2^23 end to end, base / new, pause 0.5 s between runs"
for f in g.graph g.mtx g1.mtx.gz; do for i in 1 2 3; do for b in build/baseline build; do
  sleep 0.5; s=$(date +%s.%N); $b/coarsen --levels 10 $T/$f 2>/tmp/err >/dev/null; e=$(date +%s.%N)
  echo "$f $b wall=$(awk "BEGIN{print $e-$s}") $(grep 'time:' /tmp/err | sed 's/coarsen: time: //' | cut -c1-190)"
done; done; done
el
echo "== module loading: EAGER (default) / LAZY, --device gpu, pause 0.5 s"
for f in .deps/data/karate.graph $T/g.graph; do for i in 1 2 3; do for ml in EAGER LAZY; do
  sleep 0.5; s=$(date +%s.%N); CUDA_MODULE_LOADING=$ml build/coarsen --levels 10 --device gpu $f 2>/tmp/err >/dev/null; e=$(date +%s.%N)
  echo "$(basename $f) $ml wall=$(awk "BEGIN{print $e-$s}") $(grep 'time:' /tmp/err | sed 's/coarsen: time: //' | cut -c1-190)"
done; done; done
for i in 1 2 3; do for ml in EAGER LAZY; do sleep 0.5
  printf "road-FLA %s " $ml; CUDA_MODULE_LOADING=$ml build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 $F | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["phases"]["levels_ms"], d["phases"]["wall_ms"], d["phases"]["device_wait_ms"])'
done; done
el
echo "== CPU levels after the split inflate: stream/split x huge advice on/off, --device cpu, rgg 2^22 gzip -1"
build/coarsen gen rgg --vertices 4194304 --degree 12 --seed 1 --quiet -o $T/h.mtx; gzip -1 -c $T/h.mtx > $T/h1.mtx.gz; rm $T/h.mtx
for i in 1 2 3; do for v in stream-huge split-huge stream-nohuge split-nohuge; do
  echo "$v $(build/var/$v --levels 10 --device cpu $T/h1.mtx.gz 2>&1 >/dev/null | grep time: | sed 's/coarsen: time: //' | cut -c1-190)"
done; done
el
echo "== crossover (new), 16 threads"
SIZES="262144 524288 1048576 2097152 4194304" RUNS=3 LOG=$L sh bench/crossover.sh build 2>&1 | tail -6
el
} 2>&1 | tee $L/final.txt
