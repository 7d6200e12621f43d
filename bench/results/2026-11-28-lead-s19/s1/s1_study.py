# s1 study (session 19): the user's command on small shared graphs, 16-core host:
# thread count x OpenMP wait policy; process floors; METIS beside.
import subprocess, time, os, sys, statistics, re, json
data = sys.argv[1]; prog = sys.argv[2]; out = sys.argv[3]
names = "astro-ph wing delaunay_n15 rgg_n_2_15_s0 4elt p2p-Gnutella06 PGPgiantcompo polblogs power bcsstk13 copter2".split()
files = {n: [os.path.join(data, f) for f in sorted(os.listdir(data)) if f.split('.')[0] == n][0] for n in names}
def run(cmd, env=None, n=7):
    e = dict(os.environ); e.update(env or {})
    ws, inner = [], []
    for i in range(n):
        t = time.perf_counter(); r = subprocess.run(cmd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True); ws.append(time.perf_counter() - t)
        m = re.search(r'levels ([0-9.]+) ms.*wall ([0-9.]+)', r.stderr)
        rd = re.search(r'read ([0-9.]+) ms', r.stderr)
        if m: inner.append((float(rd.group(1)), float(m.group(1)), float(m.group(2))))
    med = lambda xs: statistics.median(xs) if xs else -1
    return med(ws)*1e3, med([x[0] for x in inner]), med([x[1] for x in inner]), med([x[2] for x in inner])
log = open(out, 'w')
def P(*a):
    s = ' '.join(str(x) for x in a); print(s); log.write(s + '\n'); log.flush()
P("== floors (external wall ms, median of 21)")
for c in (["/bin/true"], [prog, "--help"], [prog.replace("build/", "build/cpu/"), "--help"], ["gpmetis", "-ptype=rb", os.path.join(data, "karate.graph"), "2"], [prog, "--levels", "10", os.path.join(data, "karate.graph")], [prog, "--levels", "10", "--threads", "1", os.path.join(data, "karate.graph")]):
    if os.path.exists(c[0]) or c[0] == "gpmetis": P(' '.join(c[:2]), "%.2f" % run(c, n=21)[0])
P("== METIS: I/O + coarsening (internal) and whole gpmetis wall, on the METIS file")
tmp = "/tmp/s1"; os.makedirs(tmp, exist_ok=True)
for n in names:
    g = os.path.join(tmp, n + ".graph")
    subprocess.run([prog, "convert", "--quiet", files[n], g], stderr=subprocess.DEVNULL)
    ios, ws = [], []
    for i in range(7):
        t = time.perf_counter(); r = subprocess.run(["gpmetis", "-ptype=rb", "-dbglvl=2", g, "2"], capture_output=True, text=True); ws.append(time.perf_counter() - t)
        try:
            io = float(re.search(r'I/O:\s+([0-9.]+)', r.stdout).group(1)); co = float(re.search(r'Coarsening:\s+([0-9.]+)', r.stdout).group(1)); ios.append(io + co)
        except AttributeError:
            P(n, "gpmetis failed:", r.stdout[-300:], r.stderr[-300:]); break
    if not ios: continue
    P(n, "metis_io+coarsen_ms %.1f" % (statistics.median(ios)*1e3), "gpmetis_wall_ms %.1f" % (statistics.median(ws)*1e3))
P("== ours: name config ext_wall_ms read_ms levels_ms inner_wall_ms (medians of 7)")
configs = [("t16-passive", {}), ("t16-spin1e4", {"GOMP_SPINCOUNT": "10000"}), ("t16-spin1e5", {"GOMP_SPINCOUNT": "100000"}), ("t16-active", {"OMP_WAIT_POLICY": "active"}),
           ("t8-passive", {"OMP_NUM_THREADS": "8"}), ("t4-passive", {"OMP_NUM_THREADS": "4"}), ("t2-passive", {"OMP_NUM_THREADS": "2"}), ("t1", {"OMP_NUM_THREADS": "1"}),
           ("t4-spin1e5", {"OMP_NUM_THREADS": "4", "GOMP_SPINCOUNT": "100000"}), ("t8-spin1e5", {"OMP_NUM_THREADS": "8", "GOMP_SPINCOUNT": "100000"})]
for n in names:
    for cn, env in configs:
        w, rd, lv, iw = run([prog, "--levels", "10", files[n]], env)
        P(n, cn, "%.2f %.2f %.2f %.2f" % (w, rd, lv, iw))
