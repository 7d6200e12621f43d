#!/bin/bash
# s19-biglev3, device call 1: the row-choice reduction on (key, rank) only
# (build/, tree = this branch's first commit) and the same with
# __launch_bounds__(256, 6) (build/lb6/bench, 40 registers, not committed)
# against main d8dc3f5 (build/baseline): GPU level files, maps and statistics
# identical; the GPU tests of the matchers using rows_group_kernel; ncu
# durations of rows_group_kernel (first run's levels); bench_pipeline
# interleaved base / new / lb6 (rgg 2^24 unit and int).
L=${OUT:-.}
D=.deps/data
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
left() { echo $(( 112 - ($(date +%s) - t0) )); }
same() { # label program matcher file: md5 of level files + maps, and of the levels' statistics without the times
  rm -rf /tmp/o
  $2 --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $3 --out /tmp/o $4 2>/dev/null | python3 -c "
import json,sys,hashlib; d=json.load(sys.stdin)
L=[{k:v for k,v in l.items() if not k.endswith('_ms')} for l in d['levels']]
print('stats', len(L), hashlib.md5(json.dumps(L,sort_keys=True).encode()).hexdigest()[:12])" > /tmp/st
  echo "$1 $3 $(basename $4) $(ls /tmp/o | wc -l) files md5 $(cat /tmp/o/level-* /tmp/o/map-* 2>/dev/null | md5sum | cut -c1-12) $(cat /tmp/st)"
}
B24="--graph rgg:n=16777216,deg=12 --levels 10 --device gpu --no-metis --runs 1"
{
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader; date -u
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 -o /tmp/u20.graph > /dev/null 2>&1
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 --weights int -o /tmp/i20.graph > /dev/null 2>&1
echo "== identity: level files + maps + statistics, base / new"
for f in /tmp/u20.graph /tmp/i20.graph $D/road-FLA.mtx.gz $D/delaunay_n15.graph.gz; do
  for m in hec handshake; do for p in base:build/baseline/coarsen new:build/coarsen; do same ${p%%:*} ${p#*:} $m $f; done; done
done | tee /tmp/ident.txt
python3 -c "
L=[l.split() for l in open('/tmp/ident.txt')]
print('identity: %d of %d pairs differ' % (sum(1 for a,b in zip(L[0::2],L[1::2]) if a[1:]!=b[1:]), len(L)//2))"
el
echo "== GPU tests: hec_gpu, handshake, redblue, hierarchy_gpu, two_hop_gpu"
for f in 'hec_gpu/*' 'handshake/*' 'redblue/*' 'hierarchy_gpu/*' 'two_hop_gpu/*'; do
  timeout 20 build/coarsen-tests --jobs 12 --filter "$f" >> $L/call1-tests.log 2>&1; echo "$f rc=$?"
done
grep -E "^\[FAIL|Synthesis" $L/call1-tests.log | tail -8
el
echo "== ncu: rows_group_kernel, first 6 launches, base / new / lb6, 2^24 unit"
for p in base:build/baseline/bench/bench_pipeline new:build/bench/bench_pipeline lb6:build/lb6/bench/bench_pipeline; do
  timeout 20 ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active --csv --log-file $L/ncu-rows-${p%%:*}.csv \
    -k regex:'rows_group_kernel' -c 6 ${p#*:} $B24 > /dev/null 2>&1; echo "ncu ${p%%:*} rc=$?"
done
el
echo "== bench_pipeline, interleaved base / new / lb6 (no_upload_ms, medians of 5 each)"
for r in 1 2; do for spec in rgg:n=16777216,deg=12 rgg:n=16777216,deg=12,weights=int; do
  for p in base:build/baseline/bench/bench_pipeline new:build/bench/bench_pipeline lb6:build/lb6/bench/bench_pipeline; do
    [ $(left) -gt 9 ] || continue
    echo "${p%%:*} $(timeout 9 ${p#*:} --graph $spec --levels 10 --device gpu --no-metis --runs 5)"
  done
done; done
el
} 2>&1 | tee $L/call1.txt
