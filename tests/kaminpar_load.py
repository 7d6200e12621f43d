#!/usr/bin/env python3
"""kaminpar_load.py - loads a ParHIP binary graph with KaMinPar's own Python
package (PyPI `kaminpar`) for tests/test_cli_parhip.c, and prints what it
read: "n m" (m = adjacency entries), then for each vertex id given on the
command line "u degree weight v:w v:w ..." with neighbours sorted.
Exits 77 when the package is not installed (the test then skips)."""
import sys

try:
    import kaminpar
except ImportError:
    sys.exit(77)

g = kaminpar.load_graph(sys.argv[1], kaminpar.GraphFileFormat.PARHIP)
print(g.n(), g.m())
for u in map(int, sys.argv[2:]):
    nbrs = sorted(g.neighbors(u))
    print(u, g.degree(u), int(g.node_weight(u)), " ".join(f"{v}:{w}" for v, w in nbrs))
