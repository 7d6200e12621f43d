#!/bin/bash
# lead call s3 (session 19): per-level CPU times at 1, 4, 16 threads on the
# mid-size shared graphs (where 16 threads stop paying), 16-core host.
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
python3 - <<'PY' 2>&1 | tee $L/s3.txt
import json, subprocess, statistics, os
data = ".deps/data"
names = "wing astro-ph delaunay_n15 rgg_n_2_15_s0 copter2 4elt p2p-Gnutella06".split()
files = {n: [os.path.join(data, f) for f in sorted(os.listdir(data)) if f.split('.')[0] == n][0] for n in names}
for n in names:
    for t in (1, 4, 16):
        runs = []
        for i in range(7):
            r = subprocess.run(["build/coarsen", "--quiet", "--json", "--device", "cpu", "--threads", str(t), "--levels", "10", files[n]], capture_output=True, text=True)
            runs.append(json.loads(r.stdout))
        med = lambda f: statistics.median(f(d) for d in runs)
        lv = len(runs[0]["levels"])
        per = [(runs[0]["levels"][k]["vertices"], round(med(lambda d: d["levels"][k]["matching_ms"]), 2), round(med(lambda d: d["levels"][k]["contraction_ms"]), 2)) for k in range(1, lv)]
        print(n, "t%d" % t, "read", med(lambda d: d["phases"]["read_ms"]), "parse", med(lambda d: d["phases"]["parse_ms"]), "build", med(lambda d: d["phases"]["build_ms"]), "levels", med(lambda d: d["phases"]["levels_ms"]), "sum(match,contract)", round(sum(a + b for _, a, b in per), 2))
        print("   per level (n_from, match, contract):", per)
PY
