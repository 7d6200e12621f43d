"""test_convert.py — what becomes a graph and how: from_edge_index and
from_networkx round trips against NumPy and NetworkX, dense and sparse
inputs of every dtype, and the errors of bad inputs (the right exception,
the library's message)."""

import numpy as np
import pytest
import scipy.sparse as sp

import coarsen
from conftest import assert_same_graph, oracle_graph, random_matrix

nx = pytest.importorskip("networkx")


def test_edge_index_round_trip():
    rng = np.random.default_rng(1)
    E = rng.integers(0, 300, size=(2, 2000))
    w = rng.uniform(0.5, 2, size=2000)
    A = coarsen.from_edge_index(E, edge_weight=w)
    M = sp.coo_array((w, (E[0], E[1])), shape=(300, 300))
    assert_same_graph(A, oracle_graph(M))
    # both directions listed, as PyG does for undirected graphs: the edge set comes back
    und = coarsen.from_edge_index(np.hstack([E, E[::-1]]))
    r, c = und.nonzero()
    keep = E[0] != E[1]
    assert set(zip(r.tolist(), c.tolist())) == set(zip(E[0][keep].tolist(), E[1][keep].tolist())) | set(
        zip(E[1][keep].tolist(), E[0][keep].tolist()))
    assert np.all(und.data == 1)
    assert coarsen.from_edge_index(E, num_nodes=500).shape == (500, 500)
    assert coarsen.from_edge_index(np.zeros((2, 0), int)).shape == (0, 0)


def test_edge_index_errors():
    with pytest.raises(ValueError, match=r"shape \(2, E\)"):
        coarsen.from_edge_index(np.zeros((3, 4), int))
    with pytest.raises(ValueError, match="entry 1: \\(7, 0\\) is outside the 5 x 5 matrix"):
        coarsen.from_edge_index(np.array([[0, 7], [1, 0]]), num_nodes=5)
    with pytest.raises(ValueError, match="negative vertex id"):
        coarsen.from_edge_index(np.array([[0, -1], [1, 0]]))
    with pytest.raises(ValueError, match="weights for 2 entries"):
        coarsen.from_edge_index(np.array([[0, 1], [1, 0]]), edge_weight=[1.0])


def test_networkx_round_trip():
    G = nx.les_miserables_graph()
    A = coarsen.from_networkx(G)
    nodes = list(G.nodes)
    back = nx.relabel_nodes(nx.from_scipy_sparse_array(A), dict(enumerate(nodes)))
    assert nx.utils.graphs_equal(nx.Graph(back.edges), nx.Graph(G.edges))
    for u, v, d in G.edges(data=True):
        assert back[u][v]["weight"] == d["weight"]
    # a multigraph's parallel edges are summed, a self-loop dropped, a missing weight is 1
    M = nx.MultiGraph([(0, 1, {"weight": 2}), (1, 0, {"weight": 3}), (1, 2, {}), (2, 2, {"weight": 9})])
    B = coarsen.from_networkx(M).toarray()
    np.testing.assert_array_equal(B, [[0, 5, 0], [5, 0, 1], [0, 1, 0]])
    D = nx.DiGraph([(0, 1, {"w": 2}), (1, 0, {"w": 7})])
    np.testing.assert_array_equal(coarsen.from_networkx(D, weight="w").toarray(), [[0, 7], [7, 0]])
    np.testing.assert_array_equal(coarsen.from_networkx(D, weight=None).toarray(), [[0, 1], [1, 0]])
    with pytest.raises(TypeError, match="from_networkx"):
        coarsen.coarsen(G)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int8, bool, np.complex128])
def test_matrix_dtypes(dtype):
    A = random_matrix(200, 0.05, "signed", 3)
    B = sp.csr_array(A.astype(dtype)) if dtype is not np.complex128 else sp.csr_array(A * (1 + 1j))
    G = coarsen.coarsen(B, levels=0).graphs[0]
    assert_same_graph(G, oracle_graph(B), exact=dtype is not np.complex128)
    if dtype is np.complex128:
        assert_same_graph(G, oracle_graph(A) * np.sqrt(2), exact=False)


def test_explicit_zeros_stay_edges_dense_zeros_do_not():
    A = sp.csr_array((np.array([0.0, 2.0]), np.array([1, 2]), np.array([0, 2, 2, 2])), shape=(3, 3))
    G = coarsen.coarsen(A, levels=0).graphs[0]
    assert G.nnz == 4 and sorted(G.data.tolist()) == [0, 0, 2, 2]
    D = coarsen.coarsen(A.toarray(), levels=0).graphs[0]
    assert D.nnz == 2


def test_bad_inputs_raise_with_the_librarys_message():
    with pytest.raises(ValueError, match="square"):
        coarsen.coarsen(sp.random(3, 4, density=0.5))
    with pytest.raises(ValueError, match="square"):
        coarsen.coarsen(np.zeros((2, 3)))
    nan = sp.csr_array(np.array([[0, np.nan], [1, 0]]))
    with pytest.raises(ValueError, match=r"entry 0 \(0, 1\): weight nan is not a finite number"):
        coarsen.coarsen(nan)
    huge = sp.csr_array(np.array([[0, 1e308], [1e308, 0]]))
    with pytest.raises(ValueError, match="edge weights add up to more than the largest double"):
        coarsen.coarsen(huge)
    A = random_matrix(50, 0.1, "int", 1)
    with pytest.raises(ValueError, match="vertex_weights has shape"):
        coarsen.coarsen(A, vertex_weights=np.ones(49))
    with pytest.raises(ValueError, match="0 .. 2\\^63 - 1"):
        coarsen.coarsen(A, vertex_weights=-np.ones(50, int))
    with pytest.raises(ValueError, match="add up to more than 2\\^63 - 1"):
        coarsen.coarsen(A, vertex_weights=np.full(50, 2**62))
    with pytest.raises(ValueError, match="must be integers"):
        coarsen.coarsen(A, vertex_weights=np.full(50, 0.5))
    for kw in [dict(levels=-1), dict(matcher="metis"), dict(refine="fm"), dict(device="tpu"), dict(ties="x"),
               dict(min_reduction=2), dict(coarsen_to=1.5), dict(max_vertex_weight="big"), dict(seed=-1)]:
        with pytest.raises(ValueError, match=list(kw)[0]):
            coarsen.coarsen(A, **kw)


def test_device_errors_are_device_errors():
    try:
        coarsen.coarsen(random_matrix(100, 0.05, "int", 1), device="gpu")
    except coarsen.DeviceError as e:
        assert "GPU" in str(e) or "CUDA" in str(e)
    else:
        pytest.skip("a GPU is usable here: no error to see")


class _Tensor:
    """What from_edge_index asks of a torch tensor: detach().cpu().numpy()."""

    def __init__(self, a, device="cuda:0"):
        self.a, self.device = np.asarray(a), device

    def detach(self):
        return self

    def cpu(self):
        return _Tensor(self.a, "cpu")

    def numpy(self):
        assert self.device == "cpu"
        return self.a


def test_edge_index_from_a_tensor_on_a_device():
    E = np.array([[0, 1, 2, 3], [1, 2, 3, 0]])
    w = np.array([1.0, 2.0, 3.0, 4.0])
    A = coarsen.from_edge_index(_Tensor(E), edge_weight=_Tensor(w))
    assert_same_graph(A, coarsen.from_edge_index(E, edge_weight=w))
    assert A[[0], [1]][0] == 1 and A[[3], [0]][0] == 4
