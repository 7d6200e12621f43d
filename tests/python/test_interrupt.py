"""test_interrupt.py — Ctrl-C during a long coarsening: SIGINT from a timer
thread stops the build at the next level, well before it would end, and
raises KeyboardInterrupt; afterwards Python's own handler is in place and
works, the next build runs to its end, and a program's own SIGINT handler
is left alone (it runs, the build is not stopped)."""

import os
import signal
import threading
import time

import numpy as np
import pytest
import scipy.sparse as sp

import coarsen

# A 700 x 700 unit grid matched by handshake with ROMA on every level (ROMA
# refines a matching; HEC, the default without refine, ends this grid in a
# tenth of a second): about two dozen levels of similar cost, seconds in all
# on a 2-core machine.
OPTS = dict(levels=40, coarsen_to=0, matcher="handshake", refine="roma", device="cpu")


@pytest.fixture(scope="module")
def grid():
    k = 700
    T = sp.diags_array([np.ones(k - 1), np.ones(k - 1)], offsets=[-1, 1])
    I = sp.eye_array(k)
    return sp.csr_array(sp.kron(I, T) + sp.kron(T, I))


def sigint_after(seconds):
    t = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_sigint_stops_a_long_build(grid):
    G = coarsen.coarsen(grid, levels=0).graphs[0]  # the conversion, outside the timings
    t0 = time.perf_counter()
    full = coarsen.coarsen(G, **OPTS)
    full_s = time.perf_counter() - t0
    assert full.levels >= 15, full.levels
    timer = sigint_after(0.1 * full_s)
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        coarsen.coarsen(G, **OPTS)
    took = time.perf_counter() - t0
    timer.join()
    assert took < 0.6 * full_s, f"stopped after {took:.2f} s of a {full_s:.2f} s build"
    # Python's handler is back, and a Ctrl-C now is Python's KeyboardInterrupt
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    # nothing left pending: the next build completes
    again = coarsen.coarsen(G, **OPTS)
    assert again.levels == full.levels


def test_partition_is_interrupted_too(grid):
    G = coarsen.coarsen(grid, levels=0).graphs[0]  # the conversion, outside the timings
    t0 = time.perf_counter()
    coarsen.partition(G, 4, device="cpu")
    full_s = time.perf_counter() - t0
    # early in the run, while the hierarchy is built (checked between levels);
    # not a fixed delay: the partitioner's speed varies with the machine
    timer = sigint_after(0.05 * full_s)
    with pytest.raises(KeyboardInterrupt):
        coarsen.partition(G, 4, device="cpu")
    timer.join()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_programs_own_handler_is_left_alone(grid):
    seen = []
    previous = signal.signal(signal.SIGINT, lambda sig, frame: seen.append(sig))
    try:
        timer = sigint_after(0.05)
        h = coarsen.coarsen(grid, levels=3, coarsen_to=0, refine="roma", device="cpu")
        timer.join()
        time.sleep(0.01)
        assert h.levels == 3 and seen == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)
