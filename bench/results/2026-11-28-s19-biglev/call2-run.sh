#!/bin/bash
# s19-biglev, device call 2: the final tree (build/coarsen*, build/bench) against
# main 0884b38 (build/baseline): GPU level files, maps and statistics
# identical (rgg 2^20 unit and int, road-FLA, eight shared graphs; HEC and
# the handshake); bench_pipeline interleaved (rgg 2^24 unit and int, 2^22);
# the whole GPU suite; ncu durations of the changed kernels (2^24 unit);
# per level on rgg 2^24; compute-sanitizer memcheck on the tests of the
# changed code. Programs A (1897604: the counters and list teams) and B
# (0c8a050: A + the contraction's rows through shared memory), final =
# 1680819 (B + the halving tree's shuffles): identity and the GPU tests
# (*gpu*) for A and B, so that a failure can be placed.
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
lv() { # label program file
  $2 --quiet --json --device gpu --levels 10 $3 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); L=d['levels'][1:]
print('$1', 'levels_ms=%.2f'%d['phases']['levels_ms'],
 'lv=' + ' '.join('%.2f/%.2f'%(l['matching_ms'],l['contraction_ms']) for l in L))"
}
left() { echo $(( 255 - ($(date +%s) - t0) )); } # seconds left of the call's budget
{
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 -o /tmp/u20.graph > /dev/null 2>&1
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 --weights int -o /tmp/i20.graph > /dev/null 2>&1
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 --weights real -o /tmp/r20.mtx > /dev/null 2>&1
G="/tmp/u20.graph /tmp/i20.graph /tmp/r20.mtx $D/road-FLA.mtx.gz $D/delaunay_n15.graph.gz $D/p2p-Gnutella06.mtx $D/copter2.graph.gz $D/polblogs.graph"
ident() { # programs...: every graph, both matchers
  for f in $G; do for m in hec handshake; do for p in "$@"; do same ${p%%:*} ${p#*:} $m $f; done; done; done
}
echo "== identity: level files + maps + statistics, base / final"
ident base:build/baseline/coarsen final:build/coarsen | tee /tmp/ident.txt
bad=$(python3 -c "
import sys; L=[l.split() for l in open('/tmp/ident.txt')]
print(sum(1 for a,b in zip(L[0::2],L[1::2]) if a[1:]!=b[1:] and a[0]=='base'))")
echo "identity: $bad of $(( $(wc -l < /tmp/ident.txt) / 2 )) runs differ"
el
echo "== whole suite (GPU backend), final"
timeout 110 build/coarsen-tests --jobs 12 > $L/call2-tests.log 2>&1; rc=$?; echo "suite rc=$rc"
grep -E "^\[FAIL|Synthesis" $L/call2-tests.log | tail -8
el
if [ "$bad" != 0 ] || [ $rc != 0 ]; then
  echo "== final differs or fails: A and B"
  G="/tmp/u20.graph /tmp/r20.mtx $D/road-FLA.mtx.gz"; ident A:build/A/coarsen B:build/B/coarsen
  for p in A B; do
    echo "== GPU tests (*gpu*), $p"
    timeout 45 build/$p/coarsen-tests --jobs 12 --filter '*gpu*' > $L/call2-tests-$p.log 2>&1; echo "subset rc=$?"
    grep -E "^\[FAIL|Synthesis" $L/call2-tests-$p.log | tail -4
  done
  el
fi
echo "== bench_pipeline, interleaved base / final (no_upload_ms, medians of 5 each)"
for r in 1 2; do
  for spec in rgg:n=16777216,deg=12 rgg:n=16777216,deg=12,weights=int rgg:n=4194304,deg=12; do
    echo "base  $(timeout 40 build/baseline/bench/bench_pipeline --graph $spec --levels 10 --device gpu --no-metis --runs 5)"
    echo "final $(timeout 40 build/bench/bench_pipeline --graph $spec --levels 10 --device gpu --no-metis --runs 5)"
  done
done
el
echo "== compute-sanitizer memcheck, final"
s=$(left); [ $s -gt 75 ] && s=75
[ $s -gt 20 ] && SAN_TIMEOUT=20 SAN_FILTERS='hec_gpu/* two_hop_gpu/* contract_gpu/every_path* fixed_sum/gpu* roma/gpu*' timeout $s sh scripts/device-sanitize.sh
el
for p in base:build/baseline/coarsen final:build/coarsen; do
  s=$(left)
  [ $s -gt 20 ] || continue
  echo "== ncu, the changed kernels, ${p%%:*}, rgg 2^20 unit (10 levels)"
  timeout $s ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $L/ncu20-${p%%:*}.csv \
    -k regex:'k_rows_team|k_rows_warp|k_list_hash|k_hubs|k_cap_blocked|k_pair_classes|k_number|k_bucket_count|totals_kernel' \
    ${p#*:} --quiet --device gpu --levels 10 /tmp/u20.graph > /dev/null 2>&1; echo "ncu rc=$?"
  el
done
} 2>&1 | tee $L/call2.txt
