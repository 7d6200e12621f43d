#!/bin/sh
# run.sh BUILD — the Python package's tests (make python-check): builds the
# wheel from the repository as `pip install .` would (setup.py links BUILD's
# libcoarsen.so, with the CUDA and GZIP settings in the environment),
# installs it into BUILD/python/site and runs pytest on tests/python, the
# CLI comparisons against BUILD/coarsen. Without numpy, scipy or pytest
# (scripts/install-deps.sh installs them with pip) it says so and skips.
set -e
build=${1:-build}
cd "$(dirname "$0")/../.."
if ! python3 -c 'import numpy, scipy, pytest' 2>/dev/null; then
    echo "python-check: SKIPPED: python3 lacks numpy, scipy or pytest (scripts/install-deps.sh installs them)"
    exit 0
fi
rm -rf "$build/python"
# The installed setuptools and wheel when there are both (no download),
# else pip's isolated build environment.
isolation=--no-build-isolation
python3 -c 'import setuptools, wheel' 2>/dev/null || isolation=
export PIP_ROOT_USER_ACTION=ignore
BUILD=$build python3 -m pip wheel --quiet --no-deps $isolation -w "$build/python/wheel" .
python3 -m pip install --quiet --no-deps --target "$build/python/site" "$build"/python/wheel/coarsen-*.whl
COARSEN_PROG="$PWD/$build/coarsen" PYTHONPATH="$PWD/$build/python/site" python3 -m pytest -q -rs tests/python
