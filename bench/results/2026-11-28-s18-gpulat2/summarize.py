"""Medians of levels_ms per program in a callN.txt (lines `label levels_ms=X
... lv=...`), of the summed GPU-level matching and contraction times, and
the median of the per-round differences to `base` (the programs run
interleaved, one round = one run of each).
Usage: python3 summarize.py callN.txt section-substring"""
import re, statistics as S, sys
fn, sect = sys.argv[1], sys.argv[2]
cur, out = None, {}
for line in open(fn):
    if line.startswith('=='):
        cur = line
        continue
    m = re.match(r'(.+?) levels_ms=([\d.]+) n_last=\d+ lv=(\S+)', line)
    if not m or not cur or sect not in cur:
        continue
    g = [tuple(map(float, x[1:].split('/'))) for x in m.group(3).split(',') if x[0] == 'g']
    out.setdefault(m.group(1), []).append((float(m.group(2)), sum(a for a, _ in g), sum(b for _, b in g),
                                          [a for a, _ in g]))
base = out.get('base')
for lab, v in out.items():
    line = '%s | %d | %.2f (%.2f-%.2f) | %.2f | %.2f' % (lab, len(v), S.median(x[0] for x in v), min(x[0] for x in v),
                                                         max(x[0] for x in v), S.median(x[1] for x in v),
                                                         S.median(x[2] for x in v))
    if base and len(base) == len(v):
        line += ' | %+.2f | %+.2f' % (S.median(x[0] - b[0] for x, b in zip(v, base)),
                                      S.median(x[1] - b[1] for x, b in zip(v, base)))
    per = [S.median(x[3][i] for x in v) for i in range(min(len(x[3]) for x in v))]
    print(line + ' | ' + ' '.join('%.2f' % p for p in per))
