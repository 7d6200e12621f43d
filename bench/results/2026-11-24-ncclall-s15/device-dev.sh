# dev.sh — branch ncclall's device call: rgg 2^22 timings (baseline main e5c1aea vs ncclall, coarsen-mpi
# one rank as a singleton, --device gpu and cpu; coarsen --device gpu), identity, then the GPU MPI test.
set -u
rm -rf build .devbuild .deps && tar xzf .dev-ncclall/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
S=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; } > $OUT/machine.txt 2>&1
build/coarsen gen rgg --vertices 4194304 --degree 12 --seed 1 -o /tmp/g.graph > $OUT/gen.txt 2>&1
for i in 1 2 3; do
  for v in base-gpu base-cpu new-gpu new-cpu coarsen-gpu; do
    case $v in base-*) p=build/baseline/coarsen-mpi;; new-*) p=build/coarsen-mpi;; *) p=build/coarsen;; esac
    $p --quiet --json --device ${v#*-} --levels 10 /tmp/g.graph > $OUT/j-$v-$i.json 2>$OUT/e-$v-$i.txt
  done
done
python3 - $OUT > $OUT/timings.txt <<'PY'
import json, sys, glob, statistics
o = sys.argv[1]
for v in ["base-gpu", "base-cpu", "new-gpu", "new-cpu", "coarsen-gpu"]:
    rows = []
    for i in (1, 2, 3):
        try:
            d = json.load(open(f"{o}/j-{v}-{i}.json"))
            rows.append((d["phases"]["read_ms"], d["phases"]["levels_ms"], d["totals"]["matching_ms"], d["totals"]["contraction_ms"], d["phases"]["wall_ms"], d.get("device_reason", "")))
        except Exception as e:
            print(v, i, "error", e)
    for r in rows: print(v, "read %.1f levels %.1f matching %.1f contraction %.1f wall %.1f" % r[:5])
    if rows: print(v, "MEDIAN read %.1f levels %.1f matching %.1f contraction %.1f wall %.1f" % tuple(statistics.median(r[k] for r in rows) for k in range(5)), "|", rows[0][5])
PY
echo "timings done at $(( $(date +%s) - S )) s" >> $OUT/timings.txt
build/coarsen --quiet --device gpu --levels 10 --out /tmp/a /tmp/g.graph && build/coarsen-mpi --quiet --device gpu --levels 10 --out /tmp/b /tmp/g.graph && build/coarsen-mpi --quiet --device gpu --matcher handshake --levels 10 --out /tmp/c /tmp/g.graph && build/coarsen --quiet --device gpu --matcher handshake --levels 10 --out /tmp/d /tmp/g.graph
{ n=0; for f in /tmp/a/level-* /tmp/a/map-*; do cmp $f /tmp/b/${f##*/} && n=$((n+1)); done; echo "hec: $n files identical"; n=0; for f in /tmp/d/level-* /tmp/d/map-*; do cmp $f /tmp/c/${f##*/} && n=$((n+1)); done; echo "handshake: $n identical"; grep -h '"gpus"\|device_reason' /tmp/b/stats.json /tmp/c/stats.json; echo "at $(( $(date +%s) - S )) s"; } > $OUT/identity.txt 2>&1
MPI_DEVICE=gpu MPI_SINGLETON=1 MPI_RANKS=1 COARSEN_DATA=.deps/data timeout ${TEST_LIMIT:-90} sh .dev-ncclall/run.sh build > $OUT/mpitest.txt 2>&1
echo "rc $? at $(( $(date +%s) - S )) s" >> $OUT/mpitest.txt
tail -3 $OUT/mpitest.txt; cat $OUT/timings.txt $OUT/identity.txt
