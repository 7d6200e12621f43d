# starts.py FILE.csv: k_class_starts' per-launch durations (ns, ncu
# gpu__time_duration.sum) and their sum in ms.
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith('==')) if len(r) > 5]
ds = [float(r[-1].replace(',', '')) for r in rows[1:] if 'k_class_starts' in r[4] and r[-3] == 'gpu__time_duration.sum']
print(' '.join('%.3f' % (d / 1e6) for d in ds), '| sum %.3f ms' % (sum(ds) / 1e6))
