#!/bin/bash
# s19-biglev2, device call 1: final-candidate tree (build/) against main
# 3c709ac (build/baseline): GPU level files, maps and statistics identical;
# the contraction's and hierarchy's GPU tests; bench_pipeline interleaved
# (rgg 2^24 unit and int); ncu durations of the first level's kernels of
# rgg 2^24 (this tree), and of the warp/team rows kernels (base and this
# tree); ncu sections of the first level's largest kernels.
L=${OUT:-.}
D=.deps/data
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
same() { # label program matcher file: md5 of level files + maps, and of the levels' statistics without the times
  rm -rf /tmp/o
  $2 --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $3 --out /tmp/o $4 2>/dev/null | python3 -c "
import json,sys,hashlib; d=json.load(sys.stdin)
L=[{k:v for k,v in l.items() if not k.endswith('_ms')} for l in d['levels']]
print('stats', len(L), hashlib.md5(json.dumps(L,sort_keys=True).encode()).hexdigest()[:12])" > /tmp/st
  echo "$1 $3 $(basename $4) $(ls /tmp/o | wc -l) files md5 $(cat /tmp/o/level-* /tmp/o/map-* 2>/dev/null | md5sum | cut -c1-12) $(cat /tmp/st)"
}
B24="--graph rgg:n=16777216,deg=12 --levels 10 --device gpu --no-metis"
{
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader; date -u
which ncu compute-sanitizer nsys
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 -o /tmp/u20.graph > /dev/null 2>&1
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 --weights int -o /tmp/i20.graph > /dev/null 2>&1
echo "== identity: level files + maps + statistics, base / new"
for f in /tmp/u20.graph /tmp/i20.graph $D/road-FLA.mtx.gz $D/delaunay_n15.graph.gz $D/copter2.graph.gz; do
  for m in hec handshake; do for p in base:build/baseline/coarsen new:build/coarsen; do same ${p%%:*} ${p#*:} $m $f; done; done
done | tee /tmp/ident.txt
python3 -c "
L=[l.split() for l in open('/tmp/ident.txt')]
print('identity: %d of %d pairs differ' % (sum(1 for a,b in zip(L[0::2],L[1::2]) if a[1:]!=b[1:]), len(L)//2))"
el
echo "== GPU tests: contract_gpu, hierarchy_gpu"
timeout 45 build/coarsen-tests --jobs 12 --filter 'contract_gpu/*' > $L/call1-tests.log 2>&1; echo "contract_gpu rc=$?"
timeout 45 build/coarsen-tests --jobs 12 --filter 'hierarchy_gpu/*' >> $L/call1-tests.log 2>&1; echo "hierarchy_gpu rc=$?"
grep -E "^\[FAIL|Synthesis" $L/call1-tests.log | tail -6
el
echo "== bench_pipeline, interleaved base / new (no_upload_ms, medians of 5 each)"
for r in 1 2; do for spec in rgg:n=16777216,deg=12 rgg:n=16777216,deg=12,weights=int; do
  echo "base $(timeout 30 build/baseline/bench/bench_pipeline --graph $spec --levels 10 --device gpu --no-metis --runs 5)"
  echo "new  $(timeout 30 build/bench/bench_pipeline --graph $spec --levels 10 --device gpu --no-metis --runs 5)"
done; done
el
echo "== ncu: rows kernels (first 4 launches each: the first run's levels 1-2), base and new, 2^24 unit"
for p in base:build/baseline/bench/bench_pipeline new:build/bench/bench_pipeline; do
  timeout 30 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $L/ncu-rows-${p%%:*}.csv \
    -k regex:'k_rows_warp|k_rows_team' -c 4 ${p#*:} $B24 --runs 1 > /dev/null 2>&1; echo "ncu ${p%%:*} rc=$?"
done
el
echo "== ncu: the first 110 kernels (level 1 and part of 2), new, 2^24 unit"
timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $L/ncu24-new.csv -c 110 \
  build/bench/bench_pipeline $B24 --runs 1 > /dev/null 2>&1; echo "ncu rc=$?"
el
echo "== ncu sections, level 1's large kernels, new"
s=$(( 140 - ($(date +%s) - t0) )); [ $s -gt 30 ] && s=30
[ $s -gt 8 ] && timeout $s ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --csv \
  --log-file $L/ncu24-sections.csv -k regex:'rows_group_kernel|k_rows_team|k_rows_warp|k_bucket_count|k_compact_rows|k_pair_classes|k_slots|k_bucket_admit' -c 8 \
  build/bench/bench_pipeline $B24 --runs 1 > /dev/null 2>&1; echo "ncu rc=$?"
el
} 2>&1 | tee $L/call1.txt
