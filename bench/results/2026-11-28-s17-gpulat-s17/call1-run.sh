#!/bin/sh
# s17-gpulat, device call 1: the GPU tests of HEC and the hierarchy, then
# road-FLA 20 levels (HEC) interleaved: base (c37920e), tail (the tail
# rounds by chains, 4096), t6 (the same, 6144), new (tail + one-kernel
# totals); rgg 2^22 and shared graphs with hubs (maps and levels compared).
# Run from the bundle's directory after `. scripts/device-env.sh`.
L=${OUT:-.}
F=.deps/data/road-FLA.mtx.gz
t0=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - t0 )) s"; }
lv() { # label program matcher file [levels]
  $2 --quiet --json --device gpu --levels ${5:-20} --coarsen-to 0 --matcher $3 $4 2>/dev/null |
  python3 -c "
import json,sys; d=json.load(sys.stdin); L=d['levels'][1:]
print('$1', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'n_last=%d'%L[-1]['vertices'],
 'lv=' + ','.join('%s%.2f/%.2f'%(l['built_on'][0], l['matching_ms']+l['two_hop_ms'], l['contraction_ms']) for l in L))"
}
st() { # program file: md5 of the levels' statistics without the times
  $1 --quiet --json --device gpu --levels 20 --coarsen-to 0 $2 2>/dev/null | python3 -c "
import json,sys,hashlib; d=json.load(sys.stdin)
L=[{k:v for k,v in l.items() if not k.endswith('_ms')} for l in d['levels']]
print('stats md5', hashlib.md5(json.dumps(L,sort_keys=True).encode()).hexdigest())"
}
{
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u
echo "== GPU tests touched"
for f in 'hec_gpu/*' 'hec/*' 'hierarchy_gpu/*' 'two_hop_gpu/*' 'device_workspace/*'; do
  timeout 120 build/coarsen-tests --jobs 8 --filter "$f" > $L/t.log 2>&1; echo "$f rc=$? $(grep -E 'Synthesis' $L/t.log)"
  cat $L/t.log >> $L/call1-tests.log
done
el
echo "== road-FLA 20 levels, hec: base / tail / t6 / new interleaved"
for r in 1 2 3 4 5 6; do
  lv base build/baseline/coarsen hec $F; lv tail build/coarsen-tail hec $F; lv t6 build/coarsen-t6 hec $F; lv new build/coarsen hec $F
done
el
echo "== rgg 2^22 deg 12, 10 levels, hec"
build/coarsen gen rgg --vertices 4194304 --degree 12 --seed 1 -o /tmp/rgg22.graph > /dev/null 2>&1
for r in 1 2 3; do
  lv base build/baseline/coarsen hec /tmp/rgg22.graph 10; lv tail build/coarsen-tail hec /tmp/rgg22.graph 10; lv t6 build/coarsen-t6 hec /tmp/rgg22.graph 10; lv new build/coarsen hec /tmp/rgg22.graph 10
done
el
echo "== road-FLA, handshake (totals only): base / new"
for r in 1 2 3 4 5; do lv base build/baseline/coarsen handshake $F; lv new build/coarsen handshake $F; done
for p in baseline/coarsen coarsen; do
  rm -rf /tmp/o; build/$p --quiet --device gpu --levels 20 --coarsen-to 0 --out /tmp/o $F > /dev/null 2>&1
  echo "$p road-FLA hec $(ls /tmp/o | wc -l) files, levels+maps md5 $(cat /tmp/o/level-* /tmp/o/map-* 2>/dev/null | md5sum) $(st build/$p $F)"
done
el
echo "== hub graphs (hec, 20 levels), maps identical?"
for g in p2p-Gnutella06.mtx PGPgiantcompo.graph astro-ph.graph.gz; do
  for r in 1 2 3; do
    lv "base $g" build/baseline/coarsen hec .deps/data/$g; lv "new $g" build/coarsen hec .deps/data/$g
  done
  for p in baseline/coarsen coarsen-tail coarsen-t6 coarsen; do
    rm -rf /tmp/o; build/$p --quiet --device gpu --levels 20 --coarsen-to 0 --out /tmp/o .deps/data/$g > /dev/null 2>&1
    echo "$p $g $(ls /tmp/o | wc -l) files, levels+maps md5 $(cat /tmp/o/level-* /tmp/o/map-* 2>/dev/null | md5sum) $(st build/$p .deps/data/$g)"
  done
done
el
} 2>&1 | tee $L/call1.txt
