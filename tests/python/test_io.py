"""test_io.py — read_graph and write_graph: round trips through every
format, plain and gzip, against the matrix written; the library's errors
as OSError and ValueError with its messages."""

import gzip

import numpy as np
import pytest

import coarsen
from conftest import assert_same_graph, oracle_graph, random_matrix


@pytest.mark.parametrize("name", ["g.graph", "g.graph.gz", "g.mtx", "g.mtx.gz", "g.parhip", "g.bin"])
def test_round_trips(tmp_path, name):
    A = random_matrix(700, 0.01, "int", 6)
    vw = np.random.default_rng(6).integers(0, 9, size=700)
    mtx = ".mtx" in name
    fmt = "metis" if name == "g.bin" else None
    coarsen.write_graph(tmp_path / name, A, vertex_weights=None if mtx else vw, format=fmt)
    B, w = coarsen.read_graph(tmp_path / name)
    assert_same_graph(B, oracle_graph(A))
    np.testing.assert_array_equal(w, 1 if mtx else vw)
    if name.endswith(".gz"):
        assert gzip.open(tmp_path / name).read(1)


def test_real_weights(tmp_path):
    A = random_matrix(300, 0.02, "real", 2)
    coarsen.write_graph(tmp_path / "r.mtx", A)
    assert_same_graph(coarsen.read_graph(tmp_path / "r.mtx")[0], oracle_graph(A))
    with pytest.raises(ValueError, match="real edge weights and METIS stores integers"):
        coarsen.write_graph(tmp_path / "r.graph", A)
    assert not (tmp_path / "r.graph").exists()
    coarsen.write_graph(tmp_path / "r.graph", A, weight_scale=1000)
    B = coarsen.read_graph(tmp_path / "r.graph")[0]
    G = oracle_graph(A)
    np.testing.assert_array_equal(B.data, np.rint(G.data * 1000))


def test_errors(tmp_path):
    with pytest.raises(OSError, match="nothing-here.graph"):
        coarsen.read_graph(tmp_path / "nothing-here.graph")
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n3 3 1\n1 9 1.0\n")
    with pytest.raises(ValueError, match=r"bad.mtx:3:"):
        coarsen.read_graph(bad)
    A = random_matrix(20, 0.2, "int", 1)
    with pytest.raises(ValueError, match="no format given"):
        coarsen.write_graph(tmp_path / "x.txt", A)
    with pytest.raises(ValueError, match="format"):
        coarsen.write_graph(tmp_path / "x.txt", A, format="csv")
    with pytest.raises(ValueError, match="holds no vertex weights"):
        coarsen.write_graph(tmp_path / "x.mtx", A, vertex_weights=np.full(20, 2))
    with pytest.raises(OSError, match="no-such-dir"):
        coarsen.write_graph(tmp_path / "no-such-dir" / "x.graph", A)
