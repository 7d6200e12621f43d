#!/bin/bash
# lead final call (session 19): the merged tree of session 19 on the device:
# whole GPU suite (with the faulty build), memcheck on the changed GPU code,
# benchmarks against main 0884b38 (build/baseline), interleaved, 0.5 s
# pauses between GPU runs (no persistence mode on this host).
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
export COARSEN_FAULTY_PROG=$PWD/build/coarsen-faulty
S=$(date +%s); el() { echo "elapsed $(( $(date +%s) - S )) s"; }
js() { python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["phases"]; print(p["levels_ms"], p["wall_ms"])'; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
echo "== whole suite (GPU backend)"
timeout 200 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep '\[SKIP\]' $L/tests.log | cut -c1-90
el
echo "== memcheck"
SAN_TIMEOUT=25 SAN_FILTERS="${SAN:-hec_gpu/* two_hop_gpu/* contract_gpu/every_path* contract_gpu/small* hierarchy_gpu/cpu_and_gpu* fixed_sum/gpu* roma*/gpu*}" sh scripts/device-sanitize.sh 2>&1 | tail -24
el
echo "== identity base/new GPU files (levels 20, coarsen-to 0)"
for g in road-FLA.mtx.gz rgg_n_2_15_s0.graph.gz copter2.graph.gz astro-ph.graph.gz p2p-Gnutella06.mtx; do for b in build/baseline build; do rm -rf /tmp/o_$(basename $b); $b/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 --out /tmp/o_$(basename $b) .deps/data/$g; done
  diff -rq -x stats.json /tmp/o_baseline /tmp/o_build >/dev/null && echo "$g same" || echo "$g DIFFER"; done
el
echo "== rgg 10 levels, bench_pipeline no_upload_ms (base / new)"
for g in rgg:n=16777216,deg=12 rgg:n=16777216,deg=12,weights=int rgg:n=4194304,deg=12; do for b in build/baseline build; do
  echo "$g $b $($b/bench/bench_pipeline --graph $g --levels 10 --device gpu --no-metis --runs 5 2>&1 | grep -o 'no_upload_ms=[0-9.]* upload_ms=[0-9.]* matching_ms=[0-9.]* two_hop_ms=[0-9.]* contraction_ms=[0-9.]*')"
done; done
el
F=.deps/data/road-FLA.mtx.gz
echo "== road-FLA 20 GPU levels (levels_ms wall_ms), base / new, EAGER and LAZY (default), x6"
for i in 1 2 3 4 5 6; do for ml in EAGER LAZY; do for b in build/baseline build; do sleep 0.5
  echo "$b $ml $(CUDA_MODULE_LOADING=$ml $b/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 $F | js)"
done; done; done
el
echo "== shared graphs, auto, base / new interleaved (name A_wall B_wall A_levels B_levels metis_io+coarsen)"
COARSEN_DATA=.deps/data RUNS=5 sh bench/e2e_ab.sh build/baseline build \
  copter2 mdual road-FLA road-NY astro-ph wing delaunay_n15 rgg_n_2_15_s0 4elt p2p-Gnutella06 PGPgiantcompo polblogs power 2>&1
el
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
build/coarsen convert --quiet $T/g.graph $T/g.mtx
el
echo "== rgg 2^23 end to end, auto (GPU), base / new, pause 0.5 s"
for f in g.graph g.mtx; do for i in 1 2 3; do for b in build/baseline build; do
  sleep 0.5; s=$(date +%s.%N); $b/coarsen --levels 10 $T/$f 2>/tmp/err >/dev/null; e=$(date +%s.%N)
  echo "$f $b wall=$(awk "BEGIN{print $e-$s}") $(grep 'time:' /tmp/err | sed 's/coarsen: time: //' | cut -c1-200)"
done; done; done
el
echo "== rgg 2^23 .graph with --out D (METIS files) and --out D --format parhip, new, x2"
for o in "" "--format parhip"; do for i in 1 2; do rm -rf $T/out; sleep 0.5
  s=$(date +%s.%N); build/coarsen --levels 10 --out $T/out $o $T/g.graph 2>/tmp/err >/dev/null; e=$(date +%s.%N)
  echo "out $o wall=$(awk "BEGIN{print $e-$s}") $(grep 'time:' /tmp/err | sed 's/coarsen: time: //' | cut -c1-220) size=$(du -sm $T/out | cut -f1)MB"
done; done
el
} 2>&1 | tee $L/final.txt
