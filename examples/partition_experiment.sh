#!/bin/sh
# partition_experiment.sh — the multilevel partitioning experiment of issue 7:
# `coarsen partition` (through bench_partition) against METIS k-way on
# generated graphs plus the shared real graphs (when present), for several k
# and seeds; writes OUT/partition.csv, OUT/partition.png (cut ratio ours/METIS
# and speedup METIS/ours per graph) and prints the geometric-mean cut ratio
# per k. How to read the plot: docs/partitioning.md.
#
#   sh examples/partition_experiment.sh            (after `make`)
# Environment: BUILD (default build, else build-cpu), OUT (partition-experiment),
# KS (2,8,64), SEEDS ("1 2 3"), DEVICE (cpu|gpu, default cpu), COARSEN_DATA
# (../shared/data), GENERATED (generator specs, space-separated), MAX_EDGES
# (skip shared graphs with more undirected edges, default 2000000), RUNS (1),
# REUSE=1 (only rebuild the CSV and plot from an earlier OUT/partition.raw).
set -eu

BUILD=${BUILD:-$( [ -x build/bench/bench_partition ] && echo build || echo build-cpu )}
OUT=${OUT:-partition-experiment}
KS=${KS:-2,8,64}
SEEDS=${SEEDS:-1 2 3}
DEVICE=${DEVICE:-cpu}
DATA=${COARSEN_DATA:-../shared/data}
GENERATED=${GENERATED:-delaunay:n=100000,seed=1 rgg:n=100000,deg=12,seed=1 grid2d:nx=300,ny=300 er:n=50000,deg=8,seed=1}
MAX_EDGES=${MAX_EDGES:-2000000}
RUNS=${RUNS:-1}
BENCH=$BUILD/bench/bench_partition
PROG=$BUILD/coarsen

if [ ! -x "$BENCH" ] || [ ! -x "$PROG" ]; then
    if [ "$BUILD" = build-cpu ]; then make -j2 CUDA=0; else make -j2; fi
fi
mkdir -p "$OUT"
CSV=$OUT/partition.csv
RAW=$OUT/partition.raw
REUSE=${REUSE:-0}
[ "$REUSE" = 1 ] || : > "$RAW"

# The graphs: generated specs, then every shared graph `coarsen info` reads
# as a graph with at least 64 vertices and at most MAX_EDGES edges.
GRAPHS=$GENERATED
if [ -d "$DATA" ]; then
    for f in "$DATA"/*.graph "$DATA"/*.graph.gz "$DATA"/*.mtx "$DATA"/*.mtx.gz; do
        [ -f "$f" ] || continue
        info=$("$PROG" info --json "$f" 2>/dev/null) || { echo "skip $f: not readable as a graph" >&2; continue; }
        n=$(printf '%s' "$info" | sed -n 's/.*"vertices": *\([0-9]*\).*/\1/p')
        m=$(printf '%s' "$info" | sed -n 's/.*"edges": *\([0-9]*\).*/\1/p')
        if [ -z "$n" ] || [ "$n" -lt 64 ] || [ -z "$m" ] || [ "$m" -gt "$MAX_EDGES" ]; then
            echo "skip $f: $n vertices, $m edges" >&2
            continue
        fi
        GRAPHS="$GRAPHS $f"
    done
else
    echo "no shared data at $DATA: generated graphs only" >&2
fi

[ "$REUSE" = 1 ] && GRAPHS=
for g in $GRAPHS; do
    for s in $SEEDS; do
        echo "partition $g seed $s" >&2
        OMP_WAIT_POLICY=passive "$BENCH" --graph "$g" --k "$KS" --seed "$s" --device "$DEVICE" --runs "$RUNS" \
            | sed "s/^/seed=$s /" >> "$RAW" || echo "failed: $g seed $s" >&2
    done
done

# key=value lines -> CSV
awk 'BEGIN { print "graph,k,seed,device,n,nnz,cut,metis_cut,cut_ratio,imbalance,metis_imbalance,within_bound,ours_ms,metis_ms,speedup" }
{
    delete v
    for (i = 1; i <= NF; i++) { split($i, kv, "="); key = kv[1]; sub(/^[^=]*=/, "", $i); v[key] = $i }
    printf "\"%s\",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", v["graph"], v["k"], v["seed"], v["device"], v["n"], v["nnz"],
        v["cut"], v["metis_cut"], v["cut_ratio"], v["imbalance"], v["metis_imbalance"], v["within_bound"],
        v["median_ms"], v["metis_median_ms"], v["speedup"]
}' "$RAW" > "$CSV"
echo "wrote $CSV ($(($(wc -l < "$CSV") - 1)) rows)" >&2

# The plot: matplotlib, installed when missing (pip, then apt).
if ! python3 -c 'import matplotlib' 2>/dev/null; then
    python3 -m pip install --quiet matplotlib 2>/dev/null || \
        { apt-get install -y -q python3-matplotlib >/dev/null 2>&1 || true; }
fi
python3 - "$CSV" "$OUT/partition.png" <<'PY'
import csv, math, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
ratio, speed = defaultdict(list), defaultdict(list)
for r in rows:
    if r["cut_ratio"]:
        name = r["graph"].split("/")[-1]
        ratio[(name, int(r["k"]))].append(float(r["cut_ratio"]))
        speed[(name, int(r["k"]))].append(float(r["speedup"]))
ks = sorted({k for _, k in ratio})
graphs = sorted({g for g, _ in ratio})
print("geometric-mean cut ratio ours/METIS (over graphs and seeds):")
for k in ks:
    xs = [x for (g, kk), v in ratio.items() if kk == k for x in v]
    print(f"  k={k}: {gmean(xs):.4f} over {len(xs)} runs")
bad = [r for r in rows if r["within_bound"] != "1"]
print(f"partitions outside the imbalance bound: {len(bad)} of {len(rows)}")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib unavailable: no plot (CSV written)")
    sys.exit(0)
fig, (a, b) = plt.subplots(2, 1, figsize=(max(8, 0.45 * len(graphs)), 8), sharex=True)
for i, k in enumerate(ks):
    xs = [j + (i - (len(ks) - 1) / 2) * 0.25 for j in range(len(graphs))]
    a.scatter(xs, [gmean(ratio.get((g, k), [])) for g in graphs], label=f"k={k}", s=18)
    b.scatter(xs, [gmean(speed.get((g, k), [])) for g in graphs], label=f"k={k}", s=18)
a.axhline(1.0, color="gray", lw=0.8)
b.axhline(1.0, color="gray", lw=0.8)
a.set_ylabel("cut ours / METIS (lower is better)")
b.set_ylabel("speedup METIS time / ours")
b.set_yscale("log")
b.set_xticks(range(len(graphs)))
b.set_xticklabels(graphs, rotation=60, ha="right", fontsize=7)
a.legend()
a.set_title("coarsen partition vs METIS k-way (geometric mean over seeds)")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
print("wrote", sys.argv[2])
PY
