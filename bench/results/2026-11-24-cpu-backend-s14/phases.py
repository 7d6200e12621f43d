#!/usr/bin/env python3
"""phases.py BASE NEW RUNS [graphs...] — the program's own phase timers (`partition -k 8 --device cpu
--json`: coarsen, initial, refine incl. polish, polish, total; file I/O excluded) of two builds, runs
interleaved, OMP_WAIT_POLICY=passive for both (only the computing changes show), the minimum of RUNS per
phase: the least disturbed figure on a machine shared with other sessions. DATA: the shared graphs. ms."""
import json, os, subprocess, sys, time
D = os.environ.get('DATA', '../shared/data')
def src(g):
    for ext in ('.graph', '.graph.gz', '.mtx', '.mtx.gz'):
        if os.path.exists(f'{D}/{g}{ext}'): return f'{D}/{g}{ext}'
def phases(b, f):
    env = dict(os.environ, OMP_WAIT_POLICY='passive')
    out = subprocess.run([b, 'partition', '-k', '8', '--device', 'cpu', '--quiet', '--json', f, '--out', '/tmp/phases.part'],
                         stdout=subprocess.PIPE, text=True, env=env, check=True).stdout
    j = json.loads(out)
    return [j['coarsen_ms'], j['initial_ms'], j['refine_ms'], j['polish_ms'], j['total_ms']]
base, new, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
graphs = sys.argv[4:] or ['polblogs', 'bcsstk13', 'rajat01', 'p2p-Gnutella06', 'bayer10', 'astro-ph', 'copter2']
print(f'# phases runs={runs} load={tuple(round(x, 2) for x in os.getloadavg())} {time.strftime("%Y-%m-%d %H:%M:%S")}')
print('| graph | coarsen before / after | initial before / after | refine (incl. polish) before / after | polish before / after | total before / after |')
print('|---|---|---|---|---|---|')
for g in graphs:
    a, b = [], []
    for _ in range(runs):
        a.append(phases(base, src(g)))
        b.append(phases(new, src(g)))
    ma = [min(r[i] for r in a) for i in range(5)]
    mb = [min(r[i] for r in b) for i in range(5)]
    print(f'| {g} | ' + ' | '.join(f'{x:.1f} / {y:.1f}' for x, y in zip(ma, mb)) + ' |', flush=True)
print(f'# load after={tuple(round(x, 2) for x in os.getloadavg())} {time.strftime("%H:%M:%S")}')
