#!/bin/bash
# s19-biglev4, the one device call: the final tree (build/: k_class_starts
# tests the sorted slot first) against main 627791c (build/baseline): GPU
# level files, maps and statistics identical (HEC and handshake); the whole
# GPU suite; memcheck on the two-hop tests; bench_pipeline rgg 2^24 int and
# unit interleaved base / final; ncu durations of k_class_starts if time is left.
L=${OUT:-.}
D=.deps/data
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
left() { echo $(( 100 - ($(date +%s) - t0) )); }
same() { # label program matcher file: md5 of level files + maps, and of the levels' statistics without the times
  rm -rf /tmp/o
  $2 --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $3 --out /tmp/o $4 2>/dev/null | python3 -c "
import json,sys,hashlib; d=json.load(sys.stdin)
L=[{k:v for k,v in l.items() if not k.endswith('_ms')} for l in d['levels']]
print('stats', len(L), hashlib.md5(json.dumps(L,sort_keys=True).encode()).hexdigest()[:12])" > /tmp/st
  echo "$1 $3 $(basename $4) $(ls /tmp/o | wc -l) files md5 $(cat /tmp/o/level-* /tmp/o/map-* 2>/dev/null | md5sum | cut -c1-12) $(cat /tmp/st)"
}
{
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 -o /tmp/u20.graph > /dev/null 2>&1
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 --weights int -o /tmp/i20.graph > /dev/null 2>&1
echo "== identity: level files + maps + statistics, base / final"
for f in /tmp/u20.graph /tmp/i20.graph $D/road-FLA.mtx.gz $D/p2p-Gnutella06.mtx; do
  for m in hec handshake; do for p in base:build/baseline/coarsen final:build/coarsen; do same ${p%%:*} ${p#*:} $m $f; done; done
done | tee /tmp/ident.txt
python3 -c "
L=[l.split() for l in open('/tmp/ident.txt')]
print('identity: %d of %d pairs differ' % (sum(1 for a,b in zip(L[0::2],L[1::2]) if a[1:]!=b[1:]), len(L)//2))"
el
echo "== whole suite (GPU backend), final"
timeout 45 build/coarsen-tests --jobs 12 > $L/call1-tests.log 2>&1; echo "suite rc=$?"
grep -E "^\[FAIL|Synthesis" $L/call1-tests.log | tail -8
el
echo "== compute-sanitizer memcheck, final"
SAN_TIMEOUT=20 SAN_FILTERS='two_hop_gpu/*' timeout 22 sh scripts/device-sanitize.sh
el
echo "== bench_pipeline, interleaved base / final (no_upload_ms, medians of 5 each)"
for r in 1 2 3; do for spec in rgg:n=16777216,deg=12,weights=int rgg:n=16777216,deg=12; do
  [ $(left) -gt 14 ] || continue
  echo "base  $(timeout 8 build/baseline/bench/bench_pipeline --graph $spec --levels 10 --device gpu --no-metis --runs 5)"
  echo "final $(timeout 8 build/bench/bench_pipeline --graph $spec --levels 10 --device gpu --no-metis --runs 5)"
done; done
el
echo "== ncu: k_class_starts, 10 launches, base and final, 2^24 int"
for p in base:build/baseline/bench/bench_pipeline final:build/bench/bench_pipeline; do
  [ $(left) -gt 6 ] || continue
  timeout 6 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $L/ncu-starts-${p%%:*}.csv \
    -k regex:'k_class_starts' -c 10 ${p#*:} --graph rgg:n=16777216,deg=12,weights=int --levels 10 --device gpu --no-metis --runs 1 > /dev/null 2>&1; echo "ncu ${p%%:*} rc=$?"
done
el
} 2>&1 | tee $L/call1.txt
