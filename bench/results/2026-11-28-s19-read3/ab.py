#!/usr/bin/env python3
"""ab.py — outer wall and stderr phase split of `coarsen --levels 10 --device
cpu --threads T FILE` for builds A and B (and more), runs interleaved
A B A B ...; medians per file, thread count and build.

    python3 ab.py RUNS THREADS(,THREADS) BUILD_DIR... -- FILE...

The outer wall is posix_spawn to waitpid of the program (the first process:
what the caller waits for), stdout to /dev/null, stderr to a file whose
`coarsen: time:` line gives read (inflate, parse, build), levels and the
program's own wall. One line per file, thread count and build:
file T build outer_ms wall_ms read_ms inflate parse build levels_ms (medians),
then the minima of outer_ms and read_ms."""
import os, re, statistics, sys, tempfile, time

args = sys.argv[1:]
sep = args.index('--')
runs, threads, builds, files = int(args[0]), args[1].split(','), args[2:sep], args[sep + 1:]
pat = re.compile(r'read ([\d.]+) ms \(inflate ([\d.]+), parse ([\d.]+), build ([\d.]+)\).*levels ([\d.]+) ms.*wall ([\d.]+) ms')
err = tempfile.NamedTemporaryFile(delete=False).name
null = os.open('/dev/null', os.O_WRONLY)

def one(prog, t, f):
    fd = os.open(err, os.O_WRONLY | os.O_TRUNC | os.O_CREAT)
    fa = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, fd, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(prog, [prog, '--levels', '10', '--device', 'cpu', '--threads', t, f], os.environ, file_actions=fa)
    os.waitpid(pid, 0)
    t1 = time.perf_counter()
    os.close(fd)
    m = pat.search(open(err).read())
    read, inf, par, bld, lev, wall = (float(x) for x in m.groups())
    return [(t1 - t0) * 1e3, wall, read, inf, par, bld, lev]

for f in files:
    for t in threads:
        res = {b: [] for b in builds}
        for _ in range(runs):
            for b in builds:
                res[b].append(one(os.path.join(b, 'coarsen'), t, f))
        for b in builds:
            cols = list(zip(*res[b]))
            med = [statistics.median(col) for col in cols]
            print(os.path.basename(f), t, b, ' '.join('%.2f' % x for x in med),
                  'min: outer %.2f read %.2f' % (min(cols[0]), min(cols[2])), flush=True)
os.unlink(err)
