#!/bin/sh
# depth.sh — the depth table of docs/benchmarks.md: for each graph, METIS's
# level count and coarsest size (gpmetis -ptype=rb -dbglvl=4 FILE 2, which
# coarsens to 20 vertices), then our coarsest size at that level count
# (coarsen --coarsen-to 20 --levels <METIS's count>) for each variant.
#
#   sh bench/depth.sh BUILD DATA_DIR [VARIANT...]
#
# A variant is a name and coarsen options joined by '=' and ',' for spaces,
# e.g. 'hec=--matcher,hec'. One line per graph: name, n, METIS's levels and
# coarsest n, then ours per variant, and the geometric mean of ours / METIS's
# per variant at the end. Depth is backend-independent (CPU == GPU bit for
# bit), so the CPU backend runs. Matrix Market files are converted to METIS
# files first (both programs read the same graph): real weights x 1000 and
# rounded, or, where no scale fits METIS's integers (bcsstk13), as unit
# weights.
set -eu
BUILD=${1:?usage: depth.sh BUILD DATA_DIR [VARIANT...]}
DATA=${2:?usage: depth.sh BUILD DATA_DIR [VARIANT...]}
shift 2
[ $# -gt 0 ] || set -- 'handshake=' 'hec=--matcher,hec'
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
GRAPHS=${GRAPHS:-"1138_bus.mtx 4elt.graph PGPgiantcompo.graph astro-ph.graph.gz bcspwr10.mtx bcsstk13.mtx.gz
  chesapeake.mtx copter2.graph.gz delaunay_n15.graph.gz jagmesh7.mtx karate.graph lesmis.graph mdual.graph.gz
  p2p-Gnutella06.mtx polblogs.graph power.graph rgg_n_2_15_s0.graph.gz road-NY.mtx.gz wing.graph.gz"}
printf 'graph n metis_levels metis_n'
for v in "$@"; do printf ' %s' "${v%%=*}"; done
echo
for f in $GRAPHS; do
    name=${f%%.*}
    g="$TMP/$name.graph"
    "$BUILD/coarsen" convert "$DATA/$f" "$g" >/dev/null 2>&1 ||   # real weights: x 1000, rounded
        "$BUILD/coarsen" convert --weight-scale 1000 "$DATA/$f" "$g" >/dev/null 2>&1 ||
        "$BUILD/coarsen" convert --unit-weights "$DATA/$f" "$g" >/dev/null 2>&1 || { echo "$name: -"; continue; }
    sizes=$(gpmetis -ptype=rb -dbglvl=4 "$g" 2 |
        awk '/^Recursive Partitioning/ {on = 1; next} on && /^ *[0-9]+ +[0-9]+/ {print $1; next} on {exit}')
    levels=$(($(echo "$sizes" | wc -l) - 1))
    n0=$(echo "$sizes" | head -1)
    mn=$(echo "$sizes" | tail -1)
    printf '%s %s %s %s' "$name" "$n0" "$levels" "$mn"
    for v in "$@"; do
        opts=$(echo "${v#*=}" | tr ',' ' ')
        # shellcheck disable=SC2086
        ours=$("$BUILD/coarsen" --quiet --json --device cpu --coarsen-to 20 --levels "$levels" $opts "$g" |
            sed -n 's/.*"vertices_out": \([0-9]*\).*/\1/p')
        printf ' %s' "$ours"
        echo "${v%%=*} $ours $mn" >>"$TMP/ratios"
    done
    echo
done
for v in "$@"; do
    awk -v k="${v%%=*}" '$1 == k && $3 > 0 {s += log($2 / $3); c++; w += $2 > $3}
        END {printf "geomean %s ours/METIS %.3f (worse than METIS on %d of %d)\n", k, exp(s / c), w, c}' "$TMP/ratios"
done
