#!/bin/sh
# threads_sweep.sh — how many threads the user's command should use on a
# graph of a given size: wall time of `coarsen --levels 10 --device cpu
# --threads T FILE` for every T of THREADS (median of RUNS), per shared
# graph, with the graph's entry count; on a machine with many cores the
# fork/join and wake-up cost of small levels can outweigh the work.
#
#   sh bench/threads_sweep.sh [BUILD]
# Environment: COARSEN_DATA (../shared/data), RUNS (5), THREADS ("1 2 4 8 16"),
# GRAPHS (names without extension; default every shared graph),
# LOG (default $OUT on the device tool, else bench/results).
set -u
build=${1:-build}
prog=$build/coarsen
data=${COARSEN_DATA:-../shared/data}
runs=${RUNS:-5}
threads=${THREADS:-1 2 4 8 16}
log=${LOG:-${OUT:-bench/results}}
tmp=${TMPDIR:-/tmp}/threads-sweep
mkdir -p "$log" "$tmp"

. "$(dirname "$0")/timing.sh"

{
    echo "threads_sweep: $(date -u +%Y-%m-%dT%H:%MZ) cores=$(nproc) runs=$runs"
    for f in "$data"/*.graph "$data"/*.graph.gz "$data"/*.mtx "$data"/*.mtx.gz; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        if [ -n "${GRAPHS:-}" ]; then
            case " $GRAPHS " in *" ${name%%.*} "*) ;; *) continue ;; esac
        fi
        entries=$("$prog" info "$f" 2> /dev/null | sed -n 's/.*(\([0-9]*\) adjacency entries).*/\1/p')
        line="graph=$name entries=${entries:-?}"
        for t in $threads; do
            line="$line t$t=$(median_s "$prog" --levels 10 --device cpu --threads "$t" "$f")"
        done
        echo "$line"
    done
} 2>&1 | tee "$log/threads-sweep.txt"
