#!/bin/sh
# device-deps.sh — fills .deps/ (git-ignored) with what the GPU machine lacks:
# the shared libraries the test and benchmark programs link (Criterion,
# METIS and their dependencies, not glibc), gpmetis, and a copy of the shared
# graphs. Run on the development machine after `make`; carry .deps and build.
set -e
mkdir -p .deps/lib .deps/bin .deps/data
for lib in $( (ldd ${BUILD:-build}/coarsen-tests; ldd "$(command -v gpmetis)") | awk '/=>/ {print $3}' | sort -u); do
    case $(basename "$lib") in
    libc.so*|libm.so*|libresolv*|libpthread*|libdl*|librt*) ;;
    *) cp -L "$lib" .deps/lib/ ;;
    esac
done
cp "$(command -v gpmetis)" .deps/bin/
[ -d ../shared/data ] && cp ../shared/data/* .deps/data/
du -sh .deps
