"""s19-biglev: tables from the device calls' outputs.
  python3 summarize.py ncu FILE.csv         per-kernel totals, and the first level's kernels
  python3 summarize.py steps call1.txt RUN  per-step profile of one HEC_PROF run (e.g. 'u24 run 2')
  python3 summarize.py bench call2.txt      bench_pipeline medians per program and graph"""
import csv, collections, re, statistics, sys

def ncu(path):
    rows = [r for r in csv.reader(open(path)) if len(r) > 5]
    h = rows[0]; name = h.index('Kernel Name'); val = h.index('Metric Value')
    tot = collections.defaultdict(float); cnt = collections.Counter()
    for r in rows[1:]:
        try: v = float(r[val].replace(',', '')) / 1e6
        except ValueError: continue
        k = re.sub(r'\(.*', '', r[name]).replace('void ', '')[:60]
        tot[k] += v; cnt[k] += 1
    print('| kernel | launches | ms |\n|---|---:|---:|')
    for k, v in sorted(tot.items(), key=lambda x: -x[1]):
        if v >= 0.05: print('| %s | %d | %.3f |' % (k, cnt[k], v))
    print('| all | %d | %.3f |' % (sum(cnt.values()), sum(tot.values())))

def steps(path, run):
    on = False
    for line in open(path):
        if line.startswith('-- '): on = line.strip() == '-- ' + run; continue
        if on and re.match(r'^(hec|contract|totals) ', line): print(line.rstrip())

def bench(path):
    res = collections.defaultdict(list)
    for line in open(path):
        m = re.match(r'^(\w+)\s+bench=pipeline graph=(\S+) .*no_upload_ms=([\d.]+) .*matching_ms=([\d.]+) .*contraction_ms=([\d.]+)', line)
        if m: res[(m.group(2), m.group(1))].append((float(m.group(3)), float(m.group(4)), float(m.group(5))))
    print('| graph | program | invocations | no_upload_ms | matching_ms | contraction_ms |\n|---|---|---:|---:|---:|---:|')
    for (g, p), v in sorted(res.items()):
        print('| %s | %s | %d | %s | %s | %s |' % (g, p, len(v), *('/'.join('%.2f' % x[i] for x in v) for i in range(3))))

{'ncu': lambda: ncu(sys.argv[2]), 'steps': lambda: steps(sys.argv[2], sys.argv[3]),
 'bench': lambda: bench(sys.argv[2])}[sys.argv[1]]()
