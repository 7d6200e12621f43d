"""python_quickstart.py — the Python package in one page (docs/python.md):
coarsen a SciPy matrix, check that each level is P^T A P, partition it,
project a coarse partition back, and draw the level sizes to a PNG.

    pip install .                      # from the repository root
    python3 examples/python_quickstart.py [OUT.png]
"""

import sys

import numpy as np
import scipy.sparse as sp

import coarsen

# A 2-D Poisson matrix on a 200 x 200 grid (40 000 unknowns): the graph of
# its off-diagonal entries is the grid.
k = 200
T = sp.diags_array([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], offsets=[-1, 0, 1])
A = sp.csr_array(sp.kron(sp.eye_array(k), T) + sp.kron(T, sp.eye_array(k)))

# Ten levels of coarsening (CPU or GPU, whichever is there).
h = coarsen.coarsen(A, levels=10, coarsen_to=100, seed=1)
print(h)

# Each level is the Galerkin product of the one before, without its diagonal.
for lvl in range(1, h.levels + 1):
    P = h.prolongation(lvl)
    C = sp.csr_array(P.T @ h.graphs[lvl - 1] @ P)
    C = sp.csr_array(C - sp.diags_array(C.diagonal()))
    C.eliminate_zeros()
    assert abs(C - h.graphs[lvl]).max() == 0
print("every level equals P^T A P off the diagonal")

# Multilevel partition into 8 parts, and its cut.
parts, info = coarsen.partition(A, 8, return_info=True)
print(f"8 parts: cut {info['cut']:g}, imbalance {info['imbalance']:.3f}")

# Any vector on a coarse level goes back to level 0 through the maps.
coarse = h.levels
x = np.arange(h.graphs[coarse].shape[0]) % 8
print("a level", coarse, "labelling covers", np.unique(h.project(x, coarse)).size, "labels on level 0")

# The level sizes, drawn.
out = sys.argv[1] if len(sys.argv) > 1 else "python_quickstart.png"
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no plot")
else:
    levels = h.stats["levels"]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogy([s["level"] for s in levels], [s["vertices"] for s in levels], "o-", label="vertices")
    ax.semilogy([s["level"] for s in levels], [max(s["edges"], 1) for s in levels], "s-", label="edges")
    ax.set_xlabel("level")
    ax.set_ylabel("count")
    ax.set_title(f"coarsening a {k} x {k} Poisson matrix ({h.stats['device']})")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print("level sizes drawn to", out)
