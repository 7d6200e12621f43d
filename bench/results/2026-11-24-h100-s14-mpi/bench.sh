#!/bin/bash
# The issue-18 CPU runs on the device host (dist branch): per-rank reading +
# 16 ranks vs 1 rank vs OpenMP 16 threads on rgg 2^24 deg 12, then the MPI
# comparison at 1, 4 and 16 ranks. Everything under 112 s of wall time.
exec > >(tee -a "$OUT/log.txt") 2>&1
T0=$(date +%s.%N)
el() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
t() { echo "[$(el) s] $*"; }
rm -rf build .devbuild .deps .mpirt && tar xzf .dev-dist/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
t probe
which mpirun mpiexec; timeout 8 find / -xdev -name 'libmpi.so*' 2>/dev/null | head -5
nproc; lscpu | grep -i "model name"; free -g | head -2; python3 --version
. .dev-dist/mpienv.sh
mpirun --version | head -1
t gen
build/coarsen gen rgg --vertices 16777216 --degree 12 --seed 1 --quiet -o /tmp/rgg24.graph; ls -la /tmp/rgg24.graph
A="--device cpu --levels 10 --no-level0 --format parhip"
t omp16
build/coarsen $A --threads 16 --out /tmp/omp /tmp/rgg24.graph 2>&1 | tail -3
t mpi16
OMP_NUM_THREADS=1 mpirun -np 16 --bind-to core build/coarsen-mpi $A --out /tmp/m16 /tmp/rgg24.graph 2>&1 | tail -3
t compare16
n=0; for f in /tmp/omp/level-* /tmp/omp/map-*; do n=$((n+1)); cmp "$f" "/tmp/m16/${f##*/}" || echo "DIFF m16 ${f##*/}"; done; echo "compared $n files (16 ranks)"
cp /tmp/omp/stats.json "$OUT/omp16-stats.json"; cp /tmp/m16/stats.json "$OUT/mpi16-stats.json"
t mpi1
OMP_NUM_THREADS=1 timeout 50 mpirun -np 1 build/coarsen-mpi $A --out /tmp/m1 /tmp/rgg24.graph 2>&1 | tail -3
t compare1
n=0; for f in /tmp/omp/level-* /tmp/omp/map-*; do n=$((n+1)); cmp "$f" "/tmp/m1/${f##*/}" || echo "DIFF m1 ${f##*/}"; done; echo "compared $n files (1 rank)"
cp /tmp/m1/stats.json "$OUT/mpi1-stats.json" 2>/dev/null
rm -rf /tmp/m1 /tmp/m16 /tmp/omp
left=$(awk -v e="$(el)" 'BEGIN { printf "%d", 112 - e }')
t "tests (limit $left s)"
if [ "$left" -ge 5 ]; then
    MPI_RANKS="1 4 16" timeout "$left" sh .dev-dist/run.sh build > "$OUT/mpi-tests.txt" 2>&1; echo "tests exit $? (124: cut at the limit)"
fi
tail -2 "$OUT/mpi-tests.txt"
t end
