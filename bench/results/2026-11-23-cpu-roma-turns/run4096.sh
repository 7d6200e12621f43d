#!/bin/sh
cd "$(dirname "$0")/../../.."  # the repository root
wt=$1; o=$2; shift 2
for s in 1 2 3 4 5; do
  for cfg in "$@"; do
    T=${cfg%:*}; P=${cfg#*:}
    OMP_NUM_THREADS=1 build-cpu/bench/bench_roma --runs 1 --seed $s --turns $T --priority $P --graph complete:n=4096,weights=$wt,seed=1 --opt $o 2>&1 | grep -v "algo=none" | sed "s/^/inst=1 seed=$s T=$T RP=$P /"
  done
done
