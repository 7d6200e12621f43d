#!/bin/sh
# device-sanitize.sh — the GPU tests under compute-sanitizer memcheck, one
# filter at a time with a time limit each (memcheck slows kernels 10-100x;
# the large GPU tests are left to the plain suite). Logs go to $OUT.
set -f  # the filters are Criterion globs, not file names
. scripts/device-env.sh
LOG=${OUT:-device-logs}
mkdir -p "$LOG"
status=0
for f in ${SAN_FILTERS:-'*/gpu_small*' 'contract_gpu/small*' 'two_hop_gpu/*' 'bipartite_gpu/*small*' 'roma*/gpu*' 'hierarchy_gpu/cpu_and_gpu*' 'partition_gpu/*' 'contract_gpu/larger*'}; do
    echo "== $f"
    timeout "${SAN_TIMEOUT:-60}" compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 \
        build/coarsen-tests --jobs 1 --filter "$f" > "$LOG/sanitize.log.tmp" 2>&1
    rc=$?
    cat "$LOG/sanitize.log.tmp" >> "$LOG/sanitize.log"
    grep -E 'ERROR SUMMARY|Synthesis' "$LOG/sanitize.log.tmp" | tail -2
    [ $rc -eq 124 ] && echo "(time limit: not finished)"
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && status=1
done
rm -f "$LOG/sanitize.log.tmp"
exit $status
