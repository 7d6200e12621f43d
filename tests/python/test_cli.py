"""test_cli.py — the package gives what the `coarsen` program gives for the
same options and seed: every level file (read by a METIS parser of this
test's own), map and stats.json figure of `coarsen --out`, the mates of
`coarsen match -o`, the parts of `coarsen partition --out`."""

import json
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

import coarsen
from conftest import assert_same_graph, random_matrix


def read_metis(path):
    """(csr_array, vertex weights) of a METIS graph file, parsed here."""
    lines = [l for l in open(path).read().splitlines() if not l.startswith("%")]
    head = lines[0].split()
    n, fmt = int(head[0]), head[2] if len(head) > 2 else "0"
    vw_on, ew_on = fmt.zfill(3)[1] == "1", fmt.zfill(3)[2] == "1"
    rows, cols, vals, vw = [], [], [], np.ones(n, dtype=np.int64)
    for u, line in enumerate(lines[1:n + 1]):
        f = list(map(int, line.split()))
        if vw_on:
            vw[u], f = f[0], f[1:]
        step = 2 if ew_on else 1
        for i in range(0, len(f), step):
            rows.append(u)
            cols.append(f[i] - 1)
            vals.append(f[i + 1] if ew_on else 1)
    return sp.csr_array((np.array(vals, float), (rows, cols)), shape=(n, n)), vw


def run(prog, *args):
    r = subprocess.run([prog, *map(str, args)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("matcher,refine", [("handshake", "none"), ("redblue", "none"), ("handshake", "roma")])
def test_hierarchy_equals_the_programs_files(prog, tmp_path, matcher, refine):
    A = random_matrix(6000, 0.001, "int", 11)
    vw = np.random.default_rng(11).integers(1, 4, size=6000)
    src = tmp_path / "in.graph"
    coarsen.write_graph(src, A, vertex_weights=vw)
    out = tmp_path / "out"
    run(prog, "--device", "cpu", "--quiet", "--levels", 7, "--coarsen-to", 0, "--seed", 7, "--matcher", matcher,
        "--refine", refine, "--out", out, src)
    h = coarsen.coarsen(A, vertex_weights=vw, levels=7, coarsen_to=0, seed=7, matcher=matcher,
                        refine=None if refine == "none" else refine, device="cpu")
    stats = json.loads((out / "stats.json").read_text())
    assert stats["totals"]["levels"] == h.levels >= 3
    for k in range(h.levels + 1):
        G, w = read_metis(out / f"level-{k}.graph")
        assert_same_graph(h.graphs[k], G)
        np.testing.assert_array_equal(h.vertex_weights[k], w)
        if k:
            np.testing.assert_array_equal(h.maps[k - 1], np.loadtxt(out / f"map-{k}.txt", dtype=np.int64))
    ours = h.stats
    for key in ("version", "device", "options", "stop_reason"):
        assert ours[key] == stats[key]
    untimed = lambda d: {k: v for k, v in d.items() if not k.endswith("_ms")}
    assert untimed(ours["totals"]) == untimed(stats["totals"])
    assert [untimed(l) for l in ours["levels"]] == [untimed(l) for l in stats["levels"]]
    assert ours["command_line"] is None and "phases" not in ours


@pytest.mark.parametrize("args,kw", [(["--matcher", "handshake"], {}),
                                     (["--matcher", "redblue", "--seed", "3"], {"matcher": "redblue", "seed": 3}),
                                     (["--refine", "roma", "--ties", "hashed"], {"refine": "roma", "ties": "hashed"})])
def test_match_equals_the_programs_mates(prog, tmp_path, args, kw):
    A = random_matrix(3000, 0.002, "real", 8)
    src = tmp_path / "in.mtx"
    coarsen.write_graph(src, A)
    run(prog, "match", "--device", "cpu", "--quiet", *args, src, "-o", tmp_path / "mates")
    np.testing.assert_array_equal(coarsen.match(A, device="cpu", **kw), np.loadtxt(tmp_path / "mates"))


@pytest.mark.parametrize("flag,recursive", [([], None), (["--rb"], True), (["--kway"], False)])
def test_partition_equals_the_programs_parts(prog, tmp_path, flag, recursive):
    A = random_matrix(5000, 0.001, "int", 12)
    src = tmp_path / "in.graph"
    coarsen.write_graph(src, A)
    run(prog, "partition", "--device", "cpu", "--quiet", "-k", 6, "--imbalance", 0.05, "--seed", 4, *flag, "--out",
        tmp_path / "parts", src)
    parts = coarsen.partition(A, 6, imbalance=0.05, seed=4, device="cpu", recursive=recursive)
    np.testing.assert_array_equal(parts, np.loadtxt(tmp_path / "parts"))
