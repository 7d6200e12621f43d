#!/bin/sh
# s18-gpulat2, device call 2: the whole GPU suite on final (a99ee00 + the
# rounds' chains) and on B (a99ee00), road-FLA 20 levels interleaved base
# (main 36d2229) / A (c8d77bd, call 1's "new") / B / final, a per-step
# profile (prof: final + instrument.py), level files, maps, statistics and
# part files compared base / B / final, compute-sanitizer memcheck on the
# suites touched, the handshake, rgg 2^22.
L=${OUT:-.}
F=.deps/data/road-FLA.mtx.gz
D=.deps/data
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
part() { # program matcher file
  rm -f /tmp/p; $1 partition -k 8 --device gpu --matcher $2 -o /tmp/p $3 > /dev/null 2>&1
  echo "$1 partition k8 $2 $(basename $3) rc=$? part md5 $(md5sum < /tmp/p | cut -c1-12)"
}
{
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; date -u
echo "== whole suite (GPU backend), final"
timeout 100 build/coarsen-tests --jobs 16 > $L/call2-tests.log 2>&1; echo "suite rc=$?"
grep -E "^\[FAIL|Synthesis" $L/call2-tests.log | tail -8
el
echo "== whole suite (GPU backend), B"
timeout 100 build/coarsen-tests-B --jobs 16 > $L/call2-tests-B.log 2>&1; echo "suite rc=$?"
grep -E "^\[FAIL|Synthesis" $L/call2-tests-B.log | tail -8
el
echo "== road-FLA 20 levels, hec: base / A / B / final interleaved"
for r in $(seq 1 16); do
  lv base build/baseline/coarsen hec $F; lv A build/coarsen-A hec $F; lv B build/coarsen-B hec $F
  lv final build/coarsen hec $F
done
el
echo "== profile (prof = final + instrument.py), 2 runs"
for r in 1 2; do HEC_PROF=1 build/coarsen-prof --quiet --json --device gpu --levels 20 --coarsen-to 0 $F 2>&1 >/dev/null | grep -E "^(hec|contract|totals) "; done
el
echo "== identical level files, maps, statistics and part files, base / final"
for g in road-FLA.mtx.gz road-NY.mtx.gz p2p-Gnutella06.mtx astro-ph.graph.gz PGPgiantcompo.graph polblogs.graph power.graph delaunay_n15.graph.gz; do
  for m in hec handshake; do
    same build/baseline/coarsen $m $D/$g; same build/coarsen-B $m $D/$g; same build/coarsen $m $D/$g
  done
done
for g in p2p-Gnutella06.mtx astro-ph.graph.gz PGPgiantcompo.graph polblogs.graph delaunay_n15.graph.gz; do
  for m in hec handshake; do
    part build/baseline/coarsen $m $D/$g; part build/coarsen-B $m $D/$g; part build/coarsen $m $D/$g
  done
done
el
echo "== compute-sanitizer memcheck (final)"
SAN_TIMEOUT=40 SAN_FILTERS='hierarchy_gpu/cpu_and_gpu* hec_gpu/* two_hop_gpu/* two_hop/shared_graphs*' sh scripts/device-sanitize.sh
el
echo "== compute-sanitizer memcheck (B: two-hop)"
cp build/coarsen-tests /tmp/t-final && cp build/coarsen-tests-B build/coarsen-tests
SAN_TIMEOUT=40 SAN_FILTERS='two_hop_gpu/* hierarchy_gpu/cpu_and_gpu*' sh scripts/device-sanitize.sh
cp /tmp/t-final build/coarsen-tests
el
echo "== road-FLA 20 levels, handshake: base / final"
for r in $(seq 1 10); do lv base build/baseline/coarsen handshake $F; lv final build/coarsen handshake $F; done
el
echo "== rgg 2^22 deg 12, 10 levels: base / final, hec and handshake"
build/coarsen gen rgg --vertices 4194304 --degree 12 --seed 1 -o /tmp/rgg22.graph > /dev/null 2>&1
for r in 1 2 3; do for m in hec handshake; do
  lv "base $m" build/baseline/coarsen $m /tmp/rgg22.graph 10; lv "final $m" build/coarsen $m /tmp/rgg22.graph 10
done; done
el
} 2>&1 | tee $L/call2.txt
