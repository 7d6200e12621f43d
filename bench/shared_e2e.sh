#!/bin/sh
# shared_e2e.sh — the user's command on every shared graph: wall time of
# `coarsen --levels 10 FILE` with --device auto, gpu and cpu (median of
# RUNS, stdout discarded), beside METIS's own I/O + coarsening on the same
# graph (gpmetis -ptype=rb -dbglvl=2 FILE 2, which prints both; Matrix Market
# files are converted to a METIS file first, and gzip ones inflated, outside
# the clock). Beside each wall time, key_timers_s: the median of our own
# read + levels timers, to set against METIS's timers like for like. One
# key=value line per graph; the auto run's stderr says which
# backend it chose and why. With THREADS (say "1 2 4 8 16") the cpu runs
# are made at each of those thread counts (keys cpu_tN_s): where more threads
# stop paying on a graph of that size.
#
#   sh bench/shared_e2e.sh [BUILD]
# Environment: COARSEN_DATA (../shared/data), RUNS (5), DEVICES ("auto gpu cpu"),
# THREADS (unset: all cores), GRAPHS (names without extension; default every
# shared graph), METIS (1: gpmetis too; 0: not), LOG (default $OUT on the
# device tool, else bench/results).
set -u
build=${1:-build}
prog=$build/coarsen
data=${COARSEN_DATA:-../shared/data}
runs=${RUNS:-5}
devices=${DEVICES:-auto gpu cpu}
log=${LOG:-${OUT:-bench/results}}
tmp=${TMPDIR:-/tmp}/shared-e2e
mkdir -p "$log" "$tmp"

. "$(dirname "$0")/timing.sh"

{
    echo "shared_e2e: $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) cores=$(nproc) runs=$runs"
    for f in "$data"/*.graph "$data"/*.graph.gz "$data"/*.mtx "$data"/*.mtx.gz; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        if [ -n "${GRAPHS:-}" ]; then
            case " $GRAPHS " in *" ${name%%.*} "*) ;; *) continue ;; esac
        fi
        line="graph=$name entries=$("$prog" info "$f" 2> /dev/null | sed -n 's/.*(\([0-9]*\) adjacency entries).*/\1/p')"
        for d in $devices; do
            for t in ${THREADS:-all}; do
                key=$d
                set -- --levels 10 --device "$d"
                if [ "$d" = cpu ] && [ "$t" != all ]; then
                    key=cpu_t$t
                    set -- "$@" --threads "$t"
                fi
                s=$(median_s "$prog" "$@" "$f") || { line="$line $key=failed"; continue; }
                line="$line ${key}_s=$s"
                # the program's own timers, read + levels (median): the
                # like-for-like figure beside METIS's I/O + Coarsening timers,
                # which leave out process start and exit as ours do
                line="$line ${key}_timers_s=$(median_timers_s)"
                [ "$d" = auto ] && line="$line auto_choice=\"$(grep -m1 'coarsen: device' "$tmp/err" | sed 's/^coarsen: //')\""
                [ "$d" = cpu ] || break
            done
        done
        g=$tmp/g.graph
        case $name in
        *.graph) cp "$f" "$g" ;;
        *.graph.gz) gzip -dc "$f" > "$g" ;;
        *) "$prog" convert --quiet "$f" "$g" 2> /dev/null || g= ;;
        esac
        if [ -n "$g" ] && [ "${METIS:-1}" = 1 ] && command -v gpmetis > /dev/null; then
            gpmetis -ptype=rb -dbglvl=2 "$g" 2 > "$tmp/metis.txt" 2>&1
            io=$(awk '/I\/O:/ {print $2}' "$tmp/metis.txt")
            co=$(awk '/Coarsening:/ {print $2}' "$tmp/metis.txt")
            line="$line metis_io_s=${io:-?} metis_coarsen_s=${co:-?}"
            rm -f "$g.part.2"
        fi
        echo "$line"
    done
} 2>&1 | tee "$log/shared-e2e.txt"
