#!/bin/sh
# s19-biglev3: CPU-backend level files and maps of this branch's build against
# main d8dc3f5's (BASE, a CUDA build), every shared graph, 1 and 2 threads
# (stats.json, with times and the command line, left out; no CPU source
# changed on this branch: a guard that the build is sound). A graph both
# refuse with the same status counts as the same.
BASE=${BASE:-/work/wt-biglev3-base/coarsen}; NEW=${NEW:-build/coarsen}; D=${D:-.deps/data}
differ=0; total=0
for f in $D/*.graph $D/*.graph.gz $D/*.mtx $D/*.mtx.gz; do
  [ -f "$f" ] || continue
  for t in 1 2; do
    rm -rf /tmp/s19b3-a /tmp/s19b3-b
    $BASE --quiet --device cpu --threads $t --levels 10 --format mtx --out /tmp/s19b3-a "$f" > /dev/null 2>&1; ra=$?
    $NEW --quiet --device cpu --threads $t --levels 10 --format mtx --out /tmp/s19b3-b "$f" > /dev/null 2>&1; rb=$?
    total=$((total + 1))
    if [ $ra != $rb ]; then bad=1
    elif [ $ra != 0 ]; then bad=0 # refused by both (same status: not a graph coarsen takes)
    elif diff -rq -x stats.json /tmp/s19b3-a /tmp/s19b3-b > /dev/null 2>&1; then bad=0
    else bad=1; fi
    if [ $bad = 1 ]; then
      differ=$((differ + 1)); echo "DIFFER $(basename $f) t=$t rc $ra/$rb"
    fi
  done
done
echo "cpu identity: $differ of $total runs differ"
