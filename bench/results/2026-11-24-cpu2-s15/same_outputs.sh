#!/bin/sh
# same_outputs.sh BASE NEW: every level file and map of `coarsen --levels 10 --format mtx` identical
# (stats.json aside: timings), at 1 and 2 threads, on the shared graphs (GRAPHS_DIR: the
# gzip ones uncompressed; COARSEN_DATA as they are); a graph both refuse must give the same message.
base=$1; new=$2; ok=0; cnt=0
for f in ${GRAPHS_DIR:-/tmp/cpu2-graphs}/*.graph ${GRAPHS_DIR:-/tmp/cpu2-graphs}/*.mtx ${COARSEN_DATA:-/work/shared/data}/*.graph ${COARSEN_DATA:-/work/shared/data}/*.mtx ${COARSEN_DATA:-/work/shared/data}/*.gz; do
  for t in 1 2; do
    rm -rf ${TMPDIR:-/tmp}/same-a ${TMPDIR:-/tmp}/same-b
    ea=$($base --threads $t --device cpu --quiet --levels 10 --format mtx "$f" --out ${TMPDIR:-/tmp}/same-a 2>&1 >/dev/null)
    eb=$($new --threads $t --device cpu --quiet --levels 10 --format mtx "$f" --out ${TMPDIR:-/tmp}/same-b 2>&1 >/dev/null)
    if [ -d ${TMPDIR:-/tmp}/same-a ]; then
      d=$(diff -rq -x stats.json ${TMPDIR:-/tmp}/same-a ${TMPDIR:-/tmp}/same-b 2>&1 | wc -l)
      [ "$d" = 0 ] || { echo "DIFF $f t=$t diffs=$d"; ok=1; }
      cnt=$((cnt + 1))
    elif [ "$ea" != "$eb" ] || [ -d ${TMPDIR:-/tmp}/same-b ]; then echo "DIFF-ERR $f"; ok=1; fi
  done
done
echo "ident runs=$cnt rc=$ok"
