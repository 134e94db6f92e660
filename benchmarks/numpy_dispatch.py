"""The peer `numpy.avx2`: NumPy with its AVX-512 dispatch turned off (NPY_DISABLE_CPU_FEATURES)
in a worker process, for the sort and selection rows (issue 33).

NumPy 2 sorts, argsorts and partitions with x86-simd-sort, picking its kernels at run time. On
an AMD Zen 4 it picks the AVX-512 ones, which store through compressed stores, slow on that
core: 2^24 float32, np.sort took 715-860 ms there, and 117-128 ms with the AVX-512 targets
turned off (the library's AVX2 kernels, which NumPy runs on any AVX2 CPU). Issue 33 measures the
CPU sorts against "NumPy 2's SIMD sort on the same cores": on such a machine that is this
column, not NumPy's own. The worker reads the row's input from shared memory; a timed run is
the call there and a message each way (tens of microseconds)."""
import atexit
import multiprocessing as mp
import os
from multiprocessing import shared_memory

import numpy as np

ROWS = ("sort", "argsort", "sort_rows", "topk", "topk_rows")


def _features():
    try:
        from numpy._core import _multiarray_umath as m
    except ImportError:                       # NumPy 1.x
        from numpy.core import _multiarray_umath as m
    return m


def avx512_targets():
    """NumPy's dispatch targets beyond AVX2 that this CPU has (X86_V4, AVX512_*): what the
    worker turns off; empty where NumPy would not take them anyway."""
    m = _features()
    return [f for f in m.__cpu_dispatch__
            if m.__cpu_features__.get(f) and (f == "X86_V4" or f.startswith("AVX512"))]


def _row_fn(name):
    from selection import TOPK, argpartition_top_k
    if name in ("sort", "sort_rows"):
        return np.sort
    if name == "argsort":
        return lambda x: np.argsort(x, kind="stable")
    top_k = argpartition_top_k(np)
    return lambda x: top_k(x, TOPK)


def _worker(conn):
    m = _features()
    conn.send([f for f, on in m.__cpu_features__.items() if on and f in m.__cpu_dispatch__])
    shm, x, result = None, None, None
    while True:
        msg = conn.recv()
        try:
            if msg[0] == "load":
                _, name, shape, dtype = msg
                if shm is not None:
                    shm.close()
                shm = shared_memory.SharedMemory(name=name)
                x = np.ndarray(shape, dtype, buffer=shm.buf)
                conn.send(None)
            elif msg[0] == "run":
                result = _row_fn(msg[1])(x)
                conn.send(None)
            elif msg[0] == "result":
                conn.send(result)
            else:
                break
        except Exception as e:  # noqa: BLE001
            conn.send(e)
    x = result = None
    if shm is not None:
        shm.close()


class Worker:
    """One NumPy process with the AVX-512 targets off, started at the first row that needs it."""

    def __init__(self, off):
        self.off, self.proc, self.conn, self.shm, self.active = off, None, None, None, None

    def _start(self):
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        old = os.environ.get("NPY_DISABLE_CPU_FEATURES")
        os.environ["NPY_DISABLE_CPU_FEATURES"] = " ".join(self.off)
        try:
            self.proc = ctx.Process(target=_worker, args=(child,), daemon=True)
            self.proc.start()
        finally:
            if old is None:
                del os.environ["NPY_DISABLE_CPU_FEATURES"]
            else:
                os.environ["NPY_DISABLE_CPU_FEATURES"] = old
        self.active = self.conn.recv()
        if any(f in self.active for f in self.off):
            raise RuntimeError(f"the worker's NumPy still dispatches {self.active}")
        atexit.register(self.close)

    def call(self, *msg):
        if self.proc is None:
            self._start()
        self.conn.send(msg)
        r = self.conn.recv()
        if isinstance(r, Exception):
            raise r
        return r

    def load(self, x):
        self._drop()
        self.shm = shared_memory.SharedMemory(create=True, size=max(x.nbytes, 1))
        np.ndarray(x.shape, x.dtype, buffer=self.shm.buf)[...] = x
        self.call("load", self.shm.name, x.shape, x.dtype.str)

    def _drop(self):
        if self.shm is not None:
            self.shm.close()
            self.shm.unlink()
            self.shm = None

    def close(self):
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(("quit",))
            self.proc.join(10)
        self._drop()


def system(worker, w):
    """(prepare, run, sync, to_np) for run.py, or a skip note."""
    if w.name not in ROWS:
        return "NumPy's dispatch changes only its sorts and selections"

    def prep():
        worker.load(w.inputs[0])

    return (prep, lambda st: worker.call("run", w.name), lambda r: None,
            lambda r: worker.call("result"))
