#!/bin/sh
# prepare_graphs.sh COARSEN OUTDIR — the shared graphs as plain METIS .graph
# files for gpmetis (which reads no gzip and no Matrix Market): .graph.gz
# inflated, Matrix Market converted by `coarsen convert` (real weights times
# 1000, rounded; bayer10 and bcsstk13, whose smallest weights round to 0,
# without weights). Rectangular matrices (lp_afiro, Groebner_id2003_aug)
# have no METIS form and are left out.
set -eu
coarsen=$1
out=$2
data=${DATA:-../shared/data}
mkdir -p "$out"
for f in "$data"/*.graph; do cp "$f" "$out/"; done
for f in "$data"/*.graph.gz; do b=$(basename "$f" .graph.gz); zcat "$f" > "$out/$b.graph"; done
for f in "$data"/*.mtx "$data"/*.mtx.gz; do
    b=$(basename "$(basename "$f" .gz)" .mtx)
    case $b in
    lp_afiro|Groebner_id2003_aug) continue ;;
    bayer10|bcsstk13)
        zcat -f "$f" | awk 'NR==1{sub(/real|integer/,"pattern"); print; next} /^%/{print; next} !h{print; h=1; next} {print $1, $2}' > "$out/$b-pattern.mtx"
        "$coarsen" convert --quiet "$out/$b-pattern.mtx" "$out/$b.graph"
        rm "$out/$b-pattern.mtx" ;;
    *) "$coarsen" convert --quiet "$f" "$out/$b.graph" 2>/dev/null ||
       "$coarsen" convert --quiet --weight-scale 1000 "$f" "$out/$b.graph" ;;
    esac
done
