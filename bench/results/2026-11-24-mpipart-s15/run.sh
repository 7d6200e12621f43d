#!/bin/sh
# coarsen-mpi partition -k 8 against coarsen partition -k 8 on rgg 2^20
# (mpipart, session 15): 3 rounds, each running every configuration once
# (interleaved, so that the machine's load falls on all alike); one JSON
# line per run with the wall time of the whole process (reading and the part
# file included) appended. Usage, from the repository root:
#   [OLD=coarsen-mpi-of-d97709c] sh bench/results/2026-11-24-mpipart-s15/run.sh BUILD GRAPH OUT
set -u
B=$1 G=$2 O=$3
M="mpirun --allow-run-as-root -x OMP_WAIT_POLICY=passive"
export OMP_WAIT_POLICY=passive # coarsen sets it itself; coarsen-mpi, linked to the shared libgomp, cannot
run() { # LABEL COMMAND...: one run, its JSON and wall seconds
    label=$1
    shift
    s=$(date +%s.%N)
    j=$("$@" partition --quiet --json -k 8 --out "$O/$label.part" "$G" 2>/dev/null | tail -1)
    e=$(date +%s.%N)
    echo "$label $j wall_s=$(echo "$e - $s" | bc)"
}
for r in 1 2 3; do
    run coarsen-t2 env OMP_NUM_THREADS=2 "$B/coarsen"
    run coarsen-t1 env OMP_NUM_THREADS=1 "$B/coarsen"
    run mpi-p1-t2 $M -np 1 --bind-to none -x OMP_NUM_THREADS=2 "$B/coarsen-mpi"
    run mpi-p2-t1 $M -np 2 -x OMP_NUM_THREADS=1 "$B/coarsen-mpi"
    run mpi-p2-t2 $M -np 2 --bind-to none -x OMP_NUM_THREADS=2 "$B/coarsen-mpi"
    # OLD=PROGRAM: coarsen-mpi before its ranks slept between jobs (d97709c)
    [ -n "${OLD:-}" ] && run mpi-p2-t2-spin $M -np 2 --bind-to none -x OMP_NUM_THREADS=2 "$OLD"
done
for f in "$O"/*.part; do cmp "$O/coarsen-t2.part" "$f" || echo "DIFFERS: $f"; done
