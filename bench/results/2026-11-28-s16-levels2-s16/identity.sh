#!/bin/sh
# identity.sh — byte identity of every level, map and part file against a
# base build, on every shared graph at 1 and 2 threads.
#   sh identity.sh BASE_BUILD NEW_BUILD [DATA]
# (levels of real-weighted graphs written with --format mtx.)
# Prints one line per difference and a final count; exit 1 on any difference.
set -u
base=$1/coarsen
new=$2/coarsen
data=${3:-/work/shared/data}
tmp=${TMPDIR:-/tmp}/levels-identity.$$
mkdir -p "$tmp"
bad=0 runs=0
for f in "$data"/*.graph "$data"/*.graph.gz "$data"/*.mtx "$data"/*.mtx.gz; do
    [ -f "$f" ] || continue
    for t in 1 2; do
        for p in base new; do
            eval prog=\$$p
            rm -rf "$tmp/$p"
            # real weights cannot go into METIS files: those levels as Matrix Market
            "$prog" --quiet --device cpu --threads $t --levels 10 --out "$tmp/$p" "$f" > /dev/null 2>&1 ||
                "$prog" --quiet --device cpu --threads $t --levels 10 --format mtx --out "$tmp/$p" "$f" > /dev/null 2>&1
            echo "rc=$?" > "$tmp/$p.rc"
            mkdir -p "$tmp/$p"
            rm -f "$tmp/$p/stats.json"
            for k in 2 8; do
                "$prog" --quiet --device cpu --threads $t partition -k $k --out "$tmp/$p.part$k" "$f" > /dev/null 2>&1
                echo "rc=$?" >> "$tmp/$p.rc"
            done
        done
        runs=$((runs + 1))
        if ! cmp -s "$tmp/base.rc" "$tmp/new.rc" || ! diff -r "$tmp/base" "$tmp/new" > /dev/null ||
            ! cmp -s "$tmp/base.part2" "$tmp/new.part2" || ! cmp -s "$tmp/base.part8" "$tmp/new.part8"; then
            echo "DIFFERS: $(basename "$f") threads=$t"
            bad=$((bad + 1))
        fi
    done
done
echo "identity: $runs graph/thread runs, $bad differ"
rm -rf "$tmp"
[ $bad = 0 ]
