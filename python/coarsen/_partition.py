"""_partition.py — partition(): multilevel k-way partitioning
(coarsen_partition), as `coarsen partition` runs it."""

from ctypes import byref

import numpy as np

from . import _graph, _lib
from ._hierarchy import _count, _fraction


def partition(A, k, imbalance=0.03, seed=1, device="auto", matcher="handshake", ties="hashed", recursive=None,
              rounds=16, coarsen_to=None, polish_edges=2**21, metis_tries=0, vertex_weights=None,
              return_info=False):
    """Partitions A's graph (A as for coarsen()) into k parts: an int32 array
    of part ids 0..k-1, every part weighing at most (1 + imbalance) * total
    / k (loosened to ceil(total / k) + heaviest vertex - 1 when that is
    larger). The hierarchy, METIS on its coarsest graph, then level by level
    projection, rebalancing and refinement (docs/partitioning.md).

    recursive: True for METIS recursive bisection only on the coarsest graph,
    False for k-way only (default None: both, each refined there, the lower
    cut kept). rounds: refinement rounds per level. coarsen_to: coarsen until
    this many vertices (default max(40 k, 400)). polish_edges: FM polish at
    the levels of at most this many edges (< 0: none). metis_tries: METIS runs
    of each kind on the coarsest graph, the lowest refined cut kept (0: k-way
    4 times for k <= 8, else once; recursive bisection 4 times). return_info:
    also return a dict with cut, imbalance, cap, levels, on_gpu and total_ms.
    Ctrl-C stops it while it coarsens."""
    o = _lib.PartitionOpts()
    _lib.lib.coarsen_partition_opts_default(byref(o))
    o.k = _count("k", k, 1, 2**31 - 1)
    o.imbalance = _fraction("imbalance", imbalance, 0, 1e6)
    o.seed = _count("seed", seed, 0, 2**64 - 1)
    o.recursive = 0 if recursive is None else 1 if recursive else 2
    o.max_rounds = _count("rounds", rounds, 0, 1000000)
    o.polish_edges = _count("polish_edges", polish_edges, -1, 2**63 - 1)
    o.metis_tries = _count("metis_tries", metis_tries, 0, 1000)
    o.hierarchy.device = _lib.enum(_lib.DEVICES, "device", device)
    o.hierarchy.matcher = _lib.enum(_lib.MATCHERS, "matcher", matcher)
    o.hierarchy.hashed_ties = _lib.enum({"hashed": 1, "id": 0}, "ties", ties)
    if coarsen_to is not None:
        o.hierarchy.coarsen_to = _count("coarsen_to", coarsen_to, 1, 2**31 - 1)
    g, borrowed = _graph.c_graph(A, vertex_weights)
    part = np.empty(g.n, dtype=np.int32)
    info = _lib.PartitionInfo()
    err = _lib.Error()
    rc, interrupted = _lib.interruptible(_lib.lib.coarsen_partition, byref(g), byref(o), part.ctypes.data,
                                         byref(info), byref(err))
    if interrupted:
        raise KeyboardInterrupt
    _lib.check(rc, err)
    if return_info:
        return part, {name: getattr(info, name) for name, _ in _lib.PartitionInfo._fields_}
    return part
