#!/bin/sh
# same_outputs.sh BASE NEW — byte identity of BASE's and NEW's results on
# every shared graph: the part files of `partition -k K --device cpu` at
# K = 2, 8, 64 and the level files and maps of `--levels 10 --out DIR`, each
# at 1 and 2 threads (cmp; exit codes compared too). Prints each difference,
# then the counts. DATA: the shared graphs.
set -u
base=$1; new=$2
data=${DATA:-../shared/data}
tmp=$(mktemp -d)
same=0; diff=0
for f in "$data"/*.graph "$data"/*.graph.gz "$data"/*.mtx "$data"/*.mtx.gz; do
    [ -e "$f" ] || continue
    b=$(basename "$f")
    for t in 1 2; do
        for k in 2 8 64; do
            "$base" partition -k $k --device cpu --threads $t --quiet "$f" --out "$tmp/a.part" > "$tmp/a.out" 2>&1; ra=$?
            "$new" partition -k $k --device cpu --threads $t --quiet "$f" --out "$tmp/b.part" > "$tmp/b.out" 2>&1; rb=$?
            if [ $ra -ne $rb ] || { [ $ra -eq 0 ] && ! cmp -s "$tmp/a.part" "$tmp/b.part"; }; then
                diff=$((diff + 1)); echo "DIFFERS $b partition k=$k threads=$t: exit $ra / $rb"
            else
                same=$((same + 1))
            fi
            rm -f "$tmp/a.part" "$tmp/b.part"
        done
        "$base" --levels 10 --device cpu --threads $t --quiet --out "$tmp/A" "$f" > /dev/null 2>&1; ra=$?
        "$new" --levels 10 --device cpu --threads $t --quiet --out "$tmp/B" "$f" > /dev/null 2>&1; rb=$?
        ok=1
        [ $ra -eq $rb ] || ok=0
        if [ $ra -eq 0 ]; then
            for x in "$tmp"/A/level-* "$tmp"/A/map-*; do
                [ -e "$x" ] || continue
                cmp -s "$x" "$tmp/B/$(basename "$x")" || ok=0
            done
            [ "$(ls "$tmp/A" | grep -c -e level- -e map-)" = "$(ls "$tmp/B" | grep -c -e level- -e map-)" ] || ok=0
        fi
        if [ $ok -eq 1 ]; then same=$((same + 1)); else diff=$((diff + 1)); echo "DIFFERS $b levels threads=$t"; fi
        rm -rf "$tmp/A" "$tmp/B"
    done
done
echo "$same runs the same (part files, or every level file and map, identical; or the same exit code where both fail), $diff differ"
rm -rf "$tmp"
