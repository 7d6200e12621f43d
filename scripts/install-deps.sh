#!/bin/sh
# install-deps.sh — installs the Debian/Ubuntu packages the build and tests
# need when they are missing (zlib, ISA-L, libdeflate (bench_gzip), METIS,
# Criterion, pkg-config; OpenMPI for coarsen-mpi, optional), KaMinPar's Python package when pip can get its
# wheel, and what the Python package's tests need (NumPy, SciPy, NetworkX,
# pytest; setuptools and wheel to build it without a download). Prints what
# it does; does nothing when everything is present.
set -e
need=""
for pkg in zlib1g-dev libisal-dev libdeflate-dev libmetis-dev metis libcriterion-dev pkg-config; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
# KaMinPar's Python package: one test reads our ParHIP files with it (and
# skips without it). A manylinux wheel, installed in seconds; failure is fine.
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import kaminpar' 2>/dev/null; then
    python3 -m pip install --quiet --only-binary=:all: kaminpar >/dev/null 2>&1 || true
fi
# The Python package's tests (make python-check): pip first; where pip may
# not install (a Debian python3 marked externally managed) Debian's own
# packages below. Failure is fine: the tests then say they were skipped.
pymods="numpy scipy networkx pytest setuptools wheel"
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import numpy, scipy, networkx, pytest, setuptools, wheel' 2>/dev/null; then
    echo "install-deps: pip install $pymods"
    python3 -m pip install --quiet $pymods >/dev/null 2>&1 ||
        { [ "$(command -v python3)" = /usr/bin/python3 ] && command -v apt-get >/dev/null &&
          need="$need python3-numpy python3-scipy python3-networkx python3-pytest python3-setuptools python3-wheel python3-pip"; } || true
fi
# OpenMPI for coarsen-mpi (dist/, built only when mpicc is found): optional,
# so a machine whose package manager cannot get it still builds the rest.
opt=""
for pkg in libopenmpi-dev openmpi-bin; do
    dpkg -s "$pkg" >/dev/null 2>&1 || opt="$opt $pkg"
done
if [ -n "$opt" ] && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "install-deps: installing$opt (optional: coarsen-mpi)"
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $opt >/dev/null; } ||
        echo "install-deps: could not install$opt; coarsen-mpi will not be built" >&2
fi
[ -z "$need" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: missing packages:$need (install them with your package manager)" >&2
    exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing$need"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
