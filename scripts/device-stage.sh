#!/bin/sh
# device-stage.sh — copies the programs of a CUDA build (BUILD, default
# build) into .devbuild/ (git-ignored), small enough to carry to the GPU
# machine with .deps/ (scripts/device-deps.sh); there, `mv .devbuild build`
# puts them where scripts/device-env.sh expects them. Benchmarks and
# examples lose their debug sections (the tool's 64 MiB limit); the test
# program keeps them for compute-sanitizer's backtraces.
set -e
build=${1:-build}
rm -rf .devbuild
mkdir -p .devbuild/bench .devbuild/examples
cp "$build/coarsen" "$build/coarsen-tests" .devbuild/
for f in "$build"/bench/* "$build"/examples/*; do
    [ -f "$f" ] && [ -x "$f" ] && strip --strip-debug -o ".devbuild/${f#"$build"/}" "$f"
done
du -sh .devbuild
