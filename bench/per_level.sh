#!/bin/sh
# per_level.sh — the per-level reduction table of docs/benchmarks.md: for
# each graph, `coarsen --quiet --device cpu OPTIONS FILE` (the user's
# command is --levels 10) and one line: the fraction of the vertices each
# level removes, the coarsest level's vertices and edges, and the stop
# reason. The hierarchy does not depend on the backend (CPU == GPU bit for
# bit), so the CPU backend runs.
#
#   sh bench/per_level.sh BUILD DATA_DIR [OPTION...]
#
# GRAPHS (default: the social graphs of issue 15) names the files.
set -eu
BUILD=${1:?usage: per_level.sh BUILD DATA_DIR [OPTION...]}
DATA=${2:?usage: per_level.sh BUILD DATA_DIR [OPTION...]}
shift 2
[ $# -gt 0 ] || set -- --levels 10
GRAPHS=${GRAPHS:-"astro-ph.graph.gz PGPgiantcompo.graph p2p-Gnutella06.mtx polblogs.graph"}
echo "# coarsen --quiet --device cpu $*"
for f in $GRAPHS; do
    "$BUILD/coarsen" --quiet --device cpu "$@" "$DATA/$f" |
        awk -v name="${f%%.*}" '
            $1 ~ /^[0-9]+$/ && $1 > 0 {r = r sprintf(" %s", $4); n = $2; m = $3; L = $1}
            /^stopped:/ {sub(/^stopped: /, ""); stop = $0}
            END {printf "%s:%s | levels %d, last n %d, edges %d | %s\n", name, r, L, n, m, stop}'
done
