#!/bin/sh
# e2e_ab.sh — shared_e2e.sh's figure for two builds, interleaved: wall
# seconds of the whole `coarsen --levels 10 --device D [--threads T] FILE`
# (stdout discarded) and its stderr "levels" ms, runs A B A B ..., medians
# per graph and build; METIS's own I/O + coarsening (gpmetis -ptype=rb
# -dbglvl=2, once per round, on the inflated / converted METIS file) beside
# them. Where a GPU run follows another, PAUSE seconds between runs let the
# driver go cold (a host without persistence mode keeps it warm while the
# last program's detached worker still holds it).
#   sh bench/e2e_ab.sh BUILD_A BUILD_B NAME...   (shared file names, no extension)
# Environment: COARSEN_DATA (../shared/data), RUNS (5), DEVICE (auto),
# THREADS (unset: all cores), PAUSE (0).
# One line per graph: name A_wall B_wall A_levels_ms B_levels_ms metis_io+coarsen_s.
set -u
a=$1/coarsen
b=$2/coarsen
shift 2
data=${COARSEN_DATA:-../shared/data}
runs=${RUNS:-5}
tmp=${TMPDIR:-/tmp}/e2e-ab.$$
mkdir -p "$tmp"
set -- "$@" --
threads=
[ -n "${THREADS:-}" ] && threads="--threads $THREADS"
. "$(dirname "$0")/timing.sh"
while [ "$1" != -- ]; do
    name=$1
    shift
    f=$(ls "$data/$name".* | head -1)
    g=$tmp/g.graph
    case $f in
    *.graph) cp "$f" "$g" ;;
    *.graph.gz) gzip -dc "$f" > "$g" ;;
    *) "$a" convert --quiet "$f" "$g" 2> /dev/null || rm -f "$g" ;;
    esac
    for k in a.w b.w a.l b.l m; do : > "$tmp/$k"; done
    i=0
    while [ $i -lt "$runs" ]; do
        for p in a b; do
            eval prog=\$$p
            sleep "${PAUSE:-0}"
            t0=$(now)
            # shellcheck disable=SC2086
            "$prog" --levels 10 --device "${DEVICE:-auto}" $threads "$f" > /dev/null 2> "$tmp/err"
            t1=$(now)
            awk "BEGIN { print $t1 - $t0 }" >> "$tmp/$p.w"
            sed -n 's/.*levels \([0-9.]*\) ms.*/\1/p' "$tmp/err" >> "$tmp/$p.l"
        done
        if [ -f "$g" ]; then
            gpmetis -ptype=rb -dbglvl=2 "$g" 2 > "$tmp/metis.txt" 2>&1
            awk '/I\/O:/ {io = $2} /Coarsening:/ {co = $2} END {print io + co}' "$tmp/metis.txt" >> "$tmp/m"
            rm -f "$g.part.2"
        fi
        i=$((i + 1))
    done
    echo "$name $(median_of "$tmp/a.w") $(median_of "$tmp/b.w") $(median_of "$tmp/a.l") $(median_of "$tmp/b.l") $(median_of "$tmp/m")"
done
rm -rf "$tmp"
