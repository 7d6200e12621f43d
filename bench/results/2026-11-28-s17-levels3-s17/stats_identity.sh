#!/bin/sh
# stats_identity.sh — stats.json of `coarsen --levels 10 --out DIR FILE`
# for two builds, on every shared graph at 1 and 2 threads, equal once the
# timings (every "*_ms" field) and the command line (it names DIR) are
# dropped. (identity.sh compares the level, map and part files.)
#   sh stats_identity.sh BASE_BUILD NEW_BUILD [DATA]
# Prints one line per difference and a final count; exit 1 on any difference.
set -u
data=${3:-/work/shared/data}
tmp=${TMPDIR:-/tmp}/stats-identity.$$
mkdir -p "$tmp"
strip() { python3 -c '
import json, sys
def drop(x):
    if isinstance(x, dict):
        return {k: drop(v) for k, v in x.items() if not k.endswith("_ms") and k != "command_line"}
    if isinstance(x, list):
        return [drop(v) for v in x]
    return x
print(json.dumps(drop(json.load(open(sys.argv[1]))), sort_keys=True, indent=1))' "$1"; }
bad=0 runs=0
for f in "$data"/*.graph "$data"/*.graph.gz "$data"/*.mtx "$data"/*.mtx.gz; do
    [ -f "$f" ] || continue
    for t in 1 2; do
        for p in 1 2; do
            eval prog=\$$p/coarsen
            rm -rf "$tmp/o$p"
            "$prog" --quiet --device cpu --threads $t --levels 10 --out "$tmp/o$p" "$f" > /dev/null 2>&1 ||
                "$prog" --quiet --device cpu --threads $t --levels 10 --format mtx --out "$tmp/o$p" "$f" > /dev/null 2>&1
            echo "rc=$?" > "$tmp/s$p" # rectangular matrices: refused by both, no stats.json
            [ -f "$tmp/o$p/stats.json" ] && strip "$tmp/o$p/stats.json" >> "$tmp/s$p"
        done
        runs=$((runs + 1))
        if ! cmp -s "$tmp/s1" "$tmp/s2"; then
            echo "DIFFERS: $(basename "$f") threads=$t"
            bad=$((bad + 1))
        fi
    done
done
echo "stats identity: $runs graph/thread runs, $bad differ"
rm -rf "$tmp"
[ $bad = 0 ]
