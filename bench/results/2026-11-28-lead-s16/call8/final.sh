#!/bin/bash
# final call: the merged code. GPU suite (CPU == GPU included), memcheck on the
# hierarchy's CPU-and-GPU tests, then benchmarks against main before the session
# (build/baseline/coarsen) on this 16-core host.
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
S=$(date +%s); el() { echo "elapsed $(( $(date +%s) - S )) s"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
echo "== whole suite (GPU backend)"
timeout 270 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep -c '\[SKIP\]' $L/tests.log | sed 's/^/skipped: /'
el
echo "== memcheck: hierarchy CPU and GPU"
SAN_TIMEOUT=50 SAN_FILTERS='hierarchy_gpu/cpu_and_gpu*' sh scripts/device-sanitize.sh 2>&1 | tail -3
el
echo "== road-FLA 20 GPU levels (levels_ms), base / new interleaved"
for i in 1 2 3 4 5; do for b in build/baseline build; do
  echo "$b $($b/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 .deps/data/road-FLA.mtx.gz | grep -o '"levels_ms": *[0-9.]*')"
done; done
el
echo "== the user's command on the shared graphs (auto), new then base"
RUNS=5 DEVICES=auto LOG=$L/new sh bench/shared_e2e.sh build > /dev/null 2>&1
RUNS=5 DEVICES=auto METIS=0 LOG=$L/base sh bench/shared_e2e.sh build/baseline > /dev/null 2>&1
paste -d'\n' <(sed 's/auto_choice="[^"]*"//' $L/new/shared-e2e.txt) <(sed 's/auto_choice="[^"]*"//' $L/base/shared-e2e.txt | sed 's/^/BASE /') | head -70
el
echo "== rgg 2^23: read and out, new with base in the same run"
RUNS=3 PARTS="read out" BASELINE=build/baseline/coarsen LOG=$L sh bench/e2e.sh build 2>&1 | cut -c1-400
el
} 2>&1 | tee $L/final.txt
