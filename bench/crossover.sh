#!/bin/sh
# crossover.sh — where the GPU backend starts to pay for itself on the
# user's command: wall time of `coarsen --levels 10 FILE` with --device cpu
# and --device gpu (median of RUNS) on METIS files of generated graphs of
# growing size (GEN: generator, SIZES: vertex counts), with the adjacency
# entries of each, per CPU thread count of THREADS. exec/device_choice.h's
# DEVICE_AUTO_ENTRIES_PER_THREAD comes from these lines.
#
#   sh bench/crossover.sh [BUILD]
# Environment: GEN ("rgg --degree 12 --seed 1"), SIZES (2^16 .. 2^22),
# THREADS (all cores), RUNS (3), LOG ($OUT on the device tool, else bench/results).
set -u
build=${1:-build}
prog=$build/coarsen
gen=${GEN:-rgg --degree 12 --seed 1}
sizes=${SIZES:-65536 131072 262144 524288 1048576 2097152 4194304}
threads=${THREADS:-$(nproc)}
runs=${RUNS:-3}
log=${LOG:-${OUT:-bench/results}}
tmp=${TMPDIR:-/tmp}/crossover
mkdir -p "$log" "$tmp"

. "$(dirname "$0")/timing.sh"

{
    echo "crossover: $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) cores=$(nproc) threads=$threads runs=$runs gen=\"$gen\""
    for n in $sizes; do
        f=$tmp/g$n.graph
        $prog gen $gen --vertices "$n" --quiet -o "$f" || exit 1
        entries=$($prog info "$f" 2>/dev/null | sed -n 's/^edges .*(\([0-9]*\) adjacency entries)/\1/p')
        cpu=$(median_s $prog --levels 10 --device cpu --threads "$threads" "$f")
        gpu=$(median_s $prog --levels 10 --device gpu --threads "$threads" "$f")
        echo "vertices=$n entries=${entries:-?} bytes=$(stat -c %s "$f") cpu_s=$cpu gpu_s=$gpu"
        rm -f "$f"
    done
} 2>&1 | tee "$log/crossover.txt"
