#!/bin/sh
# s19-biglev2: `coarsen partition -k 8` part files (CPU backend) of this
# branch's CUDA build against main 3c709ac's, at 1 and 2 threads.
BASE=${BASE:-/work/wt-biglev2-base/coarsen}; NEW=${NEW:-build/coarsen}; D=${D:-/work/shared/data}
differ=0; total=0
for f in $D/karate.graph $D/4elt.graph $D/delaunay_n15.graph.gz $D/p2p-Gnutella06.mtx $D/polblogs.graph $D/wing.graph.gz; do
  for t in 1 2; do
    $BASE partition -k 8 --device cpu --threads $t --out /tmp/s19b2-pa "$f" > /dev/null 2>&1; ra=$?
    $NEW partition -k 8 --device cpu --threads $t --out /tmp/s19b2-pb "$f" > /dev/null 2>&1; rb=$?
    total=$((total + 1))
    if [ $ra != $rb ] || ! cmp -s /tmp/s19b2-pa /tmp/s19b2-pb; then differ=$((differ + 1)); echo "DIFFER $(basename $f) t=$t rc $ra/$rb"; fi
  done
done
echo "partition identity: $differ of $total runs differ"
