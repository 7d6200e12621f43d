#!/bin/bash
# read scaling on the 16-core host: coarsen info (read only) at 1..16 threads, with rusage
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
{
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
build/coarsen convert --quiet $T/g.graph $T/g.mtx; build/coarsen convert --quiet $T/g.graph $T/g.parhip
ls -la $T
for f in g.graph g.mtx g.parhip; do for t in 1 4 16; do for r in 1 2; do
python3 - "$t" "$T/$f" <<'PY'
import resource, subprocess, sys, time
t, f = sys.argv[1], sys.argv[2]
t0 = time.time()
p = subprocess.run(["build/coarsen", "--threads", t, "--levels", "0", "--device", "cpu", f], capture_output=True, text=True)
w = time.time() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
line = [l for l in p.stderr.splitlines() if "time:" in l]
print(f"{f.split('/')[-1]} threads={t} wall={w:.3f} utime={ru.ru_utime:.2f} stime={ru.ru_stime:.2f} minflt={ru.ru_minflt} nvcsw={ru.ru_nvcsw} nivcsw={ru.ru_nivcsw} | {line[-1][15:120] if line else p.stderr[-200:]}")
PY
done; done; done
} 2>&1 | tee $L/readscale.txt
