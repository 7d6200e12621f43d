"""test_hierarchy.py — coarsen.coarsen() held to independent SciPy
computations: every level is P^T A P of the one before without its
diagonal, vertex weights are P^T w, maps are onto and numbered in order of
first appearance, the statistics count what the matrices hold, level 0 is
the graph SciPy alone makes of the input, projection keeps cuts; on random
and shared graphs, the matchers (HEC, the default, and the matchings), with
and without ROMA; GPU against CPU
where a GPU is usable."""

import inspect

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import coarsen
from conftest import assert_same_graph, galerkin, oracle_graph, random_matrix


def check_hierarchy(h, exact, matching=None):
    """Every property of the module docstring on hierarchy h. matching: the
    levels come from matchings (pairs, numbered by their smallest member);
    HEC's groups are larger and numbered by their leader (None: by the
    matcher h was built with)."""
    graphs, weights, maps, stats = h.graphs, h.vertex_weights, h.maps, h.stats
    if matching is None:
        matching = stats["options"]["matcher"] != "hec"
    assert len(graphs) == len(weights) == h.levels + 1 == len(maps) + 1 == len(stats["levels"])
    for k in range(1, h.levels + 1):
        m, n_fine, n = maps[k - 1], graphs[k - 1].shape[0], graphs[k].shape[0]
        assert m.shape == (n_fine,) and n < n_fine
        ids, first = np.unique(m, return_index=True)
        np.testing.assert_array_equal(ids, np.arange(n))      # onto 0..n_k-1
        if matching:
            assert np.all(np.diff(first) > 0)                  # numbered by smallest member
            assert np.all(np.bincount(m) <= 2)                 # pairs and singletons
        P = h.prolongation(k)
        assert P.shape == (n_fine, n) and P.sum() == n_fine
        assert_same_graph(graphs[k], galerkin(graphs[k - 1], P), exact)
        np.testing.assert_array_equal(weights[k], P.T @ weights[k - 1])
    for k, s in enumerate(stats["levels"]):
        G = graphs[k]
        assert s["vertices"] == G.shape[0] and s["edges"] * 2 == G.nnz
        assert s["total_vertex_weight"] == weights[k].sum()
        assert s["max_vertex_weight"] == (weights[k].max() if G.shape[0] else 0)
        assert s["total_edge_weight"] == pytest.approx(G.sum() / 2, rel=1e-12)
    assert stats["stop_reason"] == h.stop_reason
    assert stats["totals"]["levels"] == h.levels


@pytest.mark.parametrize("weights", ["int", "real", "signed"])
@pytest.mark.parametrize("matcher,refine", [("handshake", None), ("redblue", None), ("handshake", "roma")])
def test_levels_are_galerkin_products_on_random_graphs(weights, matcher, refine):
    for seed in (1, 2):
        A = random_matrix(3000, 0.002, weights, seed)
        h = coarsen.coarsen(A, levels=8, coarsen_to=0, matcher=matcher, refine=refine, seed=seed, device="cpu")
        assert h.levels >= 3
        assert_same_graph(h.graphs[0], oracle_graph(A), exact=True)
        check_hierarchy(h, exact=weights == "int")


@pytest.mark.parametrize("matcher", ["handshake", "hec"])
@pytest.mark.parametrize("rating", ["weight", "expansion", "expansion2"])
def test_hec_and_ratings_give_galerkin_levels_and_reach_the_library(matcher, rating):
    A = random_matrix(3000, 0.002, "int", 5)
    h = coarsen.coarsen(A, levels=6, coarsen_to=0, matcher=matcher, rating=rating, device="cpu")
    assert h.levels >= 3
    check_hierarchy(h, exact=True, matching=matcher != "hec")
    o = h.stats["options"]
    assert (o["matcher"], o["rating"]) == (matcher, rating)


def test_layout_mirrors_match_the_library():
    """The package's ctypes mirrors have the library's sizes (it refuses to
    load otherwise), and an unknown name is 0."""
    from coarsen import _lib
    import ctypes
    for cname, mirror in _lib._MIRRORS.items():
        assert _lib.lib.coarsen_abi_size(cname.encode()) == ctypes.sizeof(mirror), cname
    assert _lib.lib.coarsen_abi_size(b"no_such_struct") == 0


