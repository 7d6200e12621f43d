"""python_overhead.py — what the Python package adds to a coarsening: for
each graph file, the median over RUNS runs of
  - the program: `coarsen --json --quiet --levels 10 --device cpu FILE`, its
    hierarchy build (totals.total_ms, the C call) and read time;
  - the package on the graph read_graph returned (no conversion): the wall
    time of coarsen.coarsen() around the same C call, and the C call's own
    time inside it (Hierarchy.total_ms); the difference is the binding;
  - the package on a SciPy copy of the same matrix (the usual user's path):
    the conversion by coarsen_graph_from_entries included;
  - taking every level and map as SciPy/NumPy views afterwards.
Usage: python3 bench/python_overhead.py PROG FILE... (RUNS=5 by default;
the package must be importable, the library's backend the program's)."""

import json
import os
import statistics
import subprocess
import sys
import time

import scipy.sparse as sp

import coarsen

RUNS = int(os.environ.get("RUNS", "5"))
OPTS = dict(levels=10, device="cpu")


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1e3, out


def bench(prog, path):
    cli_build, cli_read, py_wall, py_c, sc_wall, sc_c, views = [], [], [], [], [], [], []
    A, vw = coarsen.read_graph(path)
    copy = sp.csr_array((A.data.copy(), A.indices.copy(), A.indptr.copy()), shape=A.shape)
    for _ in range(RUNS):
        r = subprocess.run([prog, "--json", "--quiet", "--levels", "10", "--device", "cpu", path], check=True,
                           capture_output=True, text=True)
        s = json.loads(r.stdout)
        cli_build.append(s["totals"]["total_ms"])
        cli_read.append(s["phases"]["read_ms"])
        ms, h = timed(lambda: coarsen.coarsen(A, vertex_weights=vw, **OPTS))
        py_wall.append(ms)
        py_c.append(h.total_ms)
        ms, _ = timed(lambda: (h.graphs, h.maps, h.vertex_weights))
        views.append(ms)
        ms, h2 = timed(lambda: coarsen.coarsen(copy, vertex_weights=vw, **OPTS))
        sc_wall.append(ms)
        sc_c.append(h2.total_ms)
        assert h.levels == h2.levels == s["totals"]["levels"]
    med = statistics.median
    return dict(graph=os.path.basename(path), n=A.shape[0], edges=A.nnz // 2, levels=h.levels,
                cli_read=med(cli_read), cli_build=med(cli_build), py_wall=med(py_wall), py_c=med(py_c),
                binding=med(w - c for w, c in zip(py_wall, py_c)), scipy_wall=med(sc_wall),
                convert=med(w - c for w, c in zip(sc_wall, sc_c)), views=med(views))


def main():
    prog, files = sys.argv[1], sys.argv[2:]
    print(f"# coarsen {coarsen.__version__} ({coarsen.library_path}), {RUNS} runs, medians in ms, "
          f"{os.cpu_count()} cores")
    print("| graph | n | edges | levels | CLI read | CLI build (C call) | Python wall | its C call | binding "
          "| vs CLI build | from SciPy copy | conversion | views of all levels |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in files:
        r = bench(prog, f)
        print(f"| {r['graph']} | {r['n']} | {r['edges']} | {r['levels']} | {r['cli_read']:.1f} | "
              f"{r['cli_build']:.1f} | {r['py_wall']:.1f} | {r['py_c']:.1f} | {r['binding']:.2f} | "
              f"{100 * (r['py_wall'] / r['cli_build'] - 1):+.1f} % | {r['scipy_wall']:.1f} | {r['convert']:.1f} | "
              f"{r['views']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
