#!/bin/bash
# lead call 6 (session 18): --host-below (the size under which a GPU run's
# levels go to the host) on the final tree, kernels loaded at start (EAGER)
# so that levels_ms is the levels' own: road-FLA, mdual, copter2, 20 levels.
cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
export CUDA_MODULE_LOADING=EAGER
for g in road-FLA.mtx.gz mdual.graph.gz copter2.graph.gz; do
for i in 1 2 3 4 5 6 7; do for hb in 1024 2048 4096 8192 16384; do
  printf "%s %s " $g $hb; build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --host-below $hb .deps/data/$g | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["phases"]["levels_ms"])'
done; done; done > $OUT/call6.txt 2>&1
python3 - $OUT/call6.txt <<'PY'
import sys,statistics as st
d={}
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)==3: d.setdefault((p[0],int(p[1])),[]).append(float(p[2]))
for k in sorted(d): print(k, 'median %.2f min %.2f max %.2f n=%d'%(st.median(d[k]),min(d[k]),max(d[k]),len(d[k])))
PY
