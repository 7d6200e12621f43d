#!/bin/sh
# depth branch, device call 2: the one-block tail of HEC's rounds: hec and
# hierarchy suites, memcheck (and racecheck, time permitting) on hec_gpu,
# per-level time of handshake vs hec on rgg 2^22 and 2^24 (medians of 5).
cd "$(dirname "$0")/.." || exit 1
L=$OUT
t0=$(date +%s)
timing() {
  n=$1; shift
  build/coarsen --quiet gen rgg --vertices $n --degree 12 --seed 1 -o /tmp/g$n.graph 2>&1 | tail -1
  for m in "$@"; do
    a="--matcher $m"; [ "$m" = hec-rel0 ] && a="--matcher hec --two-hop-relatives 0"
    for r in 1 2 3 4 5; do
      build/coarsen --quiet --json --device gpu --levels 10 $a /tmp/g$n.graph > /tmp/j.json 2>/dev/null
      python3 -c "
import json; d=json.load(open('/tmp/j.json')); L=d['levels'][1:]
print('rgg$n', '$m', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'nlev=%d'%len(L), 'n_last=%d'%L[-1]['vertices'],
 'per_level=%.2f'%(d['phases']['levels_ms']/len(L)), 'rounds=' + ','.join(str(l['matching_passes']) for l in L), 'lv=' + ','.join('%s%.2f'%(l['built_on'][0], l['matching_ms']+l['two_hop_ms']+l['contraction_ms']) for l in L))"
    done
  done
  rm -f /tmp/g$n.graph
  echo "elapsed $(( $(date +%s) - t0 )) s"
}
{
echo "== tests"
timeout 15 build/coarsen-tests --jobs 8 --filter 'hec*/*' > $L/t1.log 2>&1; echo "hec rc=$?"
timeout 20 build/coarsen-tests --jobs 8 --filter 'hierarchy*/*' > $L/t2.log 2>&1; echo "hierarchy rc=$?"
for f in $L/t?.log; do grep -E "FAIL|Synthesis" $f | tail -4; done
echo "elapsed $(( $(date +%s) - t0 )) s"
echo "== timing"
timing 4194304 handshake hec hec-rel0
echo "== memcheck"
timeout 10 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 build/coarsen-tests --jobs 1 --filter 'hec_gpu/*' > $L/memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|Synthesis" $L/memcheck.log | tail -2
timing 16777216 handshake hec
echo "== racecheck"
timeout 8 compute-sanitizer --tool racecheck --error-exitcode 9 build/coarsen-tests --jobs 1 --filter 'hec_gpu/*' > $L/racecheck.log 2>&1; echo "racecheck rc=$? (124: time limit)"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Synthesis|hazard" $L/racecheck.log | head -5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee $L/summary.txt
