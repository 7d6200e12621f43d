#!/bin/sh
# large.sh — the target-size benchmarks of the issues, for the GPU machine
# (16 cores, one H100): matching on >= 3e7-edge graphs with METIS's matching
# phase beside it, and the 10-level pipeline on ~2e8 directed edges with
# METIS's coarsening beside it. Each part writes BUILD-independent key=value
# lines to LOG/<part>.txt (LOG = $OUT on the device tool, else bench/results).
#
#   sh bench/large.sh match|pipeline|contract [BUILD]
set -u
part=${1:?usage: sh bench/large.sh match|pipeline|contract [BUILD]}
build=${2:-build}
log=${OUT:-bench/results}
mkdir -p "$log"
tmp=${TMPDIR:-/tmp}
runs=${RUNS:-5}
# gpmetis's phase times for a generated graph (written once as METIS text).
metis_row() {
    "$build/coarsen" gen $1 --quiet -o "$tmp/large.graph" &&
        echo "metis_graph=$2 $(sh bench/metis_phases.sh "$tmp/large.graph" 2 | tr '\n' ' ')"
    rm -f "$tmp/large.graph"
}
case $part in
match)
    {
        "$build/bench/bench_match" --runs "$runs" --backends gpu,cpu,cpu1 \
            --graph er:n=8388608,deg=8,weights=int --graph rmat:n=8388608,deg=8,weights=int \
            --graph grid2d:nx=4096,ny=4096,weights=real --graph rgg:n=8388608,deg=8,weights=real
        "$build/bench/bench_match" --runs "$runs" --backends gpu,cpu \
            --graph er:n=25000000,deg=8,weights=real --graph rmat:n=33554432,deg=6,weights=real
        "$build/bench/bench_match" --runs "$runs" --backends gpu --matchers redblue --random \
            --graph er:n=4000000,deg=32,weights=real
        metis_row "er --vertices 8388608 --degree 8 --weights int" er:n=8388608,deg=8,weights=int
        metis_row "rmat --vertices 8388608 --degree 8 --weights int" rmat:n=8388608,deg=8,weights=int
    } > "$log/large-match.txt" 2>&1
    ;;
pipeline)
    {
        "$build/bench/bench_pipeline" --runs "$runs" --device both --no-metis --graph rgg:n=16777216,deg=12
        "$build/bench/bench_pipeline" --runs "$runs" --device both --no-metis --graph rgg:n=16777216,deg=12,weights=int
        "$build/bench/bench_pipeline" --runs "$runs" --device gpu --no-metis --graph rmat:n=8388608,deg=24,weights=int
        metis_row "rgg --vertices 16777216 --degree 12" rgg:n=16777216,deg=12
    } > "$log/large-pipeline.txt" 2>&1
    ;;
contract)
    BENCH_CONTRACT_GPU_ONLY=${BENCH_CONTRACT_GPU_ONLY:-1} "$build/bench/bench_contract" --runs "$runs" --graph rgg:n=16777216,deg=12 \
        --graph rmat:n=8388608,deg=24,weights=real > "$log/large-contract.txt" 2>&1
    ;;
*)
    echo "large.sh: unknown part '$part'" >&2
    exit 2
    ;;
esac
