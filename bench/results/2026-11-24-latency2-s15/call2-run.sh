#!/bin/sh
# latency2 branch, device call 2 (final programs): the whole GPU suite,
# memcheck on the tests of what changed since call 1 (contraction's last
# kernels, the hierarchy's workspace reserve), and the before/after
# benchmarks again, interleaved (base = 6171e14 in build/base/).
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
echo "== whole suite (GPU backend)"
timeout 120 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E "^\[FAIL|Synthesis" $L/tests.log | tail -8
for s in contract_gpu device_workspace two_hop_gpu hec_gpu hierarchy_gpu; do
  echo "$s: $(grep -c "^\[PASS\] $s::" $L/tests.log) passed, $(grep -c "^\[FAIL\] $s::" $L/tests.log) failed"
done
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
el
echo "== compute-sanitizer memcheck"
SAN_TIMEOUT=40 SAN_FILTERS='contract_gpu/every_path* device_workspace/* hierarchy_gpu/cpu_and_gpu*' sh scripts/device-sanitize.sh
el
} 2>&1 | tee $L/call2.txt
