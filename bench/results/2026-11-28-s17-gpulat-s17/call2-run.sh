#!/bin/sh
# s17-gpulat, device call 2: the whole GPU suite on "new" (striped tail +
# one-launch degree split), then road-FLA 20 levels interleaved:
# base (c37920e), head (446ab90: chained tail + one-kernel totals),
# stripe (head + the tail's items striped over the threads), s6 (stripe
# with a 6144-vertex tail), new (stripe + the degree split in one kernel);
# the handshake base / new; a per-step profile (prof: new + instrument.py);
# levels, maps and statistics compared; rgg 2^22.
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
st() { # program matcher file: md5 of the levels' statistics without the times
  $1 --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $2 $3 2>/dev/null | python3 -c "
import json,sys,hashlib; d=json.load(sys.stdin)
L=[{k:v for k,v in l.items() if not k.endswith('_ms')} for l in d['levels']]
print('stats md5', hashlib.md5(json.dumps(L,sort_keys=True).encode()).hexdigest())"
}
same() { # program matcher file
  rm -rf /tmp/o; $1 --quiet --device gpu --levels 20 --coarsen-to 0 --matcher $2 --out /tmp/o $3 > /dev/null 2>&1
  echo "$1 $2 $(basename $3) $(ls /tmp/o | wc -l) files, levels+maps md5 $(cat /tmp/o/level-* /tmp/o/map-* 2>/dev/null | md5sum | cut -c1-12) $(st $1 $2 $3)"
}
{
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u
echo "== whole suite (GPU backend), new"
timeout 200 build/coarsen-tests --jobs 16 > $L/call2-tests.log 2>&1; echo "suite rc=$?"
grep -E "^\[FAIL|Synthesis" $L/call2-tests.log | tail -8
el
echo "== road-FLA 20 levels, hec: base / head / stripe / s6 / new interleaved"
for r in 1 2 3 4 5 6; do
  lv base build/baseline/coarsen hec $F; lv head build/coarsen-head hec $F; lv stripe build/coarsen-stripe hec $F
  lv s6 build/coarsen-s6 hec $F; lv new build/coarsen hec $F
done
el
echo "== road-FLA 20 levels, handshake: base / new"
for r in 1 2 3 4 5 6; do lv base build/baseline/coarsen handshake $F; lv new build/coarsen handshake $F; done
el
echo "== profile (prof = new + instrument.py), road-FLA hec, 2 runs"
for r in 1 2; do HEC_PROF=1 build/coarsen-prof --quiet --json --device gpu --levels 20 --coarsen-to 0 $F 2>&1 >/dev/null | grep -E "^(hec|contract|totals) "; echo "--"; done
el
echo "== identical files and statistics, base / new"
for g in road-FLA.mtx.gz p2p-Gnutella06.mtx PGPgiantcompo.graph astro-ph.graph.gz; do
  for m in hec handshake; do same build/baseline/coarsen $m .deps/data/$g; same build/coarsen $m .deps/data/$g; done
done
el
echo "== rgg 2^22 deg 12, 10 levels: base / new, hec and handshake"
build/coarsen gen rgg --vertices 4194304 --degree 12 --seed 1 -o /tmp/rgg22.graph > /dev/null 2>&1
for r in 1 2 3; do for m in hec handshake; do
  lv "base $m" build/baseline/coarsen $m /tmp/rgg22.graph 10; lv "new $m" build/coarsen $m /tmp/rgg22.graph 10
done; done
el
} 2>&1 | tee $L/call2.txt
