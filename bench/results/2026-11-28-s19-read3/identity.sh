#!/bin/sh
# Every level file and map (--levels 10 --out, METIS and --format mtx) and
# every part file (partition -k 8 --out) of BASE and NEW compared byte for
# byte, with their exit statuses and messages, plus `coarsen info` (times
# aside), on every given graph at 1 and 2 threads.
# usage: identity.sh BASE_BIN NEW_BIN FILE...
base=$1 new=$2
shift 2
tmp=$(mktemp -d)
same=0 differ=0
for f in "$@"; do
    for t in 1 2; do
        ok=1
        for b in base new; do
            eval bin=\$$b
            mkdir -p "$tmp/$b"
            { "$bin" --threads $t --quiet --levels 10 --out "$tmp/$b/metis" "$f"; echo "rc $?"
              "$bin" --threads $t --quiet --levels 10 --format mtx --out "$tmp/$b/mtx" "$f"; echo "rc $?"
              "$bin" --threads $t --quiet partition -k 8 --out "$tmp/$b/part" "$f"; echo "rc $?"
              "$bin" --threads $t info "$f"; echo "rc $?"; } 2>&1 | grep -v -e time -e "^coarsen: device" >"$tmp/$b.log"
        done
        cmp -s "$tmp/base.log" "$tmp/new.log" || ok=0
        (cd "$tmp/base" && find . -type f | sort) >"$tmp/base.files"
        (cd "$tmp/new" && find . -type f | sort) >"$tmp/new.files"
        cmp -s "$tmp/base.files" "$tmp/new.files" || ok=0
        for x in $(cat "$tmp/base.files"); do
            case $x in */stats.json) continue ;; esac
            cmp -s "$tmp/base/$x" "$tmp/new/$x" || ok=0
        done
        if [ $ok = 1 ]; then same=$((same + 1)); else differ=$((differ + 1)); echo "DIFFERS: $f at $t threads"; fi
        rm -rf "$tmp/base" "$tmp/new" "$tmp"/*.log "$tmp"/*.files
    done
done
rm -rf "$tmp"
echo "identity: $same identical, $differ differ ($(ls "$@" | wc -l) graphs x 1, 2 threads)"
