#!/bin/sh
# stages the CUDA build of the checkout for the final call: the test binary,
# the faulty build, the baseline (main 36d2229) coarsen and bench_pipeline,
# the four split/stream x huge variants (CPU builds, /work/var).
set -e
cd /work/main
make -j2 >/dev/null && make -j2 build/coarsen-tests build/coarsen-faulty >/dev/null
sh scripts/device-stage.sh build
strip --strip-debug -o .devbuild/coarsen-faulty build/coarsen-faulty
mkdir -p .devbuild/baseline/bench .devbuild/var
strip --strip-debug -o .devbuild/baseline/bench/bench_pipeline /work/base36/bench/bench_pipeline
cp /work/var/* .devbuild/var/
[ -d .deps ] || sh scripts/device-deps.sh
BASELINE=/work/base36/coarsen sh scripts/device-pack.sh
