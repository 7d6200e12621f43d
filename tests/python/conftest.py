"""conftest.py — what the Python tests share: the shared-data folder
(COARSEN_DATA, default ../shared/data; tests on it skip visibly without
it), the `coarsen` program (COARSEN_PROG, else build/coarsen), seeded
random graphs, and the independent oracles the tests hold the package
to: the graph a matrix becomes, computed with SciPy alone, and the
contraction of a level, P^T A P with its diagonal removed."""

import os
import pathlib

import numpy as np
import pytest
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def data_dir():
    d = pathlib.Path(os.environ.get("COARSEN_DATA", ROOT.parent / "shared" / "data"))
    if not d.is_dir():
        pytest.skip(f"shared graphs absent: no folder {d} (set COARSEN_DATA)")
    return d


@pytest.fixture(scope="session")
def prog():
    p = pathlib.Path(os.environ.get("COARSEN_PROG", ROOT / "build" / "coarsen"))
    if not os.access(p, os.X_OK):
        pytest.skip(f"the coarsen program is absent: no {p} (set COARSEN_PROG)")
    return str(p)


def random_matrix(n, density, weights, seed):
    """A random n x n sparse matrix, not symmetric, with a diagonal and
    duplicate-free entries: weights "int" (1..4, many ties), "real"
    ((0, 1]) or "signed" (reals of both signs)."""
    rng = np.random.default_rng(seed)
    A = sp.random(n, n, density=density, format="coo", random_state=rng)
    if weights == "int":
        A.data = rng.integers(1, 5, size=A.nnz).astype(float)
    elif weights == "signed":
        A.data = rng.uniform(-1, 1, size=A.nnz)
    else:
        A.data = 1.0 - A.data * 0.999
    return A.tocsr()


def oracle_graph(M):
    """The graph of square matrix M by the general Matrix Market rules,
    with SciPy alone: duplicates summed, weights |m|, edge {i, j} where
    either (i, j) or (j, i) is stored (explicit zeros included), weight
    max(|m_ij|, |m_ji|), no diagonal. Returns a csr_array with every
    stored entry of that pattern (zeros as explicit entries)."""
    M = sp.coo_array(M)
    M.sum_duplicates()
    n = M.shape[0]
    off = M.row != M.col
    r, c, w = M.row[off], M.col[off], np.abs(M.data[off]).astype(np.float64)
    # each stored (i, j) proposes its weight to {i, j} in both directions; the
    # largest proposal per ordered pair wins
    rows, cols, vals = np.concatenate([r, c]), np.concatenate([c, r]), np.concatenate([w, w])
    key = rows.astype(np.int64) * n + cols
    order = np.lexsort((-vals, key))
    key, vals = key[order], vals[order]
    first = np.ones(key.size, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    key, vals = key[first], vals[first]
    return sp.csr_array((vals, (key // n, key % n)), shape=(n, n))


def galerkin(A, P):
    """P^T A P without its diagonal, keeping coarse edges of weight 0 (the
    weight of a coarse edge is the sum of the fine edges it replaces; an
    imaginary 1 on every fine entry marks which coarse entries have one)."""
    A = sp.csr_array(A)
    Ac = sp.csr_array((A.data + 1j, A.indices, A.indptr), shape=A.shape)
    C = sp.csr_array(P.T @ Ac @ P)
    C = sp.csr_array(C - sp.diags_array(C.diagonal()))
    C.eliminate_zeros()
    C.sort_indices()
    return sp.csr_array((C.data.real, C.indices, C.indptr), shape=C.shape)


def assert_same_graph(A, B, exact=True):
    """A and B have the same pattern and weights (reals to 1e-12
    relative when not exact)."""
    A, B = sp.csr_array(A), sp.csr_array(B)
    assert A.shape == B.shape
    A.sort_indices()
    B.sort_indices()
    np.testing.assert_array_equal(A.indptr, B.indptr)
    np.testing.assert_array_equal(A.indices, B.indices)
    if exact:
        np.testing.assert_array_equal(A.data, B.data)
    else:
        np.testing.assert_allclose(A.data, B.data, rtol=1e-12, atol=0)
