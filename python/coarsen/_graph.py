"""_graph.py — graphs between Python and the library.

Every graph the library makes (read from a file, built from entries, a level
of a hierarchy) is handed to Python without a copy: its CSR arrays become
read-only NumPy views of the C memory, wrapped in a scipy.sparse.csr_array
(int32 row offsets are the one copy, n + 1 entries, while the entries fit;
SciPy wants both index arrays of one type), and the C memory is freed when
the last view of it is gone. Such a matrix remembers where it came from, so
passing it back (coarsening a level again, coarsening what read_graph
returned) costs no conversion either.

Anything else — a SciPy sparse matrix or array, a dense NumPy array, an
edge_index, a NetworkX graph — is turned into a graph by the library
(coarsen_graph_from_entries) with the rules of a general Matrix Market file
(docs/formats.md): diagonal dropped, duplicate entries summed, weights |w|,
the edge {i, j} weighing max(|a_ij|, |a_ji|) over the entries present,
explicit zeros kept as edges of weight 0."""

import ctypes
from ctypes import POINTER, byref, c_int64

import numpy as np
import scipy.sparse as sp

from . import _lib

_INT32_MAX = 2**31 - 1
_INT64_MAX = 2**63 - 1


class Owner:
    """Frees a C object (a graph, a hierarchy) once no view of its memory is
    left; keep holds what the C object borrows from Python."""

    def __init__(self, ptr, free, keep=()):
        self.ptr, self._free, self.keep = ptr, free, keep

    def __del__(self):
        if self.ptr:
            self._free(self.ptr)
            self.ptr = None


class _Memory:
    """The array interface of C memory; as an array's base it keeps the
    owner of that memory alive."""

    def __init__(self, owner, addr, n, typestr):
        self.owner = owner
        self.__array_interface__ = {"shape": (n,), "typestr": typestr, "data": (addr, True), "version": 3}


def view(owner, ptr, n, dtype):
    """A read-only array of n dtype items at C pointer ptr, owned by owner."""
    if n == 0:
        a = np.empty(0, dtype)
        a.flags.writeable = False
        return a
    return np.asarray(_Memory(owner, ctypes.cast(ptr, ctypes.c_void_p).value, n, np.dtype(dtype).str))


class Source:
    """The C arrays of a graph the library made and the csr_array viewing
    them: its row offsets (int64, as the library wants them), adjacency and
    edge weights, valid while owner lives."""

    def __init__(self, owner, g, matrix):
        self.owner, self.matrix = owner, matrix
        self.n, self.nnz, self.integral = g.n, g.nnz, g.integral_weights
        self.xadj, self.adj, self.ewgt = g.xadj, g.adj, g.ewgt
        self.arrays = (matrix.data, matrix.indices, matrix.indptr)

    def unchanged(self, A):
        """True while A still holds the very arrays it was made with."""
        return all(x is y for x, y in zip((A.data, A.indices, A.indptr), self.arrays))


def wrap(owner, g):
    """(csr_array, vertex weights) viewing host graph g (a Graph struct),
    whose memory owner keeps."""
    n, nnz = g.n, g.nnz
    xadj = view(owner, g.xadj, n + 1, np.int64)
    indptr = xadj
    if nnz <= _INT32_MAX:
        indptr = xadj.astype(np.int32)
        indptr.flags.writeable = False
    A = sp.csr_array((view(owner, g.ewgt, nnz, np.float64), view(owner, g.adj, nnz, np.int32), indptr),
                     shape=(n, n), copy=False)
    A.has_sorted_indices = True
    A.has_canonical_format = True
    A._coarsen_source = Source(owner, g, A)
    return A, view(owner, g.vwgt, n, np.int64)


def from_entries(n, row, col, weight=None):
    """The graph of the entries (row[e], col[e], weight[e]) of an n x n
    matrix (weight None: 1 each), as a csr_array the library owns."""
    if n > _INT32_MAX:
        raise ValueError(f"{n} vertices: the library holds at most 2^31 - 1")
    row, col = _ids(row), _ids(col)
    if row.shape != col.shape or row.ndim != 1:
        raise ValueError(f"rows and columns of the entries differ in shape: {row.shape} and {col.shape}")
    if weight is not None:
        weight = np.asarray(weight)
        if np.iscomplexobj(weight):
            weight = np.abs(weight)
        weight = np.ascontiguousarray(weight, dtype=np.float64)
        if weight.shape != row.shape:
            raise ValueError(f"{weight.shape[0] if weight.ndim else 1} weights for {row.shape[0]} entries")
    gp = POINTER(_lib.Graph)()
    err = _lib.Error()
    rc = _lib.lib.coarsen_graph_from_entries(n, row.shape[0], row.ctypes.data, col.ctypes.data,
                                             None if weight is None else weight.ctypes.data, None, byref(gp),
                                             byref(err))
    _lib.check(rc, err)
    return wrap(Owner(gp, _lib.lib.coarsen_graph_free), gp.contents)[0]


