#!/bin/sh
# latency branch, device call 3: the GPU tests touched (hec, hierarchy,
# two-hop, graph totals via the hierarchy), compute-sanitizer memcheck on
# them, before/after benchmarks (base = e5c1aea, main before this branch;
# new = this branch), interleaved, then the whole GPU suite with what time
# is left. build/base/ holds the base programs.
L=$OUT
F=.deps/data/road-FLA.mtx.gz
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
fla() { # label program matcher [hb]
  $2 --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $3 --host-below ${4:-2048} $F 2>/dev/null |
  python3 -c "
import json,sys; d=json.load(sys.stdin); L=d['levels'][1:]
print('$1', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'n_last=%d'%L[-1]['vertices'],
 'lv=' + ','.join('%s%.2f/%.2f'%(l['built_on'][0], l['matching_ms']+l['two_hop_ms'], l['contraction_ms']) for l in L))"
}
{
echo "== tests (GPU backend)"
for f in 'hec*/*' 'hierarchy*/*' 'two_hop*/*' 'device_workspace*/*' 'cli_coarsen*/*' 'partition_gpu/*'; do
  timeout 60 build/coarsen-tests --jobs 8 --filter "$f" > $L/t.log 2>&1; echo "$f rc=$?"; grep -E "^\[FAIL|Synthesis" $L/t.log | tail -3
done
el
echo "== road-FLA 20 levels, base vs new, interleaved"
for r in 1 2 3 4 5; do for m in hec handshake; do
  fla "base-$m" build/base/coarsen $m; fla "new-$m" build/coarsen $m
done; done
echo "== host-below (new)"
for hb in 0 1024 4096 8192; do for m in hec handshake; do for r in 1 2 3; do fla "new-$m-hb$hb" build/coarsen $m $hb; done; done; done
el
echo "== rgg pipeline"
for w in "" ",weights=int"; do
  for p in base new; do
    b=build/bench/bench_pipeline; [ $p = base ] && b=build/base/bench_pipeline
    echo "-- $p 2^24$w hec"; $b --graph rgg:n=16777216,deg=12$w --levels 10 --device gpu --no-metis --runs 5 2>&1 | tail -1
  done
  echo "-- new 2^24$w handshake"; build/bench/bench_pipeline --graph rgg:n=16777216,deg=12$w --levels 10 --device gpu --no-metis --runs 5 --matcher handshake 2>&1 | tail -1
done
for p in base new; do
  b=build/bench/bench_pipeline; [ $p = base ] && b=build/base/bench_pipeline
  echo "-- $p 2^22 hec"; $b --graph rgg:n=4194304,deg=12 --levels 10 --device gpu --no-metis --runs 5 2>&1 | tail -1
done
echo "-- new 2^22 handshake"; build/bench/bench_pipeline --graph rgg:n=4194304,deg=12 --levels 10 --device gpu --no-metis --runs 5 --matcher handshake 2>&1 | tail -1
el
echo "== compute-sanitizer memcheck"
SAN_TIMEOUT=40 SAN_FILTERS='hec_gpu/* two_hop_gpu/* hierarchy_gpu/cpu_and_gpu*' sh scripts/device-sanitize.sh
el
left=$(( 250 - ($(date +%s) - t0) ))
echo "== whole suite (GPU backend), limit ${left} s"
if [ $left -gt 20 ]; then
  timeout $left build/coarsen-tests --jobs 12 > $L/tests.log 2>&1; echo "suite rc=$? (124: time limit)"
  grep -E "^\[FAIL|Synthesis" $L/tests.log | tail -8
fi
el
} 2>&1 | tee $L/call3.txt
