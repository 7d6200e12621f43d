#!/bin/sh
# e2e_ab.sh — s16-levels' e2e_ab.sh with the thread count and the device
# set: wall seconds of the whole `coarsen --levels 10 --device cpu
# --threads T FILE` (stdout discarded) and its stderr "levels" ms, runs A B
# A B ..., medians per graph and build; METIS's own I/O + coarsening
# (gpmetis -ptype=rb -dbglvl=2, once per round, on the inflated / converted
# METIS file) beside them.
#   sh e2e_ab.sh BUILD_A BUILD_B NAME...   (names of the shared files, no extension)
# Environment: COARSEN_DATA (/work/shared/data), RUNS (11), THREADS (1).
# One line per graph: name A_wall B_wall A_levels_ms B_levels_ms metis_io+coarsen.
set -u
a=$1/coarsen
b=$2/coarsen
shift 2
data=${COARSEN_DATA:-/work/shared/data}
runs=${RUNS:-11}
thr=${THREADS:-1}
tmp=${TMPDIR:-/tmp}/e2e-ab.$$
mkdir -p "$tmp"
now() { date +%s.%N; }
med() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for name in "$@"; do
    f=$(ls "$data/$name".* | head -1)
    g=$tmp/g.graph
    case $f in
    *.graph) cp "$f" "$g" ;;
    *.graph.gz) gzip -dc "$f" > "$g" ;;
    *) "$a" convert --quiet "$f" "$g" 2> /dev/null ;;
    esac
    : > "$tmp/a.w"; : > "$tmp/b.w"; : > "$tmp/a.l"; : > "$tmp/b.l"; : > "$tmp/m"
    i=0
    while [ $i -lt "$runs" ]; do
        for p in a b; do
            eval prog=\$$p
            t0=$(now)
            "$prog" --levels 10 --device cpu --threads "$thr" "$f" > /dev/null 2> "$tmp/err"
            t1=$(now)
            awk "BEGIN { print $t1 - $t0 }" >> "$tmp/$p.w"
            sed -n 's/.*levels \([0-9.]*\) ms.*/\1/p' "$tmp/err" >> "$tmp/$p.l"
        done
        gpmetis -ptype=rb -dbglvl=2 "$g" 2 > "$tmp/metis.txt" 2>&1
        awk '/I\/O:/ {io = $2} /Coarsening:/ {co = $2} END {print io + co}' "$tmp/metis.txt" >> "$tmp/m"
        rm -f "$g.part.2"
        i=$((i + 1))
    done
    echo "$name $(med < "$tmp/a.w") $(med < "$tmp/b.w") $(med < "$tmp/a.l") $(med < "$tmp/b.l") $(med < "$tmp/m")"
done
rm -rf "$tmp"
