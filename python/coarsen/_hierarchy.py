"""_hierarchy.py — coarsen(): the coarsening hierarchy of a graph
(coarsen_hierarchy_build) and the Hierarchy object that hands out its
levels, vertex weights and maps as zero-copy NumPy/SciPy views, the
prolongation matrices, projection back to level 0 and the statistics of
stats.json."""

import json
import os
import tempfile
import threading
from ctypes import POINTER, byref, c_int32, c_void_p

import numpy as np
import scipy.sparse as sp

from . import _graph, _lib


def coarsen(A, levels=10, matcher=None, refine=None, coarsen_to=1000, min_reduction=0.05,
            max_vertex_weight="auto", two_hop_threshold=0.25, ties="hashed", gpu_memory=0.0, device="auto", seed=1,
            vertex_weights=None, rating=None, vertex_weight_factor=None, two_hop_relatives=None):
    """Builds the coarsening hierarchy of A, as `coarsen` does with the same
    options (docs/pipeline.md): level by level a matching, two-hop pairing
    when the matching stalls, contraction.

    A: a SciPy sparse matrix or array (square; turned into a graph by the
    rules of a general Matrix Market file: diagonal dropped, duplicates
    summed, weights |a|, edge {i, j} weighing max(|a_ij|, |a_ji|)), a dense
    NumPy array (zeros are not edges), or what from_edge_index,
    from_networkx, read_graph or an earlier hierarchy's graphs returned (used
    as they are, without a copy).
    levels: at most this many contractions. matcher: "hec" (heavy-edge
    clustering), "handshake" or "redblue" (None: the library's default,
    hec, or handshake with refine="roma", which refines a matching). rating: what handshake and
    hec maximise, "weight", "expansion" or "expansion2" (None: the
    library's default, expansion2). refine: None or "roma" (ROMA 2-augmentations on every
    level's matching). coarsen_to: stop once a level has at most this many
    vertices (0: never). min_reduction: stop after a level that keeps more
    than (1 - min_reduction) of its vertices. max_vertex_weight: "auto"
    (per level, the larger of METIS's 1.5 * total / coarsen_to and
    vertex_weight_factor times the level's average vertex weight; None: the
    library's factor, 3), 0 (no cap) or a cap.
    two_hop_threshold: pair unmatched leaves and twins when more than this
    fraction of a level stays unmatched; two_hop_relatives: then pair
    vertices sharing their heaviest neighbour when more than this fraction
    still is (None: the library's 0.25). ties: "hashed" or "id".
    gpu_memory: GPU backend, keep device memory under this many times the
    input CSR (0: only when the device runs out). device: "auto", "cpu" or
    "gpu". seed: of every randomised step. vertex_weights: n integers >= 0
    (default 1 each).

    The GIL is released while the library works; Ctrl-C stops the build at
    the next level and raises KeyboardInterrupt."""
    o = _lib.HierarchyOpts()
    _lib.lib.coarsen_hierarchy_opts_default(byref(o))
    o.levels = _count("levels", levels, 0, 2**31 - 1)
    if matcher is None and refine == "roma":
        matcher = "handshake"  # ROMA refines a matching
    if matcher is not None:
        o.matcher = _lib.enum(_lib.MATCHERS, "matcher", matcher)
    if rating is not None:
        o.rating = _lib.enum(_lib.RATINGS, "rating", rating)
    if vertex_weight_factor is not None:
        o.max_vertex_weight_factor = _fraction("vertex_weight_factor", vertex_weight_factor, 2, float("inf"))
    if two_hop_relatives is not None:
        o.two_hop_relatives = _fraction("two_hop_relatives", two_hop_relatives, 0, float("inf"))
    o.refine_roma = _lib.enum({None: 0, "none": 0, "roma": 1}, "refine", refine)
    o.coarsen_to = _count("coarsen_to", coarsen_to, 0, 2**31 - 1)
    o.min_reduction = _fraction("min_reduction", min_reduction, 0, 1)
    o.max_vertex_weight = -1 if isinstance(max_vertex_weight, str) and max_vertex_weight == "auto" else _count(
        "max_vertex_weight", max_vertex_weight, 0, 2**63 - 1)
    o.two_hop_threshold = _fraction("two_hop_threshold", two_hop_threshold, 0, float("inf"))
    o.hashed_ties = _lib.enum({"hashed": 1, "id": 0}, "ties", ties)
    o.gpu_memory_factor = _fraction("gpu_memory", gpu_memory, 0, float("inf"))
    o.device = _lib.enum(_lib.DEVICES, "device", device)
    o.seed = _count("seed", seed, 0, 2**64 - 1)
    g, borrowed = _graph.c_graph(A, vertex_weights)
    hp = c_void_p()
    err = _lib.Error()
    rc, interrupted = _lib.interruptible(_lib.lib.coarsen_hierarchy_build, byref(g), byref(o), byref(hp), byref(err))
    owner = _graph.Owner(hp.value, _lib.lib.coarsen_hierarchy_free, (g, borrowed)) if hp.value else None
    if interrupted:
        raise KeyboardInterrupt
    _lib.check(rc, err)
    return Hierarchy(owner, borrowed)


