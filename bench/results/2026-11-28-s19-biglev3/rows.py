#!/usr/bin/env python3
"""rows.py FILE.csv...: ncu's per-launch rows (gpu__time_duration.sum and any
other metric) of each file, one line a launch, then the sum of durations."""
import csv, sys
for path in sys.argv[1:]:
    rows = list(csv.reader(l for l in open(path) if not l.startswith('==')))
    h = rows[0]
    ki, mi, vi, ii = (h.index(c) for c in ('Kernel Name', 'Metric Name', 'Metric Value', 'ID'))
    launches = {}
    for r in rows[1:]:
        launches.setdefault(r[ii], {'kernel': r[ki].split('(')[0]})[r[mi]] = r[vi].replace(',', '')
    total = 0.0
    print('==', path)
    for i, d in launches.items():
        us = float(d.get('gpu__time_duration.sum', 0)) / 1e3
        total += us
        print(i, d['kernel'][:40], '%.1f us' % us, {k: v for k, v in d.items() if k not in ('kernel', 'gpu__time_duration.sum')})
    print('sum %.1f us' % total)