def test_vertex_weights_are_carried_and_capped():
    A = random_matrix(2000, 0.003, "int", 5)
    vw = np.random.default_rng(5).integers(0, 7, size=2000)
    h = coarsen.coarsen(A, vertex_weights=vw, coarsen_to=0, max_vertex_weight=20, device="cpu")
    check_hierarchy(h, exact=True)
    np.testing.assert_array_equal(h.vertex_weights[0], vw)
    # a group (pair) is formed only under the cap; a vertex heavier alone stays alone
    for k in range(1, h.levels + 1):
        heavy = h.vertex_weights[k][np.bincount(h.maps[k - 1]) >= 2]
        assert np.all(heavy <= 20)
    assert h.stats["options"]["max_vertex_weight"] == 20


MTX = ["1138_bus.mtx", "west0067.mtx", "jagmesh7.mtx", "rajat01.mtx", "bcsstk13.mtx.gz", "bcspwr10.mtx"]
GRAPHS = ["4elt.graph", "PGPgiantcompo.graph", "astro-ph.graph.gz", "mdual.graph.gz", "power.graph",
          "kahip_example_weighted.graph"]


@pytest.mark.parametrize("name", MTX)
def test_matrix_market_level0_is_scipys_graph(data_dir, name):
    """The library's reader and SciPy's, then the rules applied by SciPy
    alone, give the same graph; coarsening SciPy's matrix gives the same
    hierarchy as coarsening the file."""
    path = data_dir / name
    M = scipy.io.mmread(str(path))
    if M.shape[0] != M.shape[1]:
        pytest.skip(f"{name} is rectangular")
    A, vw = coarsen.read_graph(path)
    assert_same_graph(A, oracle_graph(M), exact=True)
    assert np.all(vw == 1)
    h1 = coarsen.coarsen(A, coarsen_to=0, device="cpu")
    h2 = coarsen.coarsen(M, coarsen_to=0, device="cpu")
    for a, b in zip(h1.maps, h2.maps):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", GRAPHS + MTX[:3])
def test_levels_are_galerkin_products_on_shared_graphs(data_dir, name):
    A, vw = coarsen.read_graph(data_dir / name)
    h = coarsen.coarsen(A, vertex_weights=vw, levels=10, coarsen_to=0, device="cpu")
    assert h.levels >= 1
    check_hierarchy(h, exact=bool(np.all(A.data == np.floor(A.data))))


def test_projection_carries_parts_and_keeps_the_cut():
    A = random_matrix(4000, 0.0015, "int", 9)
    h = coarsen.coarsen(A, levels=6, coarsen_to=0, device="cpu")
    G0 = h.graphs[0]
    for k in range(h.levels + 1):
        nk = h.graphs[k].shape[0]
        part = np.random.default_rng(k).integers(0, 4, size=nk)
        p0 = h.project(part, k)
        # the map composition, vertex by vertex
        expect = np.empty(G0.shape[0], dtype=part.dtype)
        for v in range(G0.shape[0]):
            c = v
            for m in h.maps[:k]:
                c = m[c]
            expect[v] = part[c]
        np.testing.assert_array_equal(p0, expect)
        Gk = h.graphs[k].tocoo()
        cut_k = Gk.data[part[Gk.row] != part[Gk.col]].sum() / 2
        C0 = G0.tocoo()
        cut_0 = C0.data[p0[C0.row] != p0[C0.col]].sum() / 2
        assert cut_0 == cut_k
    X = np.arange(h.graphs[2].shape[0] * 3).reshape(-1, 3)
    np.testing.assert_array_equal(h.project(X, 2)[:, 1], h.project(X[:, 1], 2))
    with pytest.raises(ValueError, match="level 2 has"):
        h.project(np.zeros(5), 2)


