#!/bin/bash
# diagnosis: road graphs slower at 16 threads after round 1? phases and per-level times, base vs new
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
{
for f in road-FLA.mtx.gz road-NY.mtx.gz copter2.graph.gz; do for t in 16 4; do for i in 1 2 3; do for b in build/baseline build; do
$b/coarsen --quiet --json --threads $t --levels 10 --device cpu .deps/data/$f | python3 -c "
import json,sys; d=json.load(sys.stdin); p=d['phases']; lv=d['levels'][1:]
m=' '.join('%.1f/%.1f/%.1f'%(l['matching_ms'],l['two_hop_ms'],l['contraction_ms']) for l in lv[:4])
print('$f t=$t $b read %.1f (parse %.1f build %.1f) levels %.1f | L1-4 match/2hop/contract %s'%(p['read_ms'],p['parse_ms'],p['build_ms'],p['levels_ms'],m))"
done; done; done; done
} 2>&1 | tee $L/diag.txt
