#!/bin/sh
# s14b.sh — second device call: before/after pipeline timings alternated
# three times, and the two sanitizer filters that ran out of time in the
# first call, side by side (nothing else on the GPU).
. scripts/device-env.sh
O=/tmp/s14b; mkdir -p $O
G="--graph .deps/data/road-FLA.mtx.gz --graph rgg:n=4194304,deg=10,weights=int"
for i in 1 2 3; do
  timeout 12 build/baseline/bench_pipeline $G --runs 5 --device gpu --levels 20 --no-metis >> $O/pipeline-before.txt 2>&1
  timeout 12 build/bench/bench_pipeline $G --runs 5 --device gpu --levels 20 --no-metis >> $O/pipeline-after.txt 2>&1
done
for f in 'handshake/gpu_small*' 'partition_gpu/*'; do
  n=$(echo "$f" | tr -c 'a-z0-9_\n' '_')
  ( timeout 50 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 build/coarsen-tests --jobs 1 --filter "$f" > $O/san-$n.log 2>&1; echo "rc=$?" >> $O/san-$n.log ) &
done
wait
for l in $O/san-*.log; do echo "== $l"; grep -E 'ERROR SUMMARY|Synthesis|^rc=' $l | tail -3; done > $O/san-summary.txt
cp $O/pipeline-before.txt $O/pipeline-after.txt $O/san-summary.txt $OUT/
tar czf $OUT/s14b-logs.tar.gz -C /tmp s14b
cat $O/san-summary.txt; cut -c1-260 $O/pipeline-*.txt
