"""coarsen — GPU graph coarsening from Python, on the shared library
libcoarsen.so (docs/python.md).

    import coarsen, scipy.sparse as sp
    h = coarsen.coarsen(A, levels=5)       # A: SciPy sparse, dense NumPy, or from_*()
    h.graphs, h.vertex_weights, h.maps     # levels 0..L, zero-copy
    P = h.prolongation(1)                  # h.graphs[1] == P.T @ h.graphs[0] @ P off the diagonal
    parts = coarsen.partition(A, 8)
"""

from ._graph import from_edge_index, from_networkx
from ._hierarchy import Hierarchy, coarsen
from ._io import read_graph, write_graph
from ._lib import DeviceError
from ._lib import path as library_path
from ._lib import version as __version__
from ._match import match
from ._partition import partition

__all__ = ["coarsen", "Hierarchy", "partition", "match", "read_graph", "write_graph", "from_edge_index",
           "from_networkx", "DeviceError", "library_path", "__version__"]
