#!/usr/bin/env python3
"""tradeoff.py COARSEN OTHERS_CSV OUT.csv [variant=opts ...] — what each default quality step
(restarts, the coarsest level's METIS runs, the V-cycle) buys in cut and costs in CPU time:
`COARSEN partition -k K --seed S --threads 1 --device cpu --json [opts] FILE` for every
(graph, k, seed) row of OTHERS_CSV (a partition_experiment.sh CSV holding METIS's, KaMinPar's
and KaHIP's cuts, e.g. ../2026-11-24-cut2-s15/partition-9bfe007.csv; road-FLA left out for time),
each variant in turn on the same row. Writes one line per row and variant: graph, k, seed,
variant, cut, CPU ms (user + sys of the process, file reading included; COARSEN_ONE_PROCESS=1:
the work in the process itself, not in a child it forks)."""
import csv, json, os, resource, subprocess, sys
prog, others, out = sys.argv[1], sys.argv[2], sys.argv[3]
variants = [a.split('=', 1) for a in sys.argv[4:]] or [['default', '']]
rows = [r for r in csv.DictReader(open(others)) if 'road-FLA' not in r['graph']]
with open(out, 'w') as f:
    f.write('graph,k,seed,variant,cut,cpu_ms\n')
    for r in rows:
        for name, opts in variants:
            cmd = [prog, 'partition', '-k', r['k'], '--seed', r['seed'], '--threads', '1', '--device', 'cpu',
                   '--json'] + opts.split() + [r['graph'], '--out', '/tmp/tradeoff.part']
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=dict(os.environ, OMP_WAIT_POLICY='passive', COARSEN_ONE_PROCESS='1'))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            ms = 1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            cut = json.loads(p.stdout)['cut'] if p.returncode == 0 else ''
            f.write(f"{r['graph']},{r['k']},{r['seed']},{name},{cut},{ms:.1f}\n")
            f.flush()
