"""Medians of levels_ms per label in a callN.txt (lines `label levels_ms=X ...
lv=...`), and of the summed GPU-level matching and contraction times.
Usage: python3 summarize.py callN.txt [section-substring]"""
import re, statistics, sys
sect = sys.argv[2] if len(sys.argv) > 2 else None
cur, rows = None, {}
for line in open(sys.argv[1]):
    if line.startswith('=='):
        cur = line.strip()
        continue
    m = re.match(r'(.+?) levels_ms=([\d.]+) n_last=\d+ lv=(\S+)', line)
    if not m or (sect and (not cur or sect not in cur)):
        continue
    lab, ms, lv = m.group(1), float(m.group(2)), m.group(3).split(',')
    g = [tuple(map(float, x[1:].split('/'))) for x in lv if x[0] == 'g']
    c = [tuple(map(float, x[1:].split('/'))) for x in lv if x[0] == 'c']
    rows.setdefault((cur, lab), []).append((ms, sum(a for a, _ in g), sum(b for _, b in g), len(g),
                                             sum(a + b for a, b in c), [a for a, _ in g]))
for (s, lab), r in rows.items():
    med = lambda k: statistics.median(x[k] for x in r)
    per = [statistics.median(x[5][i] for x in r) for i in range(min(len(x[5]) for x in r))]
    print('%s | %s | n=%d levels_ms %.2f (%.2f-%.2f) | %d GPU levels: matching %.2f contraction %.2f | host levels %.2f | GPU matching per level %s'
          % (s, lab, len(r), med(0), min(x[0] for x in r), max(x[0] for x in r), r[0][3], med(1), med(2), med(4),
             ' '.join('%.2f' % p for p in per)))
