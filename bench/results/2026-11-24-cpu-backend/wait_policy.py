#!/usr/bin/env python3
"""wait_policy.py RUNS COARSEN — `coarsen partition -k 8 --device cpu` with the program's default
(passive waiting) and with libgomp's default spinning (GOMP_SPINCOUNT=300000, what libgomp uses when
neither variable is set), runs interleaved; medians. Run it as is and beside a busy loop per core."""
import os, subprocess, sys, time, statistics
B=sys.argv[2]; D=os.environ.get('DATA', '../shared/data')
graphs=['karate.graph','4elt.graph','copter2.graph.gz','road-FLA.mtx.gz']
modes=[('passive (new default)',{}),('spin (libgomp default)',{'GOMP_SPINCOUNT':'300000'})]
runs=int(sys.argv[1])
print('load', os.getloadavg())
for g in graphs:
    res={m:[] for m,_ in modes}
    for _ in range(runs):
        for m,env in modes:
            e=dict(os.environ); e.pop('OMP_WAIT_POLICY',None); e.update(env)
            t0=time.perf_counter(); subprocess.run([B,'partition','-k','8','--device','cpu','--quiet',f'{D}/{g}','--out','/tmp/wait_policy.part'],env=e,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL); res[m].append((time.perf_counter()-t0)*1000)
    print(f'{g:18s} ' + '  '.join(f'{m}: {statistics.median(v):8.1f} ms' for m,v in res.items()), flush=True)
print('load', os.getloadavg())
