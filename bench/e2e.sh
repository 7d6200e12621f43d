#!/bin/sh
# e2e.sh — what the user waits for: wall time of the `coarsen` command on
# files, end to end (read, levels, output), median of RUNS, beside gpmetis's
# own I/O and coarsening times on the same graph, and optionally a second
# build of coarsen (BASELINE=path) measured in the same run.
#
#   sh bench/e2e.sh [BUILD]          (generated graph: GEN, default rgg 2^23, degree 12)
#   FILES="a.graph b.mtx.gz" sh bench/e2e.sh [BUILD]   (given files instead)
#   PARTS="read out" (default both): reading and 10 levels from every file;
#   output (--out, --out --gzip, and each comma-separated option set of
#   OUT_EXTRA) from the METIS file.
#
# Lines go to stdout and LOG/e2e.txt (LOG = $OUT on the device tool, else
# bench/results); each line is key=value: case, file, median_s, min_s, runs,
# then the phase line of one run (coarsen: time: ...).
set -u
build=${1:-build}
prog=$build/coarsen
log=${OUT:-bench/results}
runs=${RUNS:-5}
tmp=${TMPDIR:-/tmp}/e2e
gen=${GEN:-rgg --vertices 8388608 --degree 12 --seed 1}
mkdir -p "$log" "$tmp"
out="$log/e2e.txt"

. "$(dirname "$0")/timing.sh" # now()

# median and min of the wall times of a command run RUNS times (stdout discarded)
timed() {
    label=$1
    shift
    i=0
    : > "$tmp/times"
    while [ $i -lt "$runs" ]; do
        rm -rf "$tmp/out"
        t0=$(now)
        "$@" > /dev/null 2> "$tmp/err" || { echo "case=$label failed: $(tail -1 "$tmp/err")"; return 1; }
        t1=$(now)
        awk "BEGIN { print $t1 - $t0 }" >> "$tmp/times"
        i=$((i + 1))
    done
    med=$(sort -g "$tmp/times" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
    min=$(sort -g "$tmp/times" | head -1)
    phases=$(grep 'coarsen: time:' "$tmp/err" | sed 's/^coarsen: time: //')
    printf 'case=%s median_s=%.3f min_s=%.3f runs=%s %s\n' "$label" "$med" "$min" "$runs" "${phases:+phases=\"$phases\"}"
}

{
    echo "e2e: $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) cores=$(nproc)"
    if [ -z "${FILES:-}" ]; then
        t0=$(now)
        $prog gen $gen --quiet -o "$tmp/g.graph" || exit 1
        t1=$(now)
        echo "gen_graph_s=$(awk "BEGIN { print $t1 - $t0 }") bytes=$(stat -c %s "$tmp/g.graph")"
        t0=$(now)
        $prog gen $gen --quiet -o "$tmp/g.mtx.gz" || exit 1
        t1=$(now)
        echo "gen_mtx_gz_s=$(awk "BEGIN { print $t1 - $t0 }") bytes=$(stat -c %s "$tmp/g.mtx.gz")"
        gzip -dc "$tmp/g.mtx.gz" > "$tmp/g.mtx"
        echo "mtx_bytes=$(stat -c %s "$tmp/g.mtx")"
        FILES="$tmp/g.mtx.gz $tmp/g.mtx $tmp/g.graph"
        if [ -n "${GZIP_SINGLE:-}" ]; then # one gzip member, as gzip writes: inflated by one thread
            gzip -1 -c "$tmp/g.mtx" > "$tmp/g1.mtx.gz"
            gzip -1 -c "$tmp/g.graph" > "$tmp/g1.graph.gz"
            FILES="$tmp/g1.mtx.gz $tmp/g1.graph.gz $FILES"
        fi
        if $prog convert --quiet "$tmp/g.graph" "$tmp/g.parhip" 2> /dev/null; then
            echo "parhip_bytes=$(stat -c %s "$tmp/g.parhip")"
            FILES="$FILES $tmp/g.parhip"
        fi
    fi
    for f in $FILES; do
        case " ${PARTS:-read out} " in *" read "*) ;; *) break ;; esac
        name=$(basename "$f")
        timed "info:$name" $prog info "$f"
        timed "levels10:$name" $prog --levels 10 "$f"
        [ -n "${BASELINE:-}" ] && timed "baseline:levels10:$name" "$BASELINE" --levels 10 "$f"
        timed "gzip-dc:$name" sh -c "case $f in *.gz) gzip -dc $f ;; *) cat $f ;; esac"
    done
    for f in $FILES; do
        case " ${PARTS:-read out} " in *" out "*) ;; *) break ;; esac
        case $f in *.graph) ;; *) continue ;; esac
        name=$(basename "$f")
        timed "out:$name" $prog --levels 10 --out "$tmp/out" "$f"
        timed "out-gzip:$name" $prog --levels 10 --out "$tmp/out" --gzip "$f"
        echo "${OUT_EXTRA:-}" | tr ',' '\n' | while read -r extra; do
            [ -n "$extra" ] && timed "out $extra:$name" $prog --levels 10 --out "$tmp/out" $extra "$f"
        done
        [ -n "${BASELINE:-}" ] && timed "baseline:out:$name" "$BASELINE" --levels 10 --out "$tmp/out" "$f"
        if command -v gpmetis > /dev/null; then
            gpmetis -ptype=rb -dbglvl=2 "$f" 2 > "$tmp/metis.txt" 2>&1
            echo "gpmetis:$name $(grep -E 'I/O:|Coarsening:|Total:' "$tmp/metis.txt" | tr -s ' \t' ' ' | tr '\n' ' ')"
            rm -f "$f.part.2"
        fi
    done
} 2>&1 | tee "$out"
