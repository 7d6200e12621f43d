"""_match.py — match(): one matching of a graph (coarsen_match), as
`coarsen match` computes it."""

from ctypes import byref

import numpy as np

from . import _graph, _lib
from ._hierarchy import _count


def match(A, matcher="handshake", refine=None, ties="hashed", max_vertex_weight=0, seed=1, device="auto",
          vertex_weights=None):
    """A matching of A's graph (A as for coarsen()): an int32 array whose
    entry v is v's partner, or -1 when v is unmatched.

    matcher: "handshake" or "redblue". refine: None or "roma" (ROMA
    2-augmentations afterwards). ties: "hashed" (as `coarsen match`
    and the hierarchy) or "id". max_vertex_weight: > 0 forbids pairs whose vertex weights sum
    above it (0: no cap). seed: red/blue's colouring and hashed ties.
    device: "auto", "cpu" or "gpu" (the same mates on both)."""
    o = _lib.MatchOpts()
    _lib.lib.coarsen_match_opts_default(byref(o))
    o.matcher = _lib.enum(_lib.MATCHERS, "matcher", matcher)
    o.refine_roma = _lib.enum({None: 0, "none": 0, "roma": 1}, "refine", refine)
    o.hashed_ties = _lib.enum({"hashed": 1, "id": 0}, "ties", ties)
    o.max_vertex_weight = _count("max_vertex_weight", max_vertex_weight, 0, 2**63 - 1)
    o.seed = _count("seed", seed, 0, 2**64 - 1)
    o.device = _lib.enum(_lib.DEVICES, "device", device)
    g, borrowed = _graph.c_graph(A, vertex_weights)
    mate = np.empty(g.n, dtype=np.int32)
    st = _lib.MatchStats()
    err = _lib.Error()
    _lib.check(_lib.lib.coarsen_match(byref(g), byref(o), mate.ctypes.data, byref(st), byref(err)), err)
    return mate
