#!/bin/sh
set -e
cd /work/main
make -j2 >/dev/null && make -j2 build/coarsen-tests >/dev/null
sh scripts/device-stage.sh build
[ -d .deps ] || sh scripts/device-deps.sh
BASELINE=/work/wt-biglev-base-coarsen sh scripts/device-pack.sh
