"""Medians of a call's road-FLA runs (levels_ms, and the sums over the GPU
levels of matching + two-hop and of contraction) per label."""
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) levels_ms=([\d.]+) n_last=\d+ lv=(\S+)', line)
    if not m:
        continue
    g = [l for l in m.group(3).split(',') if l.startswith('g')]
    match = sum(float(l[1:].split('/')[0]) for l in g)
    contr = sum(float(l.split('/')[1]) for l in g)
    runs.setdefault(m.group(1), []).append((float(m.group(2)), match, contr, len(g)))
for k, v in runs.items():
    print('%-16s runs=%d levels_ms median %.2f (%.2f-%.2f)  GPU levels %d: matching %.2f, contraction %.2f ms (medians)' % (
        k, len(v), statistics.median(x[0] for x in v), min(x[0] for x in v), max(x[0] for x in v), v[0][3],
        statistics.median(x[1] for x in v), statistics.median(x[2] for x in v)))
