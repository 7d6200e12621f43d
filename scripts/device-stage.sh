#!/bin/sh
# device-stage.sh — copies the programs of a CUDA build (BUILD, default
# build) into .devbuild/ (git-ignored), small enough to carry to the GPU
# machine with .deps/ (scripts/device-deps.sh); there, `mv .devbuild build`
# puts them where scripts/device-env.sh expects them. Debug sections are
# stripped to stay under the device tool's 64 MiB; compute-sanitizer still
# names the kernels.
set -e
build=${1:-build}
rm -rf .devbuild
mkdir -p .devbuild/bench
for f in "$build/coarsen" "$build/coarsen-mpi" "$build/coarsen-tests" "$build"/bench/*; do
    [ -f "$f" ] && [ -x "$f" ] && strip --strip-debug -o ".devbuild/${f#"$build"/}" "$f"
done
du -sh .devbuild
