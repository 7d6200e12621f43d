#!/bin/sh
# s14.sh — device call of the stream/workspace branch: pipeline timings
# (baseline = main's build, after = this branch), then GPU suite and
# sanitizer side by side.
. scripts/device-env.sh
O=/tmp/s14; mkdir -p $O
nvidia-smi --query-gpu=name --format=csv,noheader > $O/gpu.txt
G="--graph .deps/data/road-FLA.mtx.gz --graph rgg:n=4194304,deg=10,weights=int"
timeout 30 build/baseline/bench_pipeline $G --runs 5 --device gpu --levels 20 --no-metis > $O/pipeline-before.txt 2>&1
timeout 30 build/bench/bench_pipeline $G --runs 5 --device gpu --levels 20 --no-metis > $O/pipeline-after.txt 2>&1
( timeout 60 build/coarsen-tests --jobs 8 > $O/suite.txt 2>&1; echo "rc=$?" >> $O/suite.txt ) &
for f in 'handshake/gpu_small*' 'hec_gpu/*' 'two_hop_gpu/*' 'roma*/gpu*' 'bipartite_gpu/*small*' 'partition_gpu/*' 'hierarchy_gpu/small_levels*' 'device_workspace/*' 'contract_gpu/measured_peak*'; do
  n=$(echo "$f" | tr -c 'a-z0-9_\n' '_')
  ( timeout 40 compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 build/coarsen-tests --jobs 1 --filter "$f" > $O/san-$n.log 2>&1; echo "rc=$?" >> $O/san-$n.log ) &
done
wait
for l in $O/san-*.log; do echo "== $l"; grep -E 'ERROR SUMMARY|Synthesis|^rc=' $l | tail -3; done > $O/san-summary.txt
grep -E 'FAIL|Synthesis|^rc=' $O/suite.txt | tail -15; cat $O/san-summary.txt; cat $O/pipeline-*.txt | grep -v '^#' | head -20
grep -E 'FAIL|Synthesis|^rc=' $O/suite.txt > $O/suite-summary.txt
cp $O/gpu.txt $O/pipeline-before.txt $O/pipeline-after.txt $O/suite-summary.txt $O/san-summary.txt $OUT/
tar czf $OUT/s14-logs.tar.gz -C /tmp s14
