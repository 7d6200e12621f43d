#!/usr/bin/env python3
"""partition_others.py - the other partitioners of the partition experiment
(examples/partition_experiment.sh): KaMinPar (default context, PyPI
`kaminpar`) and KaHIP's kaffpa (eco, PyPI `kahip`) on the same graphs, k,
seeds and imbalance as `coarsen partition` and METIS, through their Python
packages. Each graph is given to them as the METIS file `coarsen convert`
writes (the graph exactly as coarsen reads it: symmetrised, no self-loops;
real weights made integers as partition/metis_coarsest.c makes them for METIS:
the largest 2^10, rounded, every one at least 1), and every partition is
evaluated by `coarsen evaluate` on the original file: cut in the original
weights, and the heaviest part against the cap of docs/partitioning.md,
max(floor((1 + E) W / k), ceil(W / k) + wmax - 1), the bound ours is held to.

    partition_others.py COARSEN KS SEEDS IMBALANCE RAW TMPDIR GRAPH...

KS "2,8,64", SEEDS "1 2 3 4". Each call runs in a forked child killed after
OTHERS_TIMEOUT seconds (environment, default 120; KaHIP eco took 295 s on a
50 000-vertex Erdos-Renyi graph at k = 64 here), reported as a line with
cut=timeout. Appends one key=value line per (graph, tool,
k, seed) to RAW: graph tool k seed cut imbalance within_bound ms (partition
call only, file reading excluded). A tool that is not installed (after one
`pip install` try) or that cannot take a graph is skipped with a line on
stderr saying so. Generator specs (kind:key=value,...) are written by
`coarsen gen` with the same parameters."""
import json
import multiprocessing
import os
import subprocess
import sys
import time


def ensure(module, package):
    """Imports module, installing package with pip once when missing."""
    try:
        return __import__(module)
    except ImportError:
        pass
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", package],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    try:
        return __import__(module)
    except ImportError:
        print(f"partition_others: the PyPI package {package} is not installable here: {package} skipped",
              file=sys.stderr)
        return None


def gen_file(coarsen, spec, tmp):
    """The METIS file of a bench generator spec (kind:key=value,...)."""
    kind, _, args = spec.partition(":")
    flags = {"n": "--vertices", "nx": "--nx", "ny": "--ny", "nz": "--nz", "deg": "--degree",
             "weights": "--weights", "maxw": "--max-weight", "lambda": "--lambda", "seed": "--seed"}
    cmd = [coarsen, "gen", kind, "--quiet"]
    for kv in filter(None, args.split(",")):
        key, _, val = kv.partition("=")
        if key not in flags:
            return None
        cmd += [flags[key], val]
    out = os.path.join(tmp, spec.replace(":", "_").replace(",", "_").replace("=", "") + ".graph")
    return out if subprocess.run(cmd + ["-o", out], stderr=subprocess.DEVNULL).returncode == 0 else None


def metis_file(coarsen, path, tmp):
    """(METIS file of path for the other tools, the file to evaluate on)."""
    if not os.path.exists(path):
        g = gen_file(coarsen, path, tmp)
        return g, g
    out = os.path.join(tmp, os.path.basename(path) + ".metis.graph")
    if subprocess.run([coarsen, "convert", "--quiet", path, out], stderr=subprocess.DEVNULL).returncode == 0:
        return out, path
    # real (or zero) weights: METIS's integers as partition/metis_coarsest.c
    # makes them for METIS, from the graph as coarsen writes it in Matrix Market
    mtx = os.path.join(tmp, "real.mtx")
    if subprocess.run([coarsen, "convert", "--quiet", path, mtx], stderr=subprocess.DEVNULL).returncode:
        return None, path
    with open(mtx) as f:
        lines = [ln for ln in f if not ln.startswith("%")]
    n = int(lines[0].split()[0])
    edges = [(int(a) - 1, int(b) - 1, float(w)) for a, b, w in (ln.split() for ln in lines[1:])]
    wmax = max((w for _, _, w in edges), default=1.0)
    total = 2 * sum(w for _, _, w in edges)
    scale = 1024 / wmax if wmax > 0 else 1.0
    limit = (2**31 - 1) / 4
    if total * scale > limit:
        scale = limit / total
    rows = [[] for _ in range(n)]
    for a, b, w in edges:
        iw = max(1, round(w * scale))
        rows[a].append((b, iw))
        rows[b].append((a, iw))
    with open(out, "w") as f:
        f.write(f"{n} {len(edges)} 001\n")
        for r in rows:
            f.write(" ".join(f"{v + 1} {w}" for v, w in sorted(r)) + "\n")
    return out, path


