# timing.sh — what the benchmark scripts share (sourced, not run): wall
# clock seconds and the median of RUNS runs of a command, stdout discarded,
# stderr of the last run left in $tmp/err. The caller sets runs and tmp.

now() { date +%s.%N; }

# median of the numbers in file $1, one a line
median_of() {
    sort -g "$1" | awk '{a[NR]=$1} END {if (NR) printf "%.4f", (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'
}

# median wall seconds of $runs runs of a command; prints "failed" (status 1)
# when a run fails. A coarsen run's own timers, read + levels in seconds
# (stderr's "coarsen: time:" line: no process start or exit), go to
# $tmp/timers, one a run, for median_timers_s.
median_s() {
    : > "$tmp/times"
    : > "$tmp/timers"
    i=0
    while [ $i -lt "$runs" ]; do
        t0=$(now)
        "$@" > /dev/null 2> "$tmp/err" || { echo failed; return 1; }
        t1=$(now)
        awk "BEGIN { print $t1 - $t0 }" >> "$tmp/times"
        sed -n 's/^coarsen: time: read \([0-9.]*\) ms.* levels \([0-9.]*\) ms.*/\1 \2/p' "$tmp/err" |
            awk '{print ($1 + $2) / 1000}' >> "$tmp/timers"
        i=$((i + 1))
    done
    median_of "$tmp/times"
}

# median of the last median_s's runs' own read + levels timers, seconds
# (empty when the command printed none)
median_timers_s() {
    median_of "$tmp/timers"
}
