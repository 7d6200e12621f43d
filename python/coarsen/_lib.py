"""_lib.py — the shared library libcoarsen.so through ctypes: finding and
loading it, the C structs and prototypes of include/coarsen.h, the mapping
of its status codes to Python exceptions, and the SIGINT bracket around long
calls.

ctypes releases the GIL for the duration of every call into the library, so
other Python threads run while a hierarchy is built."""

import ctypes
import glob
import os
import signal
import threading
from ctypes import (POINTER, Structure, byref, c_char, c_char_p, c_double, c_int, c_int32, c_int64, c_uint64,
                    c_void_p)
from ctypes.util import find_library


class DeviceError(RuntimeError):
    """A CUDA call failed, or the GPU backend was asked for and no GPU is usable."""


# coarsen_status (include/coarsen.h)
OK, ERR_INPUT, ERR_NOMEM, ERR_DEVICE, ERR_IO, ERR_INTERRUPTED = 0, 2, 3, 4, 5, 6
_EXCEPTIONS = {ERR_INPUT: ValueError, ERR_NOMEM: MemoryError, ERR_DEVICE: DeviceError, ERR_IO: OSError,
               ERR_INTERRUPTED: KeyboardInterrupt}

DEVICES = {"auto": 0, "cpu": 1, "gpu": 2}
MATCHERS = {"handshake": 0, "redblue": 1, "hec": 2}
RATINGS = {"weight": 0, "expansion": 1, "expansion2": 2}
FORMATS = {"metis": 0, "mtx": 1, "parhip": 2}


class Error(Structure):
    _fields_ = [("status", c_int), ("msg", c_char * 1024)]


class Graph(Structure):
    _fields_ = [("n", c_int32), ("nnz", c_int64), ("xadj", POINTER(c_int64)), ("adj", POINTER(c_int32)),
                ("ewgt", POINTER(c_double)), ("vwgt", POINTER(c_int64)), ("integral_weights", c_int),
                ("on_device", c_int)]


class HierarchyOpts(Structure):
    _fields_ = [("levels", c_int), ("matcher", c_int), ("coarsen_to", c_int32), ("min_reduction", c_double),
                ("max_vertex_weight", c_int64), ("max_vertex_weight_factor", c_double), ("rating", c_int),
                ("two_hop_threshold", c_double), ("two_hop_relatives", c_double), ("gpu_memory_factor", c_double),
                ("host_below", c_int32), ("keep_input_on_device", c_int), ("refine_roma", c_int),
                ("hashed_ties", c_int), ("seed", c_uint64), ("device", c_int), ("on_level", c_void_p),
                ("ctx", c_void_p)]


class MatchOpts(Structure):
    _fields_ = [("matcher", c_int), ("refine_roma", c_int), ("hashed_ties", c_int), ("max_vertex_weight", c_int64),
                ("seed", c_uint64), ("device", c_int)]


class MatchStats(Structure):
    _fields_ = [("pairs", c_int64), ("weight", c_double), ("passes", c_int), ("ms", c_double)]


class PartitionOpts(Structure):
    _fields_ = [("k", c_int32), ("imbalance", c_double), ("seed", c_uint64), ("recursive", c_int),
                ("max_rounds", c_int), ("polish_edges", c_int64), ("metis_tries", c_int),
                ("hierarchy", HierarchyOpts)]


class PartitionInfo(Structure):
    _fields_ = [("cut", c_double), ("imbalance", c_double), ("cap", c_int64), ("levels", c_int),
                ("on_gpu", c_int), ("total_ms", c_double)]


