#!/usr/bin/env python3
"""Matrix Market inputs for the identity check of the edge-list build:
duplicates (summed in file order: real weights of mixed sign and scale, so
the order of a sum shows in its bits), self loops, both directions of an
edge, a hub row (one cell far larger than the others), and a vertex count
that is not a multiple of the cell size.  usage: make_inputs.py DIR"""
import random, sys, os

def write(path, header, n, entries):
    with open(path, "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate %s\n" % header)
        f.write("%d %d %d\n" % (n, n, len(entries)))
        for e in entries:
            f.write(" ".join(str(x) for x in e) + "\n")

def real_w(rng):
    return "%.17g" % (rng.choice([-1, 1]) * rng.randint(1, 2000) * 2.0 ** rng.randint(-40, 40))

def main(d):
    rng = random.Random(17)
    n = 300007
    ent = []
    for k in range(1500000):
        r = rng.random()
        if r < 0.1 and ent:                       # repeat an earlier key
            i, j = ent[rng.randrange(len(ent))][:2]
        elif r < 0.15 and ent:                    # its mirror
            j, i = ent[rng.randrange(len(ent))][:2]
        elif r < 0.17:                            # self loop
            i = j = rng.randint(1, n)
        elif r < 0.27:                            # the hub
            i, j = 1 + rng.randrange(3), rng.randint(1, n)
        else:                                     # near the diagonal
            i = rng.randint(1, n)
            j = min(n, max(1, i + rng.randint(-5000, 5000)))
        ent.append((i, j, real_w(rng)))
    write(os.path.join(d, "gen_real_general.mtx"), "real general", n, ent)
    write(os.path.join(d, "gen_int_general.mtx"), "integer general", n,
          [(i, j, rng.randint(1, 9)) for i, j, _ in ent])
    write(os.path.join(d, "gen_pattern_general.mtx"), "pattern general", n, [(i, j) for i, j, _ in ent])
    # symmetric: lower triangle and diagonal, duplicates of the same key
    sym = [(max(i, j), min(i, j), w) for i, j, w in ent]
    write(os.path.join(d, "gen_real_symmetric.mtx"), "real symmetric", n, sym)
    write(os.path.join(d, "gen_pattern_symmetric.mtx"), "pattern symmetric", n, [(i, j) for i, j, _ in sym])

main(sys.argv[1])
