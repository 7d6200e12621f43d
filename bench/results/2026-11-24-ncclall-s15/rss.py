# rss.py NAME CMD...: runs CMD, samples VmRSS of every process whose comm is NAME every 20 ms;
# prints per pid the max RSS (MiB) and the time series max before/after the time given by stats (read_ms)
import subprocess, sys, time, os, json
name = sys.argv[1]; cmd = sys.argv[2:]
t0 = time.time(); p = subprocess.Popen(cmd)
samples = {}
while p.poll() is None:
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        try:
            with open(f'/proc/{pid}/status') as f: st = f.read()
        except OSError: continue
        if f'Name:\t{name}\n' not in st: continue
        rss = int(st.split('VmRSS:')[1].split()[0]) if 'VmRSS:' in st else 0
        samples.setdefault(pid, []).append((time.time() - t0, rss))
    time.sleep(0.02)
json.dump(samples, open('/tmp/nca/rss.json', 'w'))
for pid, s in samples.items():
    print(pid, 'max MiB %.0f' % (max(r for _, r in s) / 1024))
