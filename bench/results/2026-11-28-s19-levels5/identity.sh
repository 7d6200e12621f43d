#!/bin/sh
# identity.sh — byte identity against a base build, on every shared graph at
# 1 and 2 threads: every level and map of `--levels 10 --out` (HEC, the
# default) and of `--matcher handshake --levels 10 --out`, stats.json left
# out (timings), and the part files of `partition -k 2` and `-k 8`.
# s16-levels' identity.sh with the handshake hierarchy added.
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
            : > "$tmp/$p.rc"
            for m in hec handshake; do
                d="$tmp/$p.$m"
                rm -rf "$d"
                # real weights cannot go into METIS files: those levels as Matrix Market
                "$prog" --quiet --device cpu --threads $t --matcher $m --levels 10 --out "$d" "$f" > /dev/null 2>&1 ||
                    "$prog" --quiet --device cpu --threads $t --matcher $m --levels 10 --format mtx --out "$d" "$f" \
                        > /dev/null 2>&1
                echo "$m rc=$?" >> "$tmp/$p.rc"
                mkdir -p "$d"
                rm -f "$d/stats.json"
            done
            for k in 2 8; do
                "$prog" --quiet --device cpu --threads $t partition -k $k --out "$tmp/$p.part$k" "$f" > /dev/null 2>&1
                echo "rc=$?" >> "$tmp/$p.rc"
            done
        done
        runs=$((runs + 1))
        if ! cmp -s "$tmp/base.rc" "$tmp/new.rc" || ! diff -r "$tmp/base.hec" "$tmp/new.hec" > /dev/null ||
            ! diff -r "$tmp/base.handshake" "$tmp/new.handshake" > /dev/null ||
            ! cmp -s "$tmp/base.part2" "$tmp/new.part2" || ! cmp -s "$tmp/base.part8" "$tmp/new.part8"; then
            echo "DIFFERS: $(basename "$f") threads=$t"
            bad=$((bad + 1))
        fi
    done
done
echo "identity: $runs graph/thread runs, $bad differ"
rm -rf "$tmp"
[ $bad = 0 ]
