#!/bin/bash
# s19-biglev, device call 1: where rgg 2^24's 10 GPU levels spend their
# time. prof = main 0884b38 + instrument.py (a stream synchronization and a
# timestamp after each step when HEC_PROF is set; not committed code).
# (1) bench_pipeline (prof build, HEC_PROF unset: no synchronization) 2^24
# unit and int, 2^22 unit; (2) per-level --json and per-step profile of
# coarsen on rgg 2^24 (coarsen gen, seed 1) unit and int; (3) ncu kernel
# durations of one 10-level GPU run on 2^24 unit.
L=${OUT:-.}
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
P=build/prof
lv() { # label program file
  $2 --quiet --json --device gpu --levels 10 $3 2>/dev/null |
  python3 -c "
import json,sys; d=json.load(sys.stdin); L=d['levels'][1:]
print('$1', 'levels_ms=%.2f'%d['phases']['levels_ms'],
 'lv=' + ' '.join('%d:%d:%.2f/%.2f/%.2f'%(l['vertices'],l['edges'],l['matching_ms'],l['two_hop_ms'],l['contraction_ms']) for l in L))"
}
{
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader; date -u
which ncu compute-sanitizer nsys
echo "== bench_pipeline (prof build, no HEC_PROF)"
for spec in rgg:n=16777216,deg=12 rgg:n=16777216,deg=12,weights=int rgg:n=4194304,deg=12; do
  timeout 60 $P/bench_pipeline --graph $spec --levels 10 --device gpu --no-metis --runs 5
done
el
echo "== gen rgg 2^24 files"
$P/coarsen gen rgg --vertices 16777216 --degree 12 --seed 1 -o /tmp/u24.graph >/dev/null 2>&1
$P/coarsen gen rgg --vertices 16777216 --degree 12 --seed 1 --weights int -o /tmp/i24.graph >/dev/null 2>&1
ls -la /tmp/u24.graph /tmp/i24.graph
el
echo "== per level: vertices:edges:matching/two_hop/contraction ms"
for r in 1 2 3; do lv unit $P/coarsen /tmp/u24.graph; lv int $P/coarsen /tmp/i24.graph; done
el
echo "== per step (HEC_PROF=1), unit then int, 2 runs each"
for f in u24 i24; do for r in 1 2; do echo "-- $f run $r"
  HEC_PROF=1 $P/coarsen --quiet --device gpu --levels 10 /tmp/$f.graph 2>&1 >/dev/null | grep -E "^(hec|contract|totals) "
done; done
el
echo "== ncu, unit 2^24, 10 levels"
timeout 110 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $L/ncu24.csv \
  $P/coarsen --quiet --device gpu --levels 10 /tmp/u24.graph > /dev/null 2>&1; echo "ncu rc=$?"
ls -la $L/ncu24.csv
el
} 2>&1 | tee $L/call1.txt
