#!/bin/sh
# device-run.sh — what one call on the lent GPU machine runs: the whole test
# suite with the GPU backend, the GPU tests under compute-sanitizer (sanitize:
# scripts/device-sanitize.sh's filters, each time-limited; sanitize-all: every
# *gpu* test in one run, slow), and the benchmarks named in BENCH (default:
# all of build/bench). Logs go to $OUT (the device tool's return folder) or
# ./device-logs. Here first: make, scripts/device-stage.sh and
# scripts/device-deps.sh; carry .devbuild and .deps, and on the device
# `mv .devbuild build` before this script.
#   sh scripts/device-run.sh [tests] [sanitize|sanitize-all] [bench]
set -u
. scripts/device-env.sh
LOG=${OUT:-device-logs}
mkdir -p "$LOG"
what=${*:-tests sanitize bench}
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv > "$LOG/gpu.txt" 2>&1
date -u +%Y-%m-%dT%H:%MZ >> "$LOG/gpu.txt"
status=0
for step in $what; do
    case $step in
    tests)
        echo "== test suite (GPU backend)"
        build/coarsen-tests --jobs 8 --verbose > "$LOG/tests.log" 2>&1 || status=1
        grep -E '^\[(FAIL|----)\]|Synthesis' "$LOG/tests.log" | tail -40
        grep -c '\[SKIP\]' "$LOG/tests.log" | sed 's/^/skipped: /'
        ;;
    sanitize)
        sh scripts/device-sanitize.sh || status=1
        ;;
    sanitize-all)
        echo "== compute-sanitizer memcheck on the GPU tests"
        compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 \
            build/coarsen-tests --jobs 1 --filter "${SAN_FILTER:-*gpu*}" > "$LOG/sanitize.log" 2>&1 || status=1
        grep -E 'ERROR SUMMARY|Synthesis|^\[FAIL' "$LOG/sanitize.log" | tail -20
        ;;
    bench)
        echo "== benchmarks"
        for b in ${BENCH:-$(ls build/bench 2>/dev/null)}; do
            echo "-- $b ${BENCH_ARGS:-}"
            timeout "${BENCH_TIMEOUT:-240}" build/bench/$b ${BENCH_ARGS:-} > "$LOG/bench-$b.txt" 2>&1 || status=1
            tail -n 25 "$LOG/bench-$b.txt"
        done
        ;;
    esac
done
exit $status
