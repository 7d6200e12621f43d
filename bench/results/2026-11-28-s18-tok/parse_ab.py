#!/usr/bin/env python3
"""parse_ab.py — interleaved wall A/B of the read: runs `coarsen --threads T
--levels 10 --device cpu FILE` of each build in turn, RUNS times, and prints
the medians of stderr's read split (read, parse) per file and build.
usage: parse_ab.py RUNS THREADS BUILD_DIR... -- FILE..."""
import re, statistics, subprocess, sys

args = sys.argv[1:]
runs, threads = int(args[0]), args[1]
sep = args.index("--")
builds, files = args[2:sep], args[sep + 1:]
pat = re.compile(r"read ([\d.]+) ms \(inflate ([\d.]+), parse ([\d.]+), build ([\d.]+)\)")
print(f"threads {threads}, {runs} runs, medians, ms: read (parse)")
for f in files:
    got = {b: ([], []) for b in builds}
    for _ in range(runs):
        for b in builds:
            r = subprocess.run([f"{b}/coarsen", "--threads", threads, "--levels", "10", "--device", "cpu", f],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            m = pat.search(r.stderr)
            got[b][0].append(float(m.group(1)))
            got[b][1].append(float(m.group(3)))
    cells = [f"{statistics.median(got[b][0]):.1f} ({statistics.median(got[b][1]):.2f})" for b in builds]
    print(f.split("/")[-1], *cells, sep=" | ")
