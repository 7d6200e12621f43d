#!/bin/sh
# stages the merged tree for the final call: CUDA build, tests, faulty build,
# baseline (main 0884b38: coarsen and bench_pipeline).
set -e
cd /work/main
make -j2 >/dev/null && make -j2 build/coarsen-tests build/coarsen-faulty >/dev/null
sh scripts/device-stage.sh build
strip --strip-debug -o .devbuild/coarsen-faulty build/coarsen-faulty
mkdir -p .devbuild/baseline/bench
strip --strip-debug -o .devbuild/baseline/bench/bench_pipeline /work/wt-biglev-base/bench_pipeline
[ -d .deps ] || sh scripts/device-deps.sh
BASELINE=/work/wt-biglev-base-coarsen sh scripts/device-pack.sh
