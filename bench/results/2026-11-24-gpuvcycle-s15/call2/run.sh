#!/bin/sh
# gpuvcycle call 2: partition tests, before/after bench interleaved (base = main 16bf4d8), memcheck of the V-cycle test
. scripts/device-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/env.txt
s=$(date +%s)
timeout 60 build/coarsen-tests --jobs 4 --filter 'partition*/*' > $OUT/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - s ))s" >> $OUT/env.txt
tail -1 $OUT/tests.log
: > $OUT/bench.raw
for f in road-FLA.mtx.gz road-NY.mtx.gz mdual.graph.gz copter2.graph.gz; do
  for b in new base; do
    if [ $b = base ]; then B=build/base/bench/bench_partition; else B=build/bench/bench_partition; fi
    timeout 40 $B --graph .deps/data/$f --k 2,8,64 --seed 1 --device gpu --runs 3 | sed "s/^/build=$b /" >> $OUT/bench.raw 2>>$OUT/bench.err
  done
  echo "bench $f $(( $(date +%s) - s ))s" >> $OUT/env.txt
done
SAN_TIMEOUT=60 SAN_FILTERS='partition_gpu/vcycles*' sh scripts/device-sanitize.sh > $OUT/sanitize-summary.txt 2>&1
echo "san rc=$? $(( $(date +%s) - s ))s" >> $OUT/env.txt
gzip -f $OUT/sanitize.log
cat $OUT/env.txt
