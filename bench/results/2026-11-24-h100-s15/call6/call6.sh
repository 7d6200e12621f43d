#!/bin/sh
# lead call 6: main after merging latency, mpipart, depth2 (HEC island joining):
# the GPU tests HEC touches, sanitizer, and HEC vs handshake timings.
L=$OUT
F=.deps/data/road-FLA.mtx.gz
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
fla() { # label matcher
  build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $2 $F 2>/dev/null |
  python3 -c "
import json,sys; d=json.load(sys.stdin); L=d['levels'][1:]
print('$1', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'n_last=%d'%L[-1]['vertices'])"
}
{
echo "== tests (GPU backend)"
for f in 'hec*/*' 'hierarchy*/*' 'two_hop*/*' 'device_workspace*/*' 'cli_coarsen*/*' 'partition_gpu/*' 'radix_sort/*'; do
  timeout 90 build/coarsen-tests --jobs 8 --filter "$f" > $L/t.log 2>&1; echo "$f rc=$?"; grep -E "^\[FAIL|Synthesis" $L/t.log | tail -3
done
el
echo "== road-FLA 20 levels"
for r in 1 2 3 4 5; do for m in hec handshake; do fla "$m" $m; done; done
el
echo "== rgg pipeline"
for w in "" ",weights=int"; do for m in hec handshake; do
  echo "-- 2^24$w $m"; build/bench/bench_pipeline --graph rgg:n=16777216,deg=12$w --levels 10 --device gpu --no-metis --runs 5 --matcher $m 2>&1 | tail -1
done; done
for m in hec handshake; do
  echo "-- 2^22 $m"; build/bench/bench_pipeline --graph rgg:n=4194304,deg=12 --levels 10 --device gpu --no-metis --runs 5 --matcher $m 2>&1 | tail -1
done
el
echo "== compute-sanitizer memcheck"
SAN_TIMEOUT=60 SAN_FILTERS='hec_gpu/* two_hop_gpu/* hierarchy_gpu/cpu_and_gpu*' sh scripts/device-sanitize.sh
el
} 2>&1 | tee $L/call6.txt
