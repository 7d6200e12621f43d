# s4 (session 19): THREADS_GRAIN variants (CPU builds), the user's command
# `coarsen --levels 10 --device cpu FILE` and `partition -k 8`, 16-core host,
# idle and beside 8 busy loops; variants interleaved, medians.
import subprocess, time, os, sys, statistics, re
data, gdir, out = sys.argv[1], sys.argv[2], sys.argv[3]
grains = ["32768", "16384", "pm65536"]
names = "wing astro-ph delaunay_n15 rgg_n_2_15_s0 copter2 mdual 4elt p2p-Gnutella06 PGPgiantcompo polblogs power road-NY".split()
files = {n: [os.path.join(data, f) for f in sorted(os.listdir(data)) if f.split('.')[0] == n][0] for n in names}
log = open(out, "w")
def P(*a):
    s = " ".join(str(x) for x in a); print(s); log.write(s + "\n"); log.flush()
def one(cmd):
    t = time.perf_counter(); r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True); w = time.perf_counter() - t
    m = re.search(r"levels ([0-9.]+) ms", r.stderr)
    return w * 1e3, float(m.group(1)) if m else -1
def study(tag, runs):
    P("==", tag, "name: grain ext_wall_ms/levels_ms ... (medians of %d)" % runs)
    for n in names:
        res = {g: [] for g in grains}
        for i in range(runs):
            for g in grains:
                res[g].append(one([os.path.join(gdir, "coarsen-" + g), "--levels", "10", "--device", "cpu", files[n]]))
        P(n, " ".join("%s:%.1f/%.1f" % (g, statistics.median(x[0] for x in res[g]), statistics.median(x[1] for x in res[g])) for g in grains))
    P("== partition -k 8", tag)
    for n in ["wing", "astro-ph", "copter2", "4elt", "road-NY"]:
        res = {g: [] for g in grains}
        for i in range(max(3, runs // 2)):
            for g in grains:
                res[g].append(one([os.path.join(gdir, "coarsen-" + g), "partition", "-k", "8", "--device", "cpu", "--quiet", files[n]])[0])
        P(n, " ".join("%s:%.1f" % (g, statistics.median(res[g])) for g in grains))
study("idle", 11)
sys.exit(0)
busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(8)]
try:
    study("beside 8 busy loops", 5)
finally:
    for p in busy: p.kill()
