#!/bin/sh
# install-deps.sh — installs the Debian/Ubuntu packages the build and tests
# need when they are missing (zlib, ISA-L, libdeflate (bench_gzip), METIS, Criterion, pkg-config). Prints what
# it does; does nothing when everything is present.
set -e
need=""
for pkg in zlib1g-dev libisal-dev libdeflate-dev libmetis-dev metis libcriterion-dev pkg-config; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
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
