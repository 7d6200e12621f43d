#!/bin/sh
# gpuvcycle call 1: partition tests, host inner-graph timing, before/after bench interleaved, memcheck
. scripts/device-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
git log -1 --format=%H >> $OUT/env.txt 2>/dev/null
s=$(date +%s)
timeout 80 build/coarsen-tests --jobs 4 --filter 'partition*/*' > $OUT/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - s ))s" >> $OUT/env.txt
tail -3 $OUT/tests.log
for k in 8 64; do timeout 20 build/extra/inner_time .deps/data/road-FLA.mtx.gz $k; done > $OUT/inner.txt 2>&1
echo "inner $(( $(date +%s) - s ))s" >> $OUT/env.txt
: > $OUT/bench.raw
for f in road-FLA.mtx.gz road-NY.mtx.gz mdual.graph.gz copter2.graph.gz; do
  for b in base new; do
    if [ $b = base ]; then B=build/base/bench/bench_partition; else B=build/bench/bench_partition; fi
    timeout 60 $B --graph .deps/data/$f --k 2,8,64 --seed 1 --device gpu --runs 3 | sed "s/^/build=$b /" >> $OUT/bench.raw 2>>$OUT/bench.err
  done
  echo "bench $f $(( $(date +%s) - s ))s" >> $OUT/env.txt
done
SAN_TIMEOUT=110 SAN_FILTERS='partition_gpu/*' sh scripts/device-sanitize.sh > $OUT/sanitize-summary.txt 2>&1
echo "san rc=$? $(( $(date +%s) - s ))s" >> $OUT/env.txt
grep -E 'ERROR SUMMARY|Synthesis|time limit' $OUT/sanitize.log | tail -4 >> $OUT/sanitize-summary.txt
gzip -f $OUT/sanitize.log
cat $OUT/env.txt
