#!/bin/bash
# dist_big.sh — the distributed hierarchy on a graph beyond one GPU (issue 18):
# generate rgg, build the hierarchy with `coarsen-mpi` on RANKS ranks (one per
# GPU with DEVICE=gpu), then the single-process reference (`coarsen` with
# REF_DEVICE), and compare every level and map file with cmp. Every step is
# timed (/usr/bin/time -v: wall and peak RSS); a watchdog samples the host's
# available memory and the programs' RSS every second and kills the runs if
# available memory falls under WATCH_MIN_KB (so that an over-large graph
# ends with a record of where the memory went instead of a dead machine).
#
#   bash bench/dist_big.sh WORKDIR          (run from the repository root)
#   VERTICES=268435456 DEGREE=15 RANKS=2 DEVICE=gpu REF_DEVICE=gpu
#   MATCHER=handshake LEVELS=10 THREADS=16 (OpenMP threads per rank) BUILD=build
#
# Writes WORKDIR/progress (one line per step), WORKDIR/mem.log, and each
# step's log; WORKDIR/status ends as "done" or "failed STEP". Meant to run
# detached (setsid) when it outlasts one command: poll WORKDIR/status.
set -u
work=$1
vertices=${VERTICES:-268435456}
degree=${DEGREE:-15}
ranks=${RANKS:-2}
device=${DEVICE:-gpu}
ref_device=${REF_DEVICE:-gpu}
matcher=${MATCHER:-handshake}
levels=${LEVELS:-10}
threads=${THREADS:-16}
build=${BUILD:-build}
watch_min=${WATCH_MIN_KB:-6000000}
root=$PWD
mkdir -p "$work"
: > "$work/progress"
echo running > "$work/status"

step() { echo "$(date +%T) $*" >> "$work/progress"; }

# the watchdog: time, MemAvailable (kB), then pid:rss_kB of every coarsen process
(
    while :; do
        avail=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
        rss=""
        for p in $(pgrep -f "$root/$build/coarsen"); do
            rss="$rss $p:$(awk '/VmRSS/ {print $2}' /proc/$p/status 2>/dev/null)"
        done
        echo "$(date +%s) $avail$rss" >> "$work/mem.log"
        if [ "$avail" -lt "$watch_min" ]; then
            step "watchdog: MemAvailable $avail kB < $watch_min kB: killing the runs"
            pkill -9 -f "$root/$build/coarsen"
        fi
        sleep 1
    done
) &
watchdog=$!
trap 'kill $watchdog 2>/dev/null' EXIT

run_step() { # name, command...: timed, logged, failure recorded
    name=$1
    shift
    step "start $name: $*"
    if ! /usr/bin/time -v "$@" > "$work/$name.log" 2>&1; then
        step "failed $name"
        echo "failed $name" > "$work/status"
        exit 1
    fi
    step "end $name: $(grep -h 'Elapsed (wall\|Maximum resident' "$work/$name.log" | tr -s ' ' | tr '\n' ';')"
}

# /usr/bin/time follows one process: its peak memory needs the one that works
export COARSEN_ONE_PROCESS=1
graph=$work/rgg.graph
[ -s "$graph" ] || run_step gen "$root/$build/coarsen" --threads "$((threads * ranks))" gen rgg \
    --vertices "$vertices" --degree "$degree" --seed 1 -o "$graph"
df -h "$work" >> "$work/progress"

opts="--matcher $matcher --levels $levels --no-level0"
rm -rf "$work/mpi" "$work/ref"
run_step mpi env OMP_NUM_THREADS="$threads" mpirun --allow-run-as-root -np "$ranks" --bind-to none \
    "$root/$build/coarsen-mpi" --device "$device" $opts --out "$work/mpi" "$graph"
run_step ref "$root/$build/coarsen" --device "$ref_device" $opts --out "$work/ref" "$graph"

step "compare"
same=0
differ=0
for f in "$work"/ref/level-* "$work"/ref/map-*; do
    if cmp -s "$f" "$work/mpi/${f##*/}"; then same=$((same + 1)); else differ=$((differ + 1)); step "differs: ${f##*/}"; fi
done
step "files identical: $same, different: $differ"
grep -h '"ranks"\|"gpus"\|"distributed_levels"\|"levels_ms"\|"total_ms"' "$work/mpi/stats.json" >> "$work/progress"
grep -h '"levels_ms"\|"total_ms"' "$work/ref/stats.json" >> "$work/progress"
[ "$differ" -eq 0 ] && echo done > "$work/status" || echo "failed compare" > "$work/status"
