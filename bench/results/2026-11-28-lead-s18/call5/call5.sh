#!/bin/bash
# lead call 5 (session 18): the final tree (s18-gather reverted): whole GPU
# suite with the faulty build, memcheck on the hierarchy, HEC and two-hop
# GPU tests, road-FLA's levels with the default (lazy) and eager loading.
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
export COARSEN_FAULTY_PROG=$PWD/build/coarsen-faulty
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 220 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep -c '\[SKIP\]' $L/tests.log
SAN_TIMEOUT=60 SAN_FILTERS='hierarchy_gpu/cpu_and_gpu* hec_gpu/* two_hop_gpu/* contract_gpu/small*' sh scripts/device-sanitize.sh 2>&1 | tail -12
for i in 1 2 3 4 5 6; do for ml in default EAGER; do sleep 0.5
  if [ $ml = EAGER ]; then export CUDA_MODULE_LOADING=EAGER; else unset CUDA_MODULE_LOADING; fi
  printf "road-FLA %s " $ml; build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 .deps/data/road-FLA.mtx.gz | python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["phases"]; print(p["levels_ms"], p["wall_ms"], p["device_wait_ms"])'
done; done
} 2>&1 | tee $L/call5.txt
