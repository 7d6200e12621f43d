#!/bin/sh
set -e
cd /work/main
make -j2 >/dev/null && make -j2 CUDA=0 BUILD=build-cpu >/dev/null
sh scripts/device-stage.sh build
mkdir -p .devbuild/cpu && strip --strip-debug -o .devbuild/cpu/coarsen build-cpu/coarsen
[ -d .deps ] || sh scripts/device-deps.sh
sh scripts/device-pack.sh