def read_metis(path):
    """CSR of a METIS file as written by coarsen convert: vwgt, xadj, adjcwgt, adjncy."""
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith("%")]
    head = lines[0].split()
    n, fmt = int(head[0]), head[2] if len(head) > 2 else "0"
    fmt = fmt.rjust(3, "0")
    has_vw, has_ew = fmt[1] == "1", fmt[2] == "1"
    ncon = int(head[3]) if len(head) > 3 else 1
    vwgt, xadj, adjncy, adjcwgt = [], [0], [], []
    for ln in lines[1:n + 1]:
        t = list(map(int, ln.split()))
        if has_vw:
            vwgt.append(t[0])
            t = t[ncon:]
        else:
            vwgt.append(1)
        if has_ew:
            adjncy.extend(x - 1 for x in t[0::2])
            adjcwgt.extend(t[1::2])
        else:
            adjncy.extend(x - 1 for x in t)
            adjcwgt.extend([1] * len(t))
        xadj.append(len(adjncy))
    return vwgt, xadj, adjcwgt, adjncy


def evaluate(coarsen, graph, part, k, imbalance, tmp):
    """(cut, max part / (W/k), within the cap) from coarsen evaluate."""
    pf = os.path.join(tmp, "part.txt")
    with open(pf, "w") as f:
        f.write("\n".join(map(str, part)) + "\n")
    r = subprocess.run([coarsen, "evaluate", "--json", "--quiet", "-k", str(k), graph, pf],
                       capture_output=True, text=True, check=True)
    ev = json.loads(r.stdout)
    return ev, max(p["weight"] for p in ev["parts"])


def in_child(fn, timeout):
    """(result of fn(), ms) computed in a forked child, or (None, None) after timeout seconds."""
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    def run():
        t0 = time.perf_counter()
        part = list(fn())
        q.put(((time.perf_counter() - t0) * 1e3, part))
    p = ctx.Process(target=run)
    p.start()
    try:
        ms, part = q.get(timeout=timeout)
    except Exception:  # queue.Empty: the child ran out of time (or died)
        p.kill()
        p.join()
        return None, None
    p.join()
    return part, ms


def cap_of(total, wmax, k, eps):
    a = int((1 + eps) * total / k)
    b = -(-total // k) + wmax - 1
    return max(a, b)


def main():
    coarsen, ks, seeds, eps, raw, tmp = sys.argv[1:7]
    graphs = sys.argv[7:]
    ks = [int(x) for x in ks.split(",")]
    seeds = [int(x) for x in seeds.split()]
    eps = float(eps)
    timeout = float(os.environ.get("OTHERS_TIMEOUT", "120"))
    os.makedirs(tmp, exist_ok=True)
    kaminpar = ensure("kaminpar", "kaminpar")
    kahip = ensure("kahip", "kahip")
    tools = []
    if kaminpar:
        tools.append("kaminpar")
    if kahip:
        tools.append("kahip")
    if not tools:
        return
    with open(raw, "a") as out:
        for g in graphs:
            mf, evalg = metis_file(coarsen, g, tmp)
            if not mf:
                print(f"partition_others: {g}: no METIS file (zero weights?): KaMinPar and KaHIP skipped",
                      file=sys.stderr)
                continue
            vwgt, xadj, adjcwgt, adjncy = read_metis(mf)
            n, total, wmax = len(vwgt), sum(vwgt), max(vwgt)
            kg = kaminpar.load_graph(mf, kaminpar.GraphFileFormat.METIS) if kaminpar else None
            for k in ks:
                if k > n:
                    continue
                cap = cap_of(total, wmax, k, eps)
                for s in seeds:
                    for tool in tools:
                        if tool == "kaminpar":
                            def fn():
                                kaminpar.reseed(s)
                                return kaminpar.KaMinPar(1, kaminpar.default_context()).compute_partition(kg, k, eps)
                        else:
                            def fn():
                                return kahip.kaffpa(vwgt, xadj, adjcwgt, adjncy, k, eps, True, s, kahip.ECO)[1]
                        part, ms = in_child(fn, timeout)
                        if part is None:
                            print(f"partition_others: {tool} on {g}, k = {k}, seed {s}: over {timeout} s, stopped",
                                  file=sys.stderr)
                            out.write(f"graph={g} tool={tool} k={k} seed={s} cut=timeout\n")
                            out.flush()
                            continue
                        ev, heaviest = evaluate(coarsen, evalg, part, k, eps, tmp)
                        out.write(f"graph={g} tool={tool} k={k} seed={s} cut={ev['cut']!r} "
                                  f"imbalance={ev['balance']:.5f} within_bound={int(heaviest <= cap)} "
                                  f"ms={ms:.3f}\n")
                        out.flush()
            print(f"partition_others: {g} done", file=sys.stderr)


if __name__ == "__main__":
    main()
