#!/usr/bin/env python3
"""tradeoff_summary.py OTHERS_CSV TRADEOFF_CSV — tradeoff.py's rows against METIS, KaMinPar and
KaHIP (their cuts from OTHERS_CSV, a partition_experiment.sh CSV): per variant and k, the
geometric means of ours / METIS per graph class and ours / best of the three over all graphs
(bayer10 out, zero references as in partition_experiment.sh), the rows whose cut differs from the default's,
and the summed CPU time; then per graph at k = 8 the cut and CPU ms of each variant."""
import csv, math, sys
from collections import defaultdict
CLASSES = {"mesh": ("4elt", "wing", "copter2", "mdual", "delaunay_n15", "rgg_n_2_15_s0", "jagmesh7"),
           "road/power": ("road-NY", "road-FLA", "power", "bcspwr10", "1138_bus"),
           "social/web": ("PGPgiantcompo", "astro-ph", "polblogs", "p2p-Gnutella06", "lesmis", "karate"),
           "zero-weight": ("bayer10",),
           "matrix": ("rajat01", "bcsstk13", "west0067", "Groebner", "test_mgraph", "kahip_example_weighted",
                      "GD97_b", "lp_afiro", "Ragusa16", "chesapeake", "jgl009")}
short = lambda g: g.split('/')[-1].split('.')[0]
cls = lambda n: next((c for c, names in CLASSES.items() if n in names), "other")
gmean = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')
ref = {}
for r in csv.DictReader(open(sys.argv[1])):
    vals = [r['metis_cut'], r['kaminpar_cut'], r['kahip_cut']]
    ref[(short(r['graph']), r['k'], r['seed'])] = (float(r['metis_cut']),
        min(float(x) for x in vals) if all(vals) else None)
rows = list(csv.DictReader(open(sys.argv[2])))
variants = list(dict.fromkeys(r['variant'] for r in rows))
ks = sorted({r['k'] for r in rows}, key=int)
cut = {(short(r['graph']), r['k'], r['seed'], r['variant']): (float(r['cut']), float(r['cpu_ms'])) for r in rows if r['cut']}
print('| variant | k | ' + ' | '.join(f'/METIS {c}' for c in ('mesh', 'road/power', 'social/web', 'matrix')) +
      ' | /best all | rows | cut > default | cut < default | CPU s |')
print('|---|---:|' + '---:|' * 9)
for v in variants:
    for k in ks:
        per = defaultdict(list); best = []; worse = better = n = 0; ms = 0
        for (g, kk, s, vv), (c, t) in cut.items():
            if vv != v or kk != k or (g, kk, s) not in ref:
                continue
            m, b = ref[(g, kk, s)]
            d = cut.get((g, kk, s, 'default'))
            n += 1; ms += t
            if d:
                worse += c > d[0] * (1 + 1e-12); better += c < d[0] * (1 - 1e-12)
            if m > 0:
                per[cls(g)].append(c / m)
            if cls(g) != 'zero-weight' and b is not None:
                best.append(c / b if b > 0 else 1.0)
        print(f'| {v} | {k} | ' + ' | '.join(f'{gmean(per[c]):.3f}' for c in ('mesh', 'road/power', 'social/web', 'matrix')) +
              f' | {gmean(best):.3f} | {n} | {worse} | {better} | {ms / 1000:.1f} |')
print()
print('k = 8, seed 1, per graph: cut (CPU ms) per variant')
print('| graph | ' + ' | '.join(variants) + ' |')
print('|---|' + '---:|' * len(variants))
for g in sorted({g for g, _, _, _ in cut}):
    cells = []
    for v in variants:
        c = cut.get((g, '8', '1', v))
        cells.append(f'{c[0]:.6g} ({c[1]:.0f})' if c else '-')
    print(f'| {g} | ' + ' | '.join(cells) + ' |')
