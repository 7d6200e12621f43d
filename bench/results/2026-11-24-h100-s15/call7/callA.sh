#!/bin/sh
# lead call 7: main after merging latency, mpipart, depth2, cut2, ncclall: the
# whole GPU suite, compute-sanitizer on the GPU tests the merges touched, and
# coarsen-mpi --device gpu as one rank (singleton) against coarsen --device gpu.
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
SAN_TIMEOUT=50 SAN_FILTERS='hec_gpu/* two_hop_gpu/* hierarchy_gpu/cpu_and_gpu* partition_gpu/* device_workspace/* contract_gpu/small*' sh scripts/device-sanitize.sh
el
echo "== coarsen-mpi --device gpu, one rank (singleton), against coarsen --device gpu, every matcher"
MPI_DEVICE=gpu MPI_SINGLETON=1 MPI_RANKS=1 COARSEN_DATA=.deps/data timeout 200 sh tests/mpi/run.sh build > $L/mpi-gpu1.txt 2>&1; echo "mpi rc=$? (124: time limit)"
grep -c '^ok' $L/mpi-gpu1.txt | sed 's/^/ok: /'; grep -v '^ok' $L/mpi-gpu1.txt | tail -8
el
} 2>&1 | tee $L/callA.txt
