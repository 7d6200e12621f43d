"""s19-biglev2: per-launch kernel durations (ms) of an ncu CSV (--metrics
gpu__time_duration.sum), in launch order, with the running sum:
  python3 launches.py ncu24-new.csv"""
import csv, re, sys

rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
h = rows[0]
name, val, grid = h.index('Kernel Name'), h.index('Metric Value'), h.index('Grid Size')
total = 0.0
for i, r in enumerate(rows[1:]):
    ms = float(r[val].replace(',', '')) / 1e6
    total += ms
    print('%3d %7.3f %7.2f %s %s' % (i, ms, total, re.sub(r'\(.*', '', r[name]).replace('void ', '')[:60], r[grid]))
