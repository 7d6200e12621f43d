#!/bin/bash
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
{
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
for cfg in "16 1" "16 2" "16 4" "4 1" "8 1" "8 2"; do set -- $cfg
 for r in 1 2; do rm -rf $T/out; echo "== threads $1 lanes $2 run $r"
  COARSEN_LANE_TRACE=1 COARSEN_LANES=$2 build/variant/coarsen --threads $1 --levels 10 --device gpu --out $T/out $T/g.graph 2>&1 | grep -E 'trace|time:' | sort -k9 -n | head -40
 done; done
} 2>&1 | tee $L/trace.txt
