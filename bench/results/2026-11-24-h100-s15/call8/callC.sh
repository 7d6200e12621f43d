#!/bin/sh
# lead call C: the partition experiment on the GPU (for the plot) and the MPI test at 16 ranks on the host's cores.
L=$OUT
S=$(date +%s)
el() { echo "elapsed $(( $(date +%s) - S )) s"; }
{
echo "== partition experiment, GPU, one seed"
OUT=$L/pe DEVICE=gpu SEEDS=1 OTHERS=0 COARSEN_DATA=.deps/data timeout 300 sh examples/partition_experiment.sh > $L/pe-log.txt 2>&1; echo "rc=$?"
tail -25 $L/pe-log.txt
el
echo "== tests/mpi/run.sh at 16 ranks (CPU)"
MPI_RANKS=16 COARSEN_DATA=.deps/data timeout 240 sh tests/mpi/run.sh build > $L/mpi16.txt 2>&1; echo "rc=$? (124: time limit)"
grep -c '^ok' $L/mpi16.txt | sed 's/^/ok: /'; grep -v '^ok' $L/mpi16.txt | tail -6
el
} 2>&1 | tee $L/callC.txt
