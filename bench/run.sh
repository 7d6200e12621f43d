#!/bin/sh
# run.sh — runs every benchmark program in BUILD/bench/ (with its default,
# modest sizes) and collects their stdout, one key=value line per measurement,
# into bench/results/<date>-<host>.txt (`make bench` calls it).
#
#   sh bench/run.sh BUILD_DIR
#
# Environment:
#   BENCH_ARGS          extra arguments for every program, e.g. "--runs 3"
#   BENCH_ARGS_<name>   extra arguments for one program, e.g.
#                       BENCH_ARGS_bench_gen="--graph rgg:n=16000000,deg=12"
#                       (bigger sizes on the benchmark machine)
#   BENCH_ONLY          space-separated program names to run (default: all)
#   BENCH_OUT           result file (default bench/results/<date>-<host>.txt)
# A program that fails is reported on stderr and in the result file, and the
# others still run; the exit status is 1 when any failed.
set -u
build=${1:?usage: sh bench/run.sh BUILD_DIR}
dir="$build/bench"
[ -d "$dir" ] || { echo "run.sh: no $dir (build the benchmarks first: make bench)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=${BENCH_OUT:-$here/results/$(date -u +%Y-%m-%dT%H%M%SZ)-$(hostname -s 2>/dev/null || hostname).txt}
mkdir -p "$(dirname "$out")"
{
    echo "# coarsen benchmarks: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
    echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //') x $(nproc 2>/dev/null)"
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "# gpu: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1)"
    fi
    echo "# commit: $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
} >"$out"
status=0
for prog in "$dir"/*; do
    [ -f "$prog" ] && [ -x "$prog" ] || continue
    name=$(basename "$prog")
    if [ -n "${BENCH_ONLY:-}" ]; then
        case " $BENCH_ONLY " in *" $name "*) ;; *) continue ;; esac
    fi
    case "$name" in
    *[!A-Za-z0-9_]*) extra= ;; # not a variable name: no per-program arguments
    *) extra=$(eval "printf '%s' \"\${BENCH_ARGS_$name:-}\"") ;;
    esac
    echo "# $name ${BENCH_ARGS:-} $extra" >>"$out"
    echo "run.sh: $name ${BENCH_ARGS:-} $extra" >&2
    # word splitting of the argument strings is intended
    # shellcheck disable=SC2086
    if ! "$prog" ${BENCH_ARGS:-} $extra >>"$out"; then
        echo "# $name FAILED" >>"$out"
        echo "run.sh: $name failed" >&2
        status=1
    fi
done
echo "run.sh: results in $out" >&2
exit $status