def _count(name, v, lo, hi):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise ValueError(f"{name}: {v!r} is not an integer in [{lo}, {hi}]")
    return int(v)


def _fraction(name, v, lo, hi):
    try:
        x = float(v)
    except (TypeError, ValueError):
        x = float("nan")
    if isinstance(v, (bool, str)) or not lo <= x <= hi:
        raise ValueError(f"{name}: {v!r} is not a number in [{lo}, {hi}]")
    return x


class Hierarchy:
    """Levels 0..L of a coarsening: graphs[k] (scipy.sparse.csr_array, level
    0 = the input as the library sees it), vertex_weights[k] (int64),
    maps[k-1][i] = the level-k vertex of level-(k-1) vertex i (int32), all
    read-only views of the library's memory (copy them to modify), which
    lives as long as any of them or this object. On the GPU backend levels
    and maps are downloaded on first access."""

    def __init__(self, owner, borrowed):
        self._owner, self._h = owner, owner.ptr
        self._level0, self._vw0 = borrowed
        self._lock = threading.Lock()  # the library caches downloads: one caller at a time
        self._graphs = self._weights = self._maps = self._stats = None
        lib = _lib.lib
        self.levels = lib.coarsen_hierarchy_levels(self._h)
        self.stop_reason = lib.coarsen_stop_reason_name(lib.coarsen_hierarchy_stop_reason(self._h)).decode()
        self.on_gpu = bool(lib.coarsen_hierarchy_on_gpu(self._h))
        self.total_ms = lib.coarsen_hierarchy_total_ms(self._h)

    def _fetch(self):
        with self._lock:
            if self._graphs is not None:
                return
            err = _lib.Error()
            graphs, weights, maps = [self._level0], [self._vw0], []
            for k in range(1, self.levels + 1):
                gp = POINTER(_lib.Graph)()
                _lib.check(_lib.lib.coarsen_hierarchy_graph(self._h, k, byref(gp), byref(err)), err)
                A, vw = _graph.wrap(self._owner, gp.contents)
                graphs.append(A)
                weights.append(vw)
                mp = POINTER(c_int32)()
                _lib.check(_lib.lib.coarsen_hierarchy_map(self._h, k, byref(mp), byref(err)), err)
                maps.append(_graph.view(self._owner, mp, graphs[k - 1].shape[0], np.int32))
            self._graphs, self._weights, self._maps = graphs, weights, maps

    @property
    def graphs(self):
        self._fetch()
        return list(self._graphs)

    @property
    def vertex_weights(self):
        self._fetch()
        return list(self._weights)

    @property
    def maps(self):
        self._fetch()
        return list(self._maps)

    def prolongation(self, k):
        """P, the n_{k-1} x n_k 0/1 matrix with P[i, maps[k-1][i]] = 1 (k in
        1..L): graphs[k] equals P.T @ graphs[k-1] @ P without its diagonal,
        and P @ x carries a level-k vector x to level k-1."""
        if not 1 <= k <= self.levels:
            raise ValueError(f"prolongation {k}: levels 1..{self.levels}")
        self._fetch()
        m = self._maps[k - 1]
        n = m.shape[0]
        return sp.csr_array((np.ones(n), m, np.arange(n + 1, dtype=m.dtype)),
                            shape=(n, self._graphs[k].shape[0]))

    def project(self, x, level):
        """Carries x, a vector (or array of rows) of level `level`, such as a
        partition, to level 0: entry i of the result is x at the coarse
        vertex that vertex i of level 0 belongs to."""
        if not 0 <= level <= self.levels:
            raise ValueError(f"level {level}: levels 0..{self.levels}")
        self._fetch()
        x = np.asarray(x)
        n = self._graphs[level].shape[0]
        if x.ndim == 0 or x.shape[0] != n:
            raise ValueError(f"x has {x.shape[0] if x.ndim else 0} rows, level {level} has {n} vertices")
        if level == 0:
            return x.copy()
        idx = self._maps[0]
        for m in self._maps[1:level]:
            idx = m[idx]
        return x[idx]

    @property
    def stats(self):
        """What stats.json holds (docs/pipeline.md): version, device, options,
        stop reason, totals and one entry per level; "command_line" and
        "input" are None, and there are no "phases"."""
        with self._lock:
            if self._stats is None:
                err = _lib.Error()
                with tempfile.TemporaryDirectory(prefix="coarsen-stats-") as d:
                    path = os.path.join(d, "stats.json")
                    _lib.check(_lib.lib.coarsen_hierarchy_write_stats(self._h, path.encode(), byref(err)), err)
                    with open(path) as f:
                        self._stats = json.load(f)
            return json.loads(json.dumps(self._stats))

    def __len__(self):
        return self.levels + 1

    def __repr__(self):
        sizes = " -> ".join(str(s["vertices"]) for s in self.stats["levels"])
        return f"<coarsen.Hierarchy: {self.levels} levels, {sizes} vertices, stopped by {self.stop_reason}>"
