"""_io.py — read_graph() and write_graph(): the library's readers and
writers (Matrix Market, METIS, ParHIP binary; gzip; docs/formats.md)."""

import os
from ctypes import POINTER, byref

from . import _graph, _lib


def read_graph(path):
    """Reads a Matrix Market, METIS or ParHIP graph file (format from the
    content or a .parhip/.bgf name, gzip by its magic bytes) into
    (csr_array, vertex weights): read-only views of the graph the library
    read, no copy. OSError when the file cannot be read, ValueError when it
    is malformed, both with the library's one-line message."""
    gp = POINTER(_lib.Graph)()
    err = _lib.Error()
    _lib.check(_lib.lib.coarsen_graph_load(os.fsencode(path), byref(gp), None, byref(err)), err)
    return _graph.wrap(_graph.Owner(gp, _lib.lib.coarsen_graph_free), gp.contents)


_EXTENSIONS = {".graph": "metis", ".metis": "metis", ".mtx": "mtx", ".parhip": "parhip", ".bgf": "parhip"}


def write_graph(path, A, vertex_weights=None, format=None, weight_scale=0.0):
    """Writes A's graph (A as for coarsen()) to path: format "metis", "mtx"
    or "parhip" (default: from the name, .graph/.metis, .mtx, .parhip/.bgf,
    before a final .gz), gzip when path ends in .gz; atomically (a failure
    leaves no partial file). METIS and ParHIP hold integer weights: real
    ones need weight_scale > 0 (written as round(w * weight_scale)).
    Matrix Market holds no vertex weights: non-unit ones are refused there."""
    name = os.fsdecode(path)
    if format is None:
        stem = name[:-3] if name.lower().endswith(".gz") else name
        format = _EXTENSIONS.get(os.path.splitext(stem)[1].lower())
        if format is None:
            raise ValueError(f"{name}: no format given and none implied by the name (.graph, .mtx, .parhip)")
    fmt = _lib.enum(_lib.FORMATS, "format", format)
    g, borrowed = _graph.c_graph(A, vertex_weights)
    if format == "mtx" and vertex_weights is not None and (borrowed[1] != 1).any():
        raise ValueError(f"{name}: Matrix Market holds no vertex weights: write METIS or ParHIP")
    err = _lib.Error()
    rc, interrupted = _lib.interruptible(_lib.lib.coarsen_graph_write, byref(g), os.fsencode(path), fmt,
                                         float(weight_scale), byref(err))
    if interrupted:
        raise KeyboardInterrupt
    _lib.check(rc, err)
