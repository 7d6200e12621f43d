#!/usr/bin/env python3
"""cpu_vs_metis.py — wall clock of two coarsen builds (BASE, NEW) and of METIS on the shared
graphs, runs interleaved (A B C A B C ...) so that all three see the same load; medians.
OMP_WAIT_POLICY and GOMP_SPINCOUNT are removed from the environment (each build runs with its own
default). part: `coarsen partition -k 8 --device cpu` vs `gpmetis FILE 8`; levels: `coarsen --levels 10
--device cpu` vs the I/O + coarsening times that `gpmetis -ptype=rb -dbglvl=2 FILE 2` prints (METIS's
own timers, 1 ms resolution, process start-up excluded). DATA: the shared graphs; METIS_GRAPHS: their
.graph forms (prepare_graphs.sh).
usage: cpu_vs_metis.py MODE BASE NEW RUNS [graphs...]   MODE = part | levels. Medians in ms."""
import os, re, subprocess, sys, time, statistics
D = os.environ.get('DATA', '../shared/data'); G = os.environ.get('METIS_GRAPHS', '/tmp/metis-graphs')
GRAPHS = ['karate','jgl009','Ragusa16','GD97_b','chesapeake','lesmis','west0067','kahip_example_weighted',
          'test_mgraph','1138_bus','jagmesh7','power','bcspwr10','polblogs','bcsstk13','rajat01','p2p-Gnutella06',
          'PGPgiantcompo','bayer10','4elt','astro-ph','delaunay_n15','rgg_n_2_15_s0','wing','copter2','road-NY','mdual','road-FLA']
def src(g):
    for ext in ('.graph','.graph.gz','.mtx','.mtx.gz'):
        if os.path.exists(f'{D}/{g}{ext}'): return f'{D}/{g}{ext}'
def run(cmd):
    env = dict(os.environ); env.pop('OMP_WAIT_POLICY', None); env.pop('GOMP_SPINCOUNT', None)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    t = (time.perf_counter() - t0) * 1000
    if p.returncode: print('FAIL', cmd, p.stdout[-300:], file=sys.stderr)
    return t, p.stdout
def main():
    mode, base, new, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    graphs = sys.argv[5:] or GRAPHS
    med = statistics.median
    print(f'# {mode} runs={runs} load={tuple(round(x,2) for x in os.getloadavg())} {time.strftime("%Y-%m-%d %H:%M:%S")}')
    if mode == 'part':
        print('| graph | before ms | after ms | gpmetis ms | after / gpmetis |\n|---|---:|---:|---:|---:|')
    else:
        print('| graph | before ms | after ms | METIS I/O + coarsening ms | after / METIS |\n|---|---:|---:|---:|---:|')
    for g in graphs:
        a, b, m = [], [], []
        for _ in range(runs):
            if mode == 'part':
                a.append(run([base, 'partition', '-k', '8', '--device', 'cpu', '--quiet', src(g), '--out', '/tmp/cpu_vs_metis.a.part'])[0])
                b.append(run([new, 'partition', '-k', '8', '--device', 'cpu', '--quiet', src(g), '--out', '/tmp/cpu_vs_metis.b.part'])[0])
                m.append(run(['gpmetis', f'{G}/{g}.graph', '8'])[0])
            else:
                a.append(run([base, '--levels', '10', '--device', 'cpu', '--quiet', src(g)])[0])
                b.append(run([new, '--levels', '10', '--device', 'cpu', '--quiet', src(g)])[0])
                out = run(['gpmetis', '-ptype=rb', '-dbglvl=2', f'{G}/{g}.graph', '2'])[1]
                io = float(re.search(r'I/O:\s+([\d.]+)', out).group(1)); co = float(re.search(r'Coarsening:\s+([\d.]+)', out).group(1))
                m.append((io + co) * 1000)
        ref = med(m)
        print(f'| {g} | {med(a):.1f} | {med(b):.1f} | {ref:.1f} | {med(b)/ref if ref > 0 else float("inf"):.2f} |', flush=True)
    print(f'# load after={tuple(round(x,2) for x in os.getloadavg())} {time.strftime("%H:%M:%S")}')
main()
