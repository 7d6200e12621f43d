#!/bin/sh
# usage: run2.sh WEIGHTS SEEDS CFGS... (cfg = T:P)
cd "$(dirname "$0")/../../.."  # the repository root
wt=$1; seeds=$2; shift 2
for inst in 1 2 3; do
  case "$inst$wt" in
   1real) o=511.17288800596134;; 2real) o=511.18471111820969;; 3real) o=511.17226672499498;;
   1exponential) o=1039.8667125608301;; 2exponential) o=1031.6432777345158;; 3exponential) o=1045.5203729707009;;
   1geometric) o=398.32070786262017;; 2geometric) o=396.11169077351809;; 3geometric) o=389.04527158439834;;
  esac
  for s in $(seq 1 $seeds); do
   for cfg in "$@"; do
    T=${cfg%:*}; P=${cfg#*:}
    OMP_NUM_THREADS=1 build-cpu/bench/bench_roma --runs 1 --seed $s --turns $T --priority $P --graph complete:n=1024,weights=$wt,seed=$inst --opt $o 2>&1 | grep -v "algo=none" | sed "s/^/inst=$inst seed=$s T=$T RP=$P /"
   done
  done
done