_PROTOTYPES = {
    "coarsen_version": (c_char_p, []),
    "coarsen_graph_free": (None, [c_void_p]),
    "coarsen_graph_load": (c_int, [c_char_p, POINTER(POINTER(Graph)), c_void_p, POINTER(Error)]),
    "coarsen_graph_write": (c_int, [POINTER(Graph), c_char_p, c_int, c_double, POINTER(Error)]),
    "coarsen_graph_from_entries": (c_int, [c_int32, c_int64, c_void_p, c_void_p, c_void_p, c_void_p,
                                           POINTER(POINTER(Graph)), POINTER(Error)]),
    "coarsen_hierarchy_opts_default": (None, [POINTER(HierarchyOpts)]),
    "coarsen_hierarchy_build": (c_int, [POINTER(Graph), POINTER(HierarchyOpts), POINTER(c_void_p),
                                        POINTER(Error)]),
    "coarsen_hierarchy_levels": (c_int, [c_void_p]),
    "coarsen_hierarchy_graph": (c_int, [c_void_p, c_int, POINTER(POINTER(Graph)), POINTER(Error)]),
    "coarsen_hierarchy_map": (c_int, [c_void_p, c_int, POINTER(POINTER(c_int32)), POINTER(Error)]),
    "coarsen_hierarchy_stop_reason": (c_int, [c_void_p]),
    "coarsen_stop_reason_name": (c_char_p, [c_int]),
    "coarsen_hierarchy_on_gpu": (c_int, [c_void_p]),
    "coarsen_hierarchy_total_ms": (c_double, [c_void_p]),
    "coarsen_hierarchy_write_stats": (c_int, [c_void_p, c_char_p, POINTER(Error)]),
    "coarsen_hierarchy_free": (None, [c_void_p]),
    "coarsen_match_opts_default": (None, [POINTER(MatchOpts)]),
    "coarsen_match": (c_int, [POINTER(Graph), POINTER(MatchOpts), c_void_p, POINTER(MatchStats), POINTER(Error)]),
    "coarsen_partition_opts_default": (None, [POINTER(PartitionOpts)]),
    "coarsen_partition": (c_int, [POINTER(Graph), POINTER(PartitionOpts), c_void_p, POINTER(PartitionInfo),
                                  POINTER(Error)]),
    "coarsen_interrupt_catch": (c_int, [POINTER(Error)]),
    "coarsen_interrupt_release": (c_int, []),
    "coarsen_abi_size": (ctypes.c_size_t, [c_char_p]),
}

# The mirrors above, by the C name whose layout each copies.
_MIRRORS = {"coarsen_error": Error, "coarsen_graph": Graph, "coarsen_hierarchy_opts": HierarchyOpts,
            "coarsen_match_opts": MatchOpts, "coarsen_match_stats": MatchStats,
            "coarsen_partition_opts": PartitionOpts, "coarsen_partition_info": PartitionInfo}


def _candidates():
    """Where the library may be, in the order tried."""
    env = os.environ.get("COARSEN_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(glob.glob(os.path.join(here, "libcoarsen.so*")))
    system = find_library("coarsen")
    return found + ([system] if system else [])


def _load():
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
            continue
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        for cname, mirror in _MIRRORS.items():
            size = lib.coarsen_abi_size(cname.encode())
            if size != ctypes.sizeof(mirror):
                raise ImportError(f"coarsen: {path} lays out {cname} in {size} bytes, this package in "
                                  f"{ctypes.sizeof(mirror)}: the package and the library are from different "
                                  "versions (reinstall: pip install . from the repository)")
        return lib, path
    raise ImportError("coarsen: libcoarsen.so not found or not loadable (set COARSEN_LIBRARY to its path, or "
                      "reinstall the package: pip install . from the repository)"
                      + "".join("\n  " + t for t in tried))


lib, path = _load()
version = lib.coarsen_version().decode()


def error_message(err):
    return err.msg.decode(errors="replace") or "unknown error"


def check(rc, err):
    """Raises the exception of status rc with the library's message."""
    if rc:
        raise _EXCEPTIONS.get(rc, RuntimeError)(error_message(err))


def _catch_sigint():
    """True when this call may take SIGINT over for its duration: the main
    thread, with Python's own handler in place (a program that installed
    another handler, or ignores SIGINT, keeps it)."""
    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)


def interruptible(fn, *args):
    """Calls fn(*args) with the library's SIGINT handler in place of Python's
    (coarsen_interrupt_catch / _release): a Ctrl-C then stops a hierarchy
    build at the next level. Returns (fn's result, interrupted): the caller
    takes ownership of what the call made and then raises KeyboardInterrupt
    when interrupted. Python's handler is back in place on return."""
    if not _catch_sigint():
        return fn(*args), False
    err = Error()
    check(lib.coarsen_interrupt_catch(byref(err)), err)
    try:
        rc = fn(*args)
    finally:
        sig = lib.coarsen_interrupt_release()
    return rc, sig != 0


def enum(table, what, value):
    """table[value], or ValueError naming the accepted words."""
    try:
        return table[value]
    except (KeyError, TypeError):
        raise ValueError(f"{what}: {value!r} is not one of {', '.join(map(repr, table))}") from None
