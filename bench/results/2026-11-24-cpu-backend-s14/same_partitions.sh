#!/bin/sh
# same_partitions.sh BASE NEW — writes `partition -k K --device cpu` of every
# shared graph at K = 2, 8, 64 with both builds and compares the files
# byte for byte (cmp), and the exit codes; prints each file that differs with
# both cuts, then the count compared. DATA: the shared graphs.
set -u
base=$1; new=$2
data=${DATA:-../shared/data}
tmp=$(mktemp -d)
same=0; diff=0
for f in "$data"/*.graph "$data"/*.graph.gz "$data"/*.mtx "$data"/*.mtx.gz; do
    [ -e "$f" ] || continue
    b=$(basename "$f")
    for k in 2 8 64; do
        "$base" partition -k $k --device cpu --quiet "$f" --out "$tmp/a.part" > "$tmp/a.out" 2>&1; ra=$?
        "$new" partition -k $k --device cpu --quiet "$f" --out "$tmp/b.part" > "$tmp/b.out" 2>&1; rb=$?
        if [ $ra -ne $rb ] || { [ $ra -eq 0 ] && ! cmp -s "$tmp/a.part" "$tmp/b.part"; }; then
            diff=$((diff + 1))
            echo "DIFFERS $b k=$k: exit $ra / $rb; $(grep -o 'cut [^,]*' "$tmp/a.out") / $(grep -o 'cut [^,]*' "$tmp/b.out")"
        else
            same=$((same + 1))
        fi
        rm -f "$tmp/a.part" "$tmp/b.part"
    done
done
echo "$same runs the same (partition files identical, or the same exit code where both fail), $diff differ"
rm -rf "$tmp"
