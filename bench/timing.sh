# timing.sh — what the benchmark scripts share (sourced, not run): wall
# clock seconds and the median of RUNS runs of a command, stdout discarded,
# stderr of the last run left in $tmp/err. The caller sets runs and tmp.

now() { date +%s.%N; }

# median wall seconds of $runs runs of a command; prints "failed" (status 1)
# when a run fails
median_s() {
    : > "$tmp/times"
    i=0
    while [ $i -lt "$runs" ]; do
        t0=$(now)
        "$@" > /dev/null 2> "$tmp/err" || { echo failed; return 1; }
        t1=$(now)
        awk "BEGIN { print $t1 - $t0 }" >> "$tmp/times"
        i=$((i + 1))
    done
    sort -g "$tmp/times" | awk '{a[NR]=$1} END {printf "%.4f", (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'
}
