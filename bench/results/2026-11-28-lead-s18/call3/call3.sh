#!/bin/bash
# lead call 3 (session 18): the tree with lazy module loading by default and
# the second round (s18-tok, s18-gather): suite, memcheck, module loading
# default (LAZY) against CUDA_MODULE_LOADING=EAGER, the shared graphs against
# main 36d2229 (build/baseline) beside METIS.
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
export COARSEN_FAULTY_PROG=$PWD/build/coarsen-faulty
S=$(date +%s); el() { echo "elapsed $(( $(date +%s) - S )) s"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
echo "== whole suite (GPU backend)"
timeout 220 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep -c '\[SKIP\]' $L/tests.log
el
echo "== memcheck"
SAN_TIMEOUT=60 SAN_FILTERS='hierarchy_gpu/cpu_and_gpu* hec_gpu/* two_hop_gpu/*' sh scripts/device-sanitize.sh 2>&1 | tail -10
el
F=.deps/data/road-FLA.mtx.gz
echo "== module loading: default (LAZY) / EAGER, --device gpu, pause 0.5 s"
for i in 1 2 3 4 5; do for ml in default EAGER; do sleep 0.5
  if [ $ml = EAGER ]; then export CUDA_MODULE_LOADING=EAGER; else unset CUDA_MODULE_LOADING; fi
  printf "road-FLA %s " $ml; build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 $F | python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["phases"]; print(p["levels_ms"], p["wall_ms"], p["device_wait_ms"], p["upload_ms"])'
  s=$(date +%s.%N); build/coarsen --levels 10 --device gpu .deps/data/karate.graph 2>/tmp/err >/dev/null; e=$(date +%s.%N)
  echo "karate $ml wall=$(awk "BEGIN{print $e-$s}") $(grep 'time:' /tmp/err | sed 's/coarsen: time: //' | cut -c1-120)"
done; done
unset CUDA_MODULE_LOADING
el
echo "== shared graphs, auto, base / new interleaved (name A_wall B_wall A_levels B_levels metis)"
COARSEN_DATA=.deps/data RUNS=7 sh bench/results/2026-11-28-s16-levels-s16/e2e_ab.sh build/baseline build \
  copter2 mdual road-FLA road-NY astro-ph wing delaunay_n15 rgg_n_2_15_s0 4elt p2p-Gnutella06 PGPgiantcompo polblogs power bcsstk13 2>&1
el
echo "== crossover (new), 16 threads"
SIZES="524288 1048576 2097152" RUNS=3 LOG=$L sh bench/crossover.sh build 2>&1 | tail -4
el
} 2>&1 | tee $L/call3.txt
