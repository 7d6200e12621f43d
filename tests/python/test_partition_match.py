"""test_partition_match.py — partition() and match() against independent
recounts: every part within the cap computed here, the cut recounted with
SciPy and equal to what the library reports; mates form a valid matching
of edges, maximal for handshake, at least half the weight NetworkX's exact
maximum-weight matching finds, never heavier than it."""

import numpy as np
import pytest

import coarsen
from conftest import oracle_graph, random_matrix

nx = pytest.importorskip("networkx")


def cut_of(G, part):
    C = G.tocoo()
    return C.data[part[C.row] != part[C.col]].sum() / 2


@pytest.mark.parametrize("k,imbalance", [(2, 0.03), (8, 0.03), (5, 0.2)])
def test_partition_is_balanced_and_cuts_what_it_says(k, imbalance):
    A = random_matrix(6000, 0.0008, "int", k)
    vw = np.random.default_rng(k).integers(1, 4, size=6000)
    part, info = coarsen.partition(A, k, imbalance=imbalance, vertex_weights=vw, device="cpu", return_info=True)
    assert part.shape == (6000,) and part.min() >= 0 and part.max() < k
    W = np.bincount(part, weights=vw, minlength=k)
    cap = max(np.floor((1 + imbalance) * vw.sum() / k), np.ceil(vw.sum() / k) + vw.max() - 1)
    assert info["cap"] == cap and W.max() <= cap
    G = oracle_graph(A)
    assert info["cut"] == cut_of(G, part)
    assert info["imbalance"] == pytest.approx(W.max() / (vw.sum() / k))
    # far better than a random assignment
    rnd = np.random.default_rng(0).integers(0, k, size=6000)
    assert info["cut"] < 0.7 * cut_of(G, rnd)


def test_partition_errors():
    A = random_matrix(100, 0.05, "int", 1)
    with pytest.raises(ValueError, match="k = 101: the number of parts must be in 1..100"):
        coarsen.partition(A, 101)
    with pytest.raises(ValueError, match="imbalance"):
        coarsen.partition(A, 2, imbalance=-0.1)


@pytest.mark.parametrize("kw", [{}, {"matcher": "redblue"}, {"refine": "roma"}, {"ties": "hashed"}])
def test_match_is_a_matching_of_edges(kw):
    for seed in range(3):
        A = random_matrix(60, 0.06, "int", seed)
        G = oracle_graph(A)
        mate = coarsen.match(A, device="cpu", seed=seed + 1, **kw)
        v = np.flatnonzero(mate >= 0)
        np.testing.assert_array_equal(mate[mate[v]], v)
        assert np.all(G[v, mate[v]] != 0) if v.size else True
        weight = sum(G[u, mate[u]] for u in v if u < mate[u])
        nxg = nx.from_scipy_sparse_array(G)
        best = sum(nxg[u][w]["weight"] for u, w in nx.max_weight_matching(nxg))
        assert 0.5 * best <= weight <= best
        if kw.get("matcher", "handshake") == "handshake":
            free = mate < 0
            C = G.tocoo()
            assert not np.any(free[C.row] & free[C.col])  # maximal


def test_match_respects_the_cap():
    A = random_matrix(400, 0.03, "int", 3)
    vw = np.random.default_rng(3).integers(1, 6, size=400)
    mate = coarsen.match(A, vertex_weights=vw, max_vertex_weight=6, device="cpu")
    v = np.flatnonzero(mate >= 0)
    assert v.size and np.all(vw[v] + vw[mate[v]] <= 6)


def test_gpu_match_and_partition_equal_cpu():
    A = random_matrix(20000, 0.0003, "int", 5)
    try:
        gpu_mate = coarsen.match(A, refine="roma", device="gpu")
    except coarsen.DeviceError as e:
        pytest.skip(f"no usable GPU: {e}")
    np.testing.assert_array_equal(gpu_mate, coarsen.match(A, refine="roma", device="cpu"))
    gpu, info = coarsen.partition(A, 4, device="gpu", return_info=True)
    assert info["on_gpu"]
    np.testing.assert_array_equal(gpu, coarsen.partition(A, 4, device="cpu"))
