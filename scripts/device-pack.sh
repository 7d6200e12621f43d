#!/bin/sh
# device-pack.sh — packs .devbuild/ (scripts/device-stage.sh) and .deps/
# (scripts/device-deps.sh), and optionally a second build's `coarsen` to
# compare against (BASELINE=path/to/coarsen), into .devpack/bundle.tar.gz
# (git-ignored): one compressed file keeps a call under the device tool's
# 64 MiB. On the device: `tar xzf .devpack/bundle.tar.gz && mv .devbuild build`.
set -e
rm -rf .devpack
mkdir -p .devpack
extra=""
if [ -n "${BASELINE:-}" ]; then
    mkdir -p .devbuild/baseline
    strip --strip-debug -o .devbuild/baseline/coarsen "$BASELINE"
fi
tar cf - .devbuild .deps | gzip -6 > .devpack/bundle.tar.gz
du -sh .devpack/bundle.tar.gz