def test_dense_input_and_levels_fed_back():
    D = random_matrix(500, 0.01, "int", 4).toarray()
    h = coarsen.coarsen(D, levels=4, coarsen_to=0, device="cpu")
    hs = coarsen.coarsen(sp.csr_array(D), levels=4, coarsen_to=0, device="cpu")
    for a, b in zip(h.graphs, hs.graphs):
        assert_same_graph(a, b)
    # a level coarsened again continues the same hierarchy (no copy, same seeds per level aside)
    h2 = coarsen.coarsen(h.graphs[2], vertex_weights=h.vertex_weights[2], levels=1, coarsen_to=0, device="cpu")
    assert h2.graphs[0] is h.graphs[2]
    check_hierarchy(h2, exact=True)


def test_views_are_read_only_and_outlive_the_hierarchy():
    h = coarsen.coarsen(random_matrix(800, 0.01, "int", 2), coarsen_to=0, levels=3, device="cpu")
    G, m = h.graphs[2], h.maps[1]
    expect = G.toarray()
    with pytest.raises(ValueError):
        G.data[0] = 5
    del h
    import gc
    gc.collect()
    np.testing.assert_array_equal(G.toarray(), expect)
    assert m.max() == G.shape[0] - 1


def test_python_defaults_are_the_librarys():
    """The signature shows the C defaults (coarsen_hierarchy_opts_default)."""
    from coarsen import _lib
    from ctypes import byref
    o = _lib.HierarchyOpts()
    _lib.lib.coarsen_hierarchy_opts_default(byref(o))
    d = {k: v.default for k, v in inspect.signature(coarsen.coarsen).parameters.items()}
    assert (o.levels, o.coarsen_to, o.min_reduction, o.two_hop_threshold, o.seed, o.gpu_memory_factor) == (
        d["levels"], d["coarsen_to"], d["min_reduction"], d["two_hop_threshold"], d["seed"], d["gpu_memory"])
    assert o.max_vertex_weight == -1 and d["max_vertex_weight"] == "auto"
    assert (o.hashed_ties, o.refine_roma, o.device) == (1, 0, 0)
    assert d["matcher"] is None  # the library's own default (handshake with refine="roma")
    p = _lib.PartitionOpts()
    _lib.lib.coarsen_partition_opts_default(byref(p))
    d = {k: v.default for k, v in inspect.signature(coarsen.partition).parameters.items()}
    assert (p.imbalance, p.max_rounds, p.polish_edges, p.metis_tries, p.seed) == (
        d["imbalance"], d["rounds"], d["polish_edges"], d["metis_tries"], d["seed"])


def test_gpu_hierarchy_equals_cpu():
    A = random_matrix(20000, 0.0003, "int", 3)
    try:
        hg = coarsen.coarsen(A, coarsen_to=0, device="gpu")
    except coarsen.DeviceError as e:
        pytest.skip(f"no usable GPU: {e}")
    hc = coarsen.coarsen(A, coarsen_to=0, device="cpu")
    assert hg.on_gpu and not hc.on_gpu and hg.levels == hc.levels
    for a, b in zip(hg.graphs, hc.graphs):
        assert_same_graph(a, b)
    for a, b in zip(hg.maps, hc.maps):
        np.testing.assert_array_equal(a, b)
    check_hierarchy(hg, exact=True)


def test_roma_refines_a_matching():
    """refine="roma" without a matcher matches by handshake and refines it
    (the matched weight never drops); with hec, which makes groups, it is a
    ValueError naming ROMA."""
    A = random_matrix(2000, 0.004, "real", 3)
    plain = coarsen.coarsen(A, levels=2, coarsen_to=0, matcher="handshake", device="cpu")
    refined = coarsen.coarsen(A, levels=2, coarsen_to=0, refine="roma", device="cpu")
    assert refined.stats["options"]["matcher"] == "handshake"
    assert refined.stats["levels"][1]["matching_weight"] >= plain.stats["levels"][1]["matching_weight"]
    with pytest.raises(ValueError, match="ROMA"):
        coarsen.coarsen(A, levels=2, matcher="hec", refine="roma", device="cpu")
