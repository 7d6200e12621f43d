#!/bin/sh
# latency2 branch, device call 1: the GPU tests touched (contraction,
# workspace, two-hop, HEC, hierarchy), before/after benchmarks interleaved
# (base = 6171e14, main before this branch, in build/base/; new = this
# branch), compute-sanitizer memcheck on the touched tests, then the whole
# GPU suite with the time left.
L=$OUT
F=.deps/data/road-FLA.mtx.gz
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
fla() { # label program matcher
  $2 --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $3 $F 2>/dev/null |
  python3 -c "
import json,sys; d=json.load(sys.stdin); L=d['levels'][1:]
print('$1', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'n_last=%d'%L[-1]['vertices'],
 'lv=' + ','.join('%s%.2f/%.2f'%(l['built_on'][0], l['matching_ms']+l['two_hop_ms'], l['contraction_ms']) for l in L))"
}
{
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u
echo "== tests (GPU backend)"
for f in 'contract*/*' 'device_workspace*/*' 'two_hop*/*' 'hec*/*' 'hierarchy*/*' 'cli_coarsen*/*'; do
  timeout 90 build/coarsen-tests --jobs 8 --filter "$f" > $L/t.log 2>&1; echo "$f rc=$?"; grep -E "^\[FAIL|Synthesis" $L/t.log | tail -4
  cat $L/t.log >> $L/tests-touched.log
done
rm -f $L/t.log
el
echo "== road-FLA 20 levels, base vs new, interleaved"
for r in 1 2 3 4 5; do for m in hec handshake; do
  fla "base-$m" build/base/coarsen $m; fla "new-$m" build/coarsen $m
done; done
el
echo "== rgg pipeline (HEC)"
for g in "n=16777216,deg=12" "n=16777216,deg=12,weights=int" "n=4194304,deg=12"; do
  for p in base new; do
    b=build/bench/bench_pipeline; [ $p = base ] && b=build/base/bench_pipeline
    echo "-- $p $g hec"; $b --graph rgg:$g --levels 10 --device gpu --no-metis --runs 5 2>&1 | tail -1
  done
done
echo "-- new n=4194304,deg=12 handshake"; build/bench/bench_pipeline --graph rgg:n=4194304,deg=12 --levels 10 --device gpu --no-metis --runs 5 --matcher handshake 2>&1 | tail -1
el
echo "== compute-sanitizer memcheck"
SAN_TIMEOUT=60 SAN_FILTERS='contract_gpu/small* contract_gpu/every_path* contract_gpu/rejects* contract_gpu/few* device_workspace/* two_hop_gpu/* hec_gpu/* hierarchy_gpu/cpu_and_gpu*' sh scripts/device-sanitize.sh
el
left=$(( 330 - ($(date +%s) - t0) ))
echo "== whole suite (GPU backend), limit ${left} s"
if [ $left -gt 20 ]; then
  timeout $left build/coarsen-tests --jobs 12 > $L/tests.log 2>&1; echo "suite rc=$? (124: time limit)"
  grep -E "^\[FAIL|Synthesis" $L/tests.log | tail -8
fi
el
} 2>&1 | tee $L/call1.txt
