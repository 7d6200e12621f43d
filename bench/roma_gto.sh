#!/bin/sh
# roma_gto.sh — gap to optimality of handshake, red/blue and each + ROMA
# (sequential, host replay, GPU when present): generates each graph with
# `coarsen gen` into a temporary folder (or takes a given .mtx file),
# computes the exact optimum with LEMON (bench/roma_opt_lemon.cc, built here
# with g++ against Debian's liblemon-dev) and runs bench_roma with --opt.
#
#   sh bench/roma_gto.sh BUILD_DIR [GEN_ARGS | FILE.mtx]...
#   e.g. sh bench/roma_gto.sh build "er -n 1000000 -d 8 -w real" "grid2d --nx 500 -w real"
# Output: bench_roma's key=value lines (gto=, gap_closed=, speedup_vs_seq=).
set -eu
build=${1:?usage: sh bench/roma_gto.sh BUILD_DIR [GEN_ARGS | FILE.mtx]...}
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opt_tool="$build/bench/roma_opt_lemon"
if [ ! -x "$opt_tool" ] || [ "$here/roma_opt_lemon.cc" -nt "$opt_tool" ]; then
    mkdir -p "$build/bench"
    g++ -O2 -o "$opt_tool" "$here/roma_opt_lemon.cc"
fi
[ $# -gt 0 ] || set -- "er -n 200000 -d 8 -w real" "grid2d --nx 300 -w real" "rgg -n 200000 -d 8 -w real"
k=0
for g in "$@"; do
    k=$((k + 1))
    case "$g" in
    *.mtx) file=$g ;;
    *)
        file="$tmp/g$k.mtx"
        # word splitting of the generator arguments is intended
        # shellcheck disable=SC2086
        "$build/coarsen" gen $g --quiet -o "$file"
        ;;
    esac
    t0=$(date +%s.%N)
    # LEMON's blossom code recurses deeply on unit weights: 8 MB of stack
    # crashes at 2e5 vertices, so the solver runs without a stack limit
    opt=$(ulimit -s unlimited 2>/dev/null; "$opt_tool" "$file")
    t1=$(date +%s.%N)
    echo "# $g: optimum $opt (LEMON, $(echo "$t1 - $t0" | bc) s)"
    "$build/bench/bench_roma" --runs 3 --graph "$file" --opt "$opt" | sed "s|graph=$file|graph=\"$g\"|"
done
