#!/bin/sh
# lead call D: the final code (every branch merged): the whole GPU suite,
# compute-sanitizer on the GPU tests the last merges touched, the partition
# on the GPU against METIS (V-cycle on the GPU), and coarsen-mpi on one GPU.
L=$OUT
S=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - S )) s"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
echo "== whole suite (GPU backend)"
timeout 300 build/coarsen-tests --jobs 12 --verbose > $L/tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[FAIL|Synthesis' $L/tests.log | tail -10; grep -c '\[SKIP\]' $L/tests.log | sed 's/^/skipped: /'
el
echo "== compute-sanitizer"
SAN_TIMEOUT=60 SAN_FILTERS='partition_gpu/* hierarchy_gpu/cpu_and_gpu* hec_gpu/* two_hop_gpu/* contract_gpu/small* device_workspace/*' sh scripts/device-sanitize.sh
el
echo "== partition on the GPU against METIS (bench_partition, medians of 3)"
for g in road-FLA.mtx.gz road-NY.mtx.gz mdual.graph.gz copter2.graph.gz; do
  build/bench/bench_partition --graph .deps/data/$g --k 2,8,64 --seed 1 --device gpu --runs 3 2>&1 | grep "^bench=" | sed 's/ threads=.*median_ms=/ median_ms=/' | cut -c1-400
done
el
echo "== coarsen-mpi --device gpu, one rank (singleton), against coarsen --device gpu"
MPI_DEVICE=gpu MPI_SINGLETON=1 MPI_RANKS=1 COARSEN_DATA=.deps/data timeout 200 sh tests/mpi/run.sh build > $L/mpi-gpu1.txt 2>&1; echo "mpi rc=$? (124: time limit)"
grep -c '^ok' $L/mpi-gpu1.txt | sed 's/^/ok: /'; grep -v '^ok' $L/mpi-gpu1.txt | tail -5
el
} 2>&1 | tee $L/callD.txt
