#!/bin/sh
# latency branch, device call 2: an instrumented build (HEC_PROF=1: a
# stream sync and a timestamp between HEC's, two-hop's and contraction's
# steps; not committed) on road-FLA 20 levels and rgg 2^22.
L=$OUT
F=.deps/data/road-FLA.mtx.gz
{
build/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 $F > /dev/null
HEC_PROF=1 build/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 $F 2>&1 >/dev/null
echo "== handshake"
HEC_PROF=1 build/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 --matcher handshake $F 2>&1 >/dev/null
echo "== rgg 2^22"
HEC_PROF=1 build/bench/bench_pipeline --graph rgg:n=4194304,deg=12 --levels 10 --device gpu --no-metis --runs 1 2>&1 | tail -60
} 2>&1 | tee $L/call2.txt
