#!/bin/bash
# call 3: --out on lanes, A/B on the same machine; CUDA teardown on a tiny graph
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
stamp() { while IFS= read -r l; do echo "$(date +%s.%N) $l"; done; }
one() { # label prog args...
  lab=$1; shift; rm -rf $T/out; sync; t0=$(date +%s.%N); "$@" 2> >(stamp > $T/err) >/dev/null; t1=$(date +%s.%N); sleep 0.3
  last=$(tail -1 $T/err | cut -d' ' -f1)
  echo "$lab wall=$(awk "BEGIN{print $t1 - $t0}") after_last=$(awk "BEGIN{print $t1 - $last}") $(grep 'time:' $T/err | cut -d' ' -f2- | sed 's/coarsen: time: //')"
}
for r in 1 2 3; do
  for gz in "" "--gzip"; do
    one "base$gz" build/baseline/coarsen --levels 10 --device gpu --out $T/out $gz $T/g.graph
    one "new$gz" build/coarsen --levels 10 --device gpu --out $T/out $gz $T/g.graph
    for ln in 1 2 8; do one "lanes$ln$gz" env COARSEN_LANES=$ln build/variant/coarsen --levels 10 --device gpu --out $T/out $gz $T/g.graph; done
  done
done
for i in 1 2 3; do one "mtx-base" build/baseline/coarsen --levels 10 --device gpu --format mtx --out $T/out $T/g.graph; one "mtx-new" build/coarsen --levels 10 --device gpu --format mtx --out $T/out $T/g.graph; done
# identical files, new vs base
rm -rf $T/o1 $T/o2; build/baseline/coarsen --quiet --levels 10 --device gpu --out $T/o1 $T/g.graph; build/coarsen --quiet --levels 10 --device gpu --out $T/o2 $T/g.graph
for f in $T/o1/*; do cmp -s $f $T/o2/$(basename $f) || echo "differs: $(basename $f)"; done; echo compared $(ls $T/o1 | wc -l) files
for i in 1 2 3; do one "karate-gpu" build/coarsen --levels 3 --device gpu .deps/data/karate.graph; one "karate-cpu" build/coarsen --levels 3 --device cpu .deps/data/karate.graph; done
} 2>&1 | tee $L/lanes.txt
