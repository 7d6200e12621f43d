#!/bin/sh
# device-deps.sh — fills .deps/ (git-ignored) with what the GPU machine lacks:
# the shared libraries the test and benchmark programs link (Criterion,
# METIS and their dependencies, not glibc), gpmetis, and a copy of the shared
# graphs; with coarsen-mpi built, OpenMPI's runtime too (its libraries, its
# components and help files, for a singleton rank: scripts/device-env.sh).
# Run on the development machine after `make`; carry .deps and build.
set -e
mkdir -p .deps/lib .deps/bin .deps/data
mpiprog=${BUILD:-build}/coarsen-mpi
for lib in $( (ldd ${BUILD:-build}/coarsen; [ -x ${BUILD:-build}/coarsen-tests ] && ldd ${BUILD:-build}/coarsen-tests; ldd "$(command -v gpmetis)"; [ -x "$mpiprog" ] && ldd "$mpiprog") |
    awk '/=>/ {print $3}' | sort -u); do
    case $(basename "$lib") in
    libc.so*|libm.so*|libresolv*|libpthread*|libdl*|librt*|libnccl*) ;; # NCCL: the device's own wheel
    *) cp -L "$lib" .deps/lib/ ;;
    esac
done
cp "$(command -v gpmetis)" .deps/bin/
ompi=/usr/lib/x86_64-linux-gnu/openmpi
if [ -x "$mpiprog" ] && [ -d $ompi/lib/openmpi3 ]; then
    mkdir -p .deps/ompi
    cp -r $ompi/lib/openmpi3 /usr/share/openmpi .deps/ompi/
    cp -L /usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so.2 .deps/lib/
fi
[ -d ../shared/data ] && cp ../shared/data/* .deps/data/
du -sh .deps
