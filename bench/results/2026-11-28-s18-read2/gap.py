#!/usr/bin/env python3
"""gap.py — the time outside the program's own wall: outer wall (posix_spawn to
waitpid) minus stderr's `wall`, with COARSEN_ONE_PROCESS=0 (fork at start, the
default) and 1 interleaved, medians, at 1 and 2 threads.
    python3 gap.py PROG RUNS FILE..."""
import os, re, statistics, sys, time
prog, runs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
pat = re.compile(r'wall ([\d.]+) ms')
null = os.open('/dev/null', os.O_WRONLY)
for f in files:
  for t in ('1', '2'):
    res = {'0': [], '1': []}
    for _ in range(runs):
        for one in ('0', '1'):
            fd = os.open('/tmp/read2-gap.err', os.O_WRONLY | os.O_TRUNC | os.O_CREAT)
            t0 = time.perf_counter()
            pid = os.posix_spawn(prog, [prog, '--levels', '10', '--device', 'cpu', '--threads', t, f], dict(os.environ, COARSEN_ONE_PROCESS=one), file_actions=[(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, fd, 2)])
            os.waitpid(pid, 0)
            outer = (time.perf_counter() - t0) * 1e3
            os.close(fd)
            wall = float(pat.search(open('/tmp/read2-gap.err').read()).group(1))
            res[one].append((outer, wall, outer - wall))
    for one in ('0', '1'):
        m = [statistics.median(c) for c in zip(*res[one])]
        print(os.path.basename(f), 'T' + t, 'one_process=' + one, 'outer %.2f wall %.2f gap %.2f' % tuple(m))
