#!/bin/sh
# depth_cuts.sh — the cut table of docs/benchmarks.md: `coarsen partition -k K
# --device cpu --compare-metis` for each graph, K and hierarchy variant, one
# line each (graph, K, variant, our cut, METIS's cut, ratio, our imbalance),
# then the geometric mean of ours / METIS per variant and K.
#
#   sh bench/depth_cuts.sh BUILD DATA_DIR [VARIANT...]
#
# A variant is a name and partition options joined by '=' and ',' for
# spaces, as in bench/depth.sh. KS (default "2 8 64") and GRAPHS override.
set -eu
BUILD=${1:?usage: depth_cuts.sh BUILD DATA_DIR [VARIANT...]}
DATA=${2:?usage: depth_cuts.sh BUILD DATA_DIR [VARIANT...]}
shift 2
[ $# -gt 0 ] || set -- 'handshake=' 'hec=--matcher,hec'
KS=${KS:-"2 8 64"}
GRAPHS=${GRAPHS:-"4elt.graph PGPgiantcompo.graph astro-ph.graph.gz bcspwr10.mtx copter2.graph.gz delaunay_n15.graph.gz
  mdual.graph.gz p2p-Gnutella06.mtx polblogs.graph power.graph wing.graph.gz"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "graph k variant cut metis_cut ratio imbalance"
for f in $GRAPHS; do
    for k in $KS; do
        for v in "$@"; do
            opts=$(echo "${v#*=}" | tr ',' ' ')
            # shellcheck disable=SC2086
            "$BUILD/coarsen" partition -k "$k" --device cpu --quiet --compare-metis $opts "$DATA/$f" >"$TMP/out" 2>&1 ||
                { echo "${f%%.*} $k ${v%%=*} failed"; continue; }
            awk -v g="${f%%.*}" -v k="$k" -v nm="${v%%=*}" '
                $1 == "ours" {c = $2; imb = $3} $1 == "metis" {m = $2}
                END {printf "%s %s %s %s %s %.4f %s\n", g, k, nm, c, m, (m > 0 ? c / m : 1), imb}' "$TMP/out" |
                tee -a "$TMP/rows"
        done
    done
done
for v in "$@"; do
    for k in $KS; do
        awk -v n="${v%%=*}" -v k="$k" '$2 == k && $3 == n && $5 > 0 {s += log($6); c++}
            END {printf "geomean %s k=%s ours/METIS %.4f over %d graphs\n", n, k, exp(s / c), c}' "$TMP/rows"
    done
done