def _ids(a):
    """Vertex ids as contiguous int32 (the library checks their range)."""
    a = np.asarray(a)
    if a.size and a.dtype.kind not in "iu":
        raise ValueError(f"vertex ids must be integers, not {a.dtype}")
    if a.size and a.dtype.itemsize >= 4 and (a.min() < -_INT32_MAX or a.max() > _INT32_MAX):
        raise ValueError(f"vertex id {a.max() if a.max() > _INT32_MAX else a.min()} is outside the library's "
                         "range of 2^31 - 1 vertices")
    return np.ascontiguousarray(a, dtype=np.int32)


def as_matrix(A):
    """A as a csr_array the library made: A itself when it is one, else the
    graph of a SciPy sparse matrix or array or of a dense array."""
    src = getattr(A, "_coarsen_source", None)
    if src is not None and src.unchanged(A):
        return A
    if sp.issparse(A):
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise ValueError(f"the matrix is {' x '.join(map(str, A.shape))}: a graph needs a square matrix")
        coo = A.tocoo()
        return from_entries(A.shape[0], coo.row, coo.col, coo.data)
    if hasattr(A, "nodes") and hasattr(A, "edges"):
        raise TypeError("a NetworkX graph goes through coarsen.from_networkx(G) (it fixes the vertex order)")
    D = np.asarray(A)
    if D.dtype == object or D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError(f"expected a square matrix (SciPy sparse or dense NumPy), got {type(A).__name__} of shape "
                         f"{D.shape}")
    r, c = np.nonzero(D)
    return from_entries(D.shape[0], r, c, D[r, c])


def vertex_weights_array(vertex_weights, n):
    """vertex_weights as n int64 weights >= 0 whose sum fits int64 (None:
    1 each), contiguous for the library."""
    if vertex_weights is None:
        return np.ones(n, dtype=np.int64)
    w = np.asarray(vertex_weights)
    if w.shape != (n,):
        raise ValueError(f"vertex_weights has shape {w.shape}, the graph {n} vertices")
    if w.dtype.kind == "f" and not np.all(np.isfinite(w) & (w == np.floor(w))):
        raise ValueError("vertex_weights must be integers")
    if w.dtype.kind not in "iuf" and w.dtype != bool:
        raise ValueError(f"vertex_weights must be integers, not {w.dtype}")
    if n and (w.min() < 0 or w.max() > _INT64_MAX):
        raise ValueError("vertex_weights must lie in 0 .. 2^63 - 1")
    w = np.ascontiguousarray(w, dtype=np.int64)
    if n and int(w.max()) > _INT64_MAX // n and sum(int(x) for x in w) > _INT64_MAX:
        raise ValueError("the vertex weights add up to more than 2^63 - 1, which the sums of coarse vertices need "
                         "to hold: scale them down")
    return w


def c_graph(A, vertex_weights=None):
    """(Graph struct, what it borrows): A's graph with the given vertex
    weights, for the library to read (the hierarchy keeps it as level 0)."""
    M = as_matrix(A)
    src = M._coarsen_source
    vw = vertex_weights_array(vertex_weights, src.n)
    g = _lib.Graph(src.n, src.nnz, src.xadj, src.adj, src.ewgt, vw.ctypes.data_as(POINTER(c_int64)), src.integral,
                   0)
    return g, (M, vw)


def from_edge_index(edge_index, num_nodes=None, edge_weight=None):
    """The graph of a 2 x E edge list (PyTorch Geometric's edge_index, a NumPy
    array or a torch tensor), num_nodes vertices (default: the largest id
    + 1), edge_weight[e] the weight of edge e (default 1). Both directions
    may be listed; the rules of coarsen_graph_from_entries apply (weights
    max(|w_ij|, |w_ji|), a repeated (i, j) summed, self-loops dropped).
    Returns a read-only scipy.sparse.csr_array the library owns."""
    ei = _numpy(edge_index)
    if ei.ndim != 2 or ei.shape[0] != 2:
        raise ValueError(f"edge_index must have shape (2, E), not {ei.shape}")
    if ei.size and ei.min() < 0:
        raise ValueError(f"edge_index holds the negative vertex id {ei.min()}")
    n = int(ei.max()) + 1 if num_nodes is None and ei.size else int(num_nodes or 0)
    w = None if edge_weight is None else _numpy(edge_weight).reshape(-1)
    return from_entries(n, ei[0], ei[1], w)


def from_networkx(G, weight="weight"):
    """The graph of a NetworkX graph: vertex i is the i-th node of G.nodes,
    edge weights from the attribute weight (1 where missing; weight=None:
    1 each), parallel edges of a multigraph summed, self-loops dropped,
    directed edges symmetrised by the maximum. Returns a read-only
    scipy.sparse.csr_array the library owns."""
    import networkx as nx
    return as_matrix(nx.to_scipy_sparse_array(G, weight=weight, format="coo"))


def _numpy(x):
    """A NumPy array of x, a torch tensor (on any device) included."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        x = x.detach().cpu().numpy()
    return np.asarray(x)
