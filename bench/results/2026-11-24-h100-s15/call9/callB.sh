#!/bin/sh
# lead call B: the benchmarks of the merged session-15 code (H100 host).
L=$OUT
S=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - S )) s"; }
F=.deps/data/road-FLA.mtx.gz
fla() { # label matcher
  build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $2 $F 2>/dev/null |
  python3 -c "
import json,sys; d=json.load(sys.stdin); L=d['levels'][1:]
print('$1', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'n_last=%d'%L[-1]['vertices'])"
}
{
echo "== road-FLA 20 levels"
for r in 1 2 3 4 5 6 7; do for m in hec handshake; do fla "$m" $m; done; done
el
echo "== rgg pipeline"
for w in "" ",weights=int"; do for m in hec handshake; do
  echo "-- 2^24$w $m"; build/bench/bench_pipeline --graph rgg:n=16777216,deg=12$w --levels 10 --device gpu --no-metis --runs 7 --matcher $m 2>&1 | tail -1
done; done
for m in hec handshake; do
  echo "-- 2^22 $m"; build/bench/bench_pipeline --graph rgg:n=4194304,deg=12 --levels 10 --device gpu --no-metis --runs 7 --matcher $m 2>&1 | tail -1
done
el
echo "== host HEC before (971209d^, CPU-only build) / after, the user's command, CPU backend, 16 threads, medians of 7"
for g in copter2.graph.gz mdual.graph.gz road-NY.mtx.gz road-FLA.mtx.gz astro-ph.graph.gz; do
  for p in .devpack/base/coarsen build/coarsen; do
    : > /tmp/ab; for i in 1 2 3 4 5 6 7; do s0=$(date +%s.%N); $p --quiet --device cpu --levels 10 .deps/data/$g > /dev/null 2>&1; s1=$(date +%s.%N); awk "BEGIN{print $s1 - $s0}" >> /tmp/ab; done
    echo "$g $p median_s=$(sort -g /tmp/ab | sed -n 4p)"
  done
done
el
echo "== coarsen-mpi one rank (singleton), rgg 2^22, HEC"
build/coarsen gen rgg --vertices 4194304 --degree 12 --seed 1 -o /tmp/g.graph > /dev/null 2>&1
for i in 1 2 3; do
  for v in mpi-gpu mpi-cpu coarsen-gpu coarsen-cpu; do
    case $v in mpi-*) p=build/coarsen-mpi;; *) p=build/coarsen;; esac
    $p --quiet --json --device ${v#*-} --levels 10 /tmp/g.graph 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); p=d['phases']; t=d['totals']
print('$v', 'read %.0f levels %.0f matching %.0f contraction %.0f wall %.0f gather %s' % (p['read_ms'], p['levels_ms'], t['matching_ms'], t['contraction_ms'], p['wall_ms'], d.get('gather_ms','-')))"
  done
done
el
echo "== the user's command on rgg 2^23 (e2e)"
RUNS=3 PARTS="read out" sh bench/e2e.sh build > $L/e2e-log.txt 2>&1; tail -12 $L/e2e-log.txt
el
echo "== the user's command on the shared graphs"
RUNS=3 DEVICES="auto cpu" COARSEN_DATA=.deps/data sh bench/shared_e2e.sh build > $L/shared-log.txt 2>&1; tail -32 $L/shared-log.txt
el
} 2>&1 | tee $L/callB.txt
