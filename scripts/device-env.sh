#!/bin/sh
# device-env.sh — environment for running a build made on the development
# machine on the lent GPU machine, which has no package registry: the
# runtime libraries and gpmetis are carried in .deps/ (ignored by git; made
# by scripts/device-deps.sh), the shared graphs in .deps/data.
# Source it from the repository root: `. scripts/device-env.sh`.
export LD_LIBRARY_PATH="$PWD/.deps/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PWD/.deps/bin:$PATH"
export COARSEN_DATA="$PWD/.deps/data"
export COARSEN_PROG="$PWD/build/coarsen"
export OMP_WAIT_POLICY=passive
