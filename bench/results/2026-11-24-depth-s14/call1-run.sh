#!/bin/sh
# depth branch, device call: GPU tests of the touched matchers, memcheck on
# them, per-level time of handshake vs the new default (hec) on rgg 2^22 / 2^24.
cd "$(dirname "$0")/.." || exit 1
L=$OUT
t0=$(date +%s)
{
echo "== tests"
timeout 20 build/coarsen-tests --jobs 8 --filter 'hec*/*' > $L/t1.log 2>&1; echo "hec rc=$?"
timeout 30 build/coarsen-tests --jobs 8 --filter 'hierarchy*/*' > $L/t2.log 2>&1; echo "hierarchy rc=$?"
timeout 12 build/coarsen-tests --jobs 8 --filter 'handshake/*' > $L/t3.log 2>&1; echo "handshake rc=$?"
timeout 10 build/coarsen-tests --jobs 8 --filter 'two_hop*/*' > $L/t4.log 2>&1; echo "two_hop rc=$?"
for f in $L/t?.log; do grep -E "FAIL|Synthesis" $f | tail -4; done
echo "elapsed $(( $(date +%s) - t0 )) s"
echo "== timing"
for n in 4194304 16777216; do
  build/coarsen --quiet gen rgg --vertices $n --degree 12 --seed 1 -o /tmp/g$n.graph 2>&1 | tail -1
  for m in handshake hec; do
    for r in 1 2 3 4 5; do
      build/coarsen --quiet --json --device gpu --levels 10 --matcher $m /tmp/g$n.graph > /tmp/j.json 2>/dev/null
      python3 -c "
import json; d=json.load(open('/tmp/j.json')); L=d['levels'][1:]
print('rgg$n', '$m', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'nlev=%d'%len(L), 'n_last=%d'%L[-1]['vertices'],
 'per_level=%.2f'%(d['phases']['levels_ms']/len(L)), 'lv=' + ','.join('%s%.2f'%(l['built_on'][0], l['matching_ms']+l['two_hop_ms']+l['contraction_ms']) for l in L),
 'n=' + ','.join(str(l['vertices']) for l in L))"
    done
  done
  echo "elapsed $(( $(date +%s) - t0 )) s"
  rm -f /tmp/g$n.graph
done
echo "== sanitizer"
SAN_TIMEOUT=${SAN_T:-12} SAN_FILTERS='hec_gpu/* hierarchy_gpu/star*' sh scripts/device-sanitize.sh 2>&1 | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee $L/summary.txt
