"""The lazycl fusion benchmark suite (`make bench`): lazycl against NumPy, numexpr, other
installed array libraries and a hand-written OpenCL kernel through the same runtime, with the
device's measured copy bandwidth as the ceiling. The spec is shared/BENCHMARKS.md.

    python benchmarks/run.py [--device FILTER] [--n N] [--quick] [--only a,b] [--reps R]
                             [--skip SYSTEMS] [--out DIR]

Workloads (float32): axpy, chain, transc, l2, softmax, standardize, cumsum, gather (x[idx], idx
int64 uniform over N) and `small` (chain at N = 1e3 ... 1e6). N = 2^24 on a CPU device, 2^28 on a GPU (standardize: 4096^2 / 16384^2).
Indexing and writes: compaction (x[x > 0.5], a data-dependent length; no hand-written kernel on a
GPU), bincount (bincount(idx, weights=x, minlength=65536), idx int64 uniform over the bins,
float64 bins as NumPy), jacobi_2d (npbench's kernel, float64 2000x2000, 10 steps of two stencil
assignments; the row's note gives lazycl's launches per assignment, which should be 1 each) and
slicewrite (x[1000:1000+L] = y for L = 2^10, 2^16, 2^20, x[::256] = y, x[::16] = y, and the whole
x[:] = y, into an N-element x: the time should follow the slice). The writes mutate their inputs:
each system checks its result on fresh copies, then is timed on the same arrays again.

Systems: lazycl device-resident (inputs on the device, `.compute()` + queue.finish() timed),
lazycl end-to-end (NumPy in, np.asarray out), NumPy, numexpr, the hand-written kernel, and where
installed Numba, Dask, JAX (jit), PyOpenCL, CuPy (eager, fuse), PyTorch (eager, compile).

Every result is checked against a float64 NumPy reference before it is timed; a result off by
more than the workload's tolerance is reported as WRONG, with its time beside it (NumPy's own
float32 cumsum is sequential and misses the tolerance at 2^24). Cells are the median of
at least --reps timed runs after warm-up, in ms, with the ratio to lazycl (device-resident):
x2.0 means that system took twice as long as lazycl.

dask_standardize (benchmarks/cluster.py, needs dask.distributed): examples/dask_standardize.py on
a LocalCluster, one worker process per device (every CPU device, or the GPU), lazycl chunks in the
lazycl column against NumPy chunks in the numpy column, 2^26 float32 on a CPU (--dask-log2n).

Writes benchmarks/results/<device-kind>-<date>.{json,md} (and .png when matplotlib is there).
"""
import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback

import numpy as np

# JAX would otherwise take 75% of the GPU's memory at import.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lazycl as lc  # noqa: E402
from lazycl import _lazycl  # noqa: E402

import kernels  # noqa: E402

# ---- workloads -----------------------------------------------------------------------------
#
# Each expression is written once against a small namespace `ns` so that NumPy, lazycl, CuPy,
# JAX, Dask and PyTorch run the very same code; ns.mean0 / ns.std0 are the axis-0 reductions
# (population std), ns.cumsum is along the only axis.

A = 2.5


def f_axpy(ns, x, y):
    return A * x + y


def f_chain(ns, x, y):
    return (x * 1.5 + y) * (x - y) / (1 + x * x)


def f_transc(ns, x, y):
    return ns.exp(-x * x) * ns.sqrt(y + 1) + ns.log1p(x)


def f_l2(ns, x, y):
    return ns.sum((x - y) ** 2)


def f_softmax(ns, x):
    e = ns.exp(x - ns.max(x))
    return e / ns.sum(e)


def f_standardize(ns, X):
    return (X - ns.mean0(X)) / ns.std0(X)


def f_cumsum(ns, x):
    return ns.cumsum(x * x)


def f_sort(ns, x):
    return ns.sort(x)


def f_argsort(ns, x):
    return ns.argsort(x)


def f_sort_rows(ns, X):
    return ns.sort(X)


def f_gather(ns, x, idx):
    return x[idx]


# Products (float32): the plain SGEMM, the same with a bias and a relu after it (lazycl: one
# kernel, the epilogue in the product's), and the sparse PCA's column norms of Vd @ C (K = 3:
# lazycl computes the product inside the norm's reduction, never writing the p x S matrix).

def f_matmul(ns, A, B):
    return A @ B


def f_matmul_relu(ns, A, B, b):
    r = A @ B + b
    return r * (r > 0)


def f_matmul_norm(ns, Vd, C):
    return ns.sqrt(ns.sum((Vd @ C) ** 2, axis=0))


# Indexing and writes. The writes mutate their inputs: each system checks its result on fresh
# copies of the inputs (Workload.mutates), then is timed on the same arrays again and again
# (the cost does not depend on the values; a slice write is idempotent).

def f_compaction(ns, x):
    return x[x > 0.5]


BINS = 65536


def f_bincount(ns, idx, x):
    return ns.bincount(idx, weights=x, minlength=BINS)


JACOBI_N, JACOBI_STEPS = 2000, 10


# Random numbers: each system's own generator (ns.randn(n, tok) gives n float32 standard
# normals; tok, a one-element int32 array, only keeps JAX from folding its fixed key into a
# constant). `random` is mean(normal**2), which lazycl fuses into one kernel with no buffer;
# `randn` materializes the normals (lazycl through a copy: a random array is a source, computed
# where it is read, so it needs a consumer to be written).

def make_random(n):
    def f_random(ns, tok):
        z = ns.randn(n, tok)
        return ns.sum(z * z) / n
    return f_random


def make_randn(n):
    def f_randn(ns, tok):
        return ns.randn_mat(n, tok)
    return f_randn


def normal_check(n):
    """A materialized draw is checked by its moments, not element by element."""
    def check_moments(r):
        r = np.asarray(r, dtype=np.float64).reshape(-1)
        if r.size != n:
            return False, float("nan"), f"size {r.size} != {n}"
        m, v = float(r.mean()), float(r.var())
        ok = abs(m) < 10 / math.sqrt(n) and abs(v - 1) < 20 / math.sqrt(n)
        return ok, abs(v - 1), "" if ok else f"mean {m:.3g}, var {v:.4g}"
    return check_moments


def f_jacobi_2d(ns, A, B):
    """npbench's jacobi_2d kernel body, JACOBI_STEPS times (npbench's `range(1, TSTEPS)` with
    TSTEPS = JACOBI_STEPS + 1), in place in A and B."""
    for _ in range(JACOBI_STEPS):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])
    return A


def jacobi_init(n):
    """npbench's initialize (float64)."""
    A = np.fromfunction(lambda i, j: i * (j + 2) / n, (n, n), dtype=np.float64)
    B = np.fromfunction(lambda i, j: i * (j + 3) / n, (n, n), dtype=np.float64)
    return A, B


def jacobi_stats(lns, lc_in, queue):
    """Launches of one step's two stencil assignments, each counted on its own: the row's note.
    Each should be one store kernel."""
    A, B = lc_in
    counts = []
    for dst, src in ((B, A), (A, B)):
        lc.reset_stats()
        dst[1:-1, 1:-1] = 0.2 * (src[1:-1, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:] + src[2:, 1:-1]
                                 + src[:-2, 1:-1])
        queue.finish()
        counts.append(lc.stats()["launches"])
    ok = counts == [1, 1]
    return {"launches_per_assignment": counts, "one_store_kernel_per_assignment": ok}, (
        f"launches per step: B[1:-1,1:-1] = ... {counts[0]}, A[1:-1,1:-1] = ... {counts[1]} "
        + ("(1 store kernel per stencil assignment: OK)" if ok else
           "(EXPECTED 1 store kernel per stencil assignment)"))


def make_slicewrite(start, stop, step):
    def f_slicewrite(ns, x, y):
        x[start:stop:step] = y
        return x
    return f_slicewrite


# numexpr versions (None: numexpr cannot express it)
def ne_axpy(ne, x, y):
    return ne.evaluate("2.5 * x + y")


def ne_chain(ne, x, y):
    return ne.evaluate("(x * 1.5 + y) * (x - y) / (1 + x * x)")


def ne_transc(ne, x, y):
    return ne.evaluate("exp(-x * x) * sqrt(y + 1) + log1p(x)")


def ne_l2(ne, x, y):
    return ne.evaluate("sum((x - y) ** 2)")


def ne_softmax(ne, x):
    m = ne.evaluate("max(x)")
    e = ne.evaluate("exp(x - m)")
    s = ne.evaluate("sum(e)")
    return ne.evaluate("e / s")


def ne_standardize(ne, X):
    R = np.float32(X.shape[0])
    m = ne.evaluate("sum(X, 0)") / R
    v = ne.evaluate("sum((X - m) ** 2, 0)") / R
    return ne.evaluate("(X - m) / sqrt(v)")


class Workload:
    def __init__(self, name, fn, inputs, out_elems, tol, expr, ne=None, hand=None, fuse=False,
                 numba=None, label=None, mutates=False, nbytes=None, peers_skip=None,
                 stats=None, ref=None):
        self.ref = ref                # a callable checking the result, where no reference is
        self.name = name
        self.fn = fn
        self.inputs = inputs          # list of numpy arrays
        self.out_elems = out_elems
        self.tol = tol                # (rtol, atol relative to max |ref|)
        self.expr = expr
        self.ne = ne
        self.hand = hand              # (ctx, lazycl inputs) -> run()
        self.fuse = fuse              # cupy.fuse can express it
        self.numba = numba
        self.label = label or name
        self.mutates = mutates        # writes into its inputs: each system checks on fresh copies
        self.nbytes = nbytes          # bytes that must move, where the default rule is wrong
        self.peers_skip = peers_skip or {}   # peer name -> why it cannot run this
        self.stats = stats            # (lns, lazycl inputs, queue) -> (dict, note) for the row

    @property
    def n(self):
        return self.inputs[0].size

    @property
    def bytes(self):
        """Bytes that must move: each input read once, each output written once."""
        if self.nbytes is not None:
            return self.nbytes
        return sum(a.nbytes for a in self.inputs) + 4 * self.out_elems


def hand_map(name, inputs, expr, scalars=()):
    def setup(ctx, arrays):
        return kernels.setup_map(ctx, "hand_" + name, inputs, expr, arrays, scalars)
    return setup


HAND_AXPY = hand_map("axpy", ["x", "y"], "a * x + y", [("a", A)])
HAND_CHAIN = hand_map("chain", ["x", "y"], "(x * 1.5f + y) * (x - y) / (1.0f + x * x)")
HAND_TRANSC = hand_map("transc", ["x", "y"], "exp(-x * x) * sqrt(y + 1.0f) + log1p(x)")


def build_workloads(n, side, small_sizes, only):
    rng = np.random.default_rng(12345)

    def u(*shape):
        # uniform in (0, 1): log1p and sqrt are defined everywhere
        return (rng.random(shape, dtype=np.float32) * np.float32(0.999) + np.float32(0.0005))

    wl = []
    want = (lambda name: only is None or name in only)
    if want("axpy"):
        wl.append(Workload("axpy", f_axpy, [u(n), u(n)], n, (1e-5, 1e-6), "a*x + y",
                           ne_axpy, HAND_AXPY, fuse=True, numba="axpy"))
    if want("chain"):
        wl.append(Workload("chain", f_chain, [u(n), u(n)], n, (1e-5, 1e-6),
                           "(x*1.5 + y) * (x - y) / (1 + x*x)", ne_chain, HAND_CHAIN, fuse=True,
                           numba="chain"))
    if want("transc"):
        wl.append(Workload("transc", f_transc, [u(n), u(n)], n, (1e-5, 1e-6),
                           "exp(-x*x) * sqrt(y + 1) + log1p(x)", ne_transc, HAND_TRANSC, fuse=True,
                           numba="transc"))
    if want("l2"):
        wl.append(Workload("l2", f_l2, [u(n), u(n)], 1, (1e-4, 0), "sum((x - y)**2)", ne_l2,
                           lambda ctx, a: kernels.setup_l2(ctx, *a), fuse=True, numba="l2"))
    if want("softmax"):
        wl.append(Workload("softmax", f_softmax, [u(n)], n, (1e-4, 1e-6),
                           "e = exp(x - max(x)); e / sum(e)", ne_softmax,
                           lambda ctx, a: kernels.setup_softmax(ctx, *a), numba="softmax"))
    if want("standardize"):
        wl.append(Workload("standardize", f_standardize, [u(side, side)], side * side, (1e-3, 1e-4),
                           "(X - X.mean(0)) / X.std(0)", ne_standardize,
                           lambda ctx, a: kernels.setup_standardize(ctx, *a), numba="standardize",
                           label=f"standardize {side}x{side}"))
    if want("cumsum"):
        wl.append(Workload("cumsum", f_cumsum, [u(n)], n, (1e-4, 1e-5), "cumsum(x*x)", None,
                           lambda ctx, a: kernels.setup_cumsum(ctx, *a), numba="cumsum"))
    if want("gather"):
        idx = rng.integers(0, n, n, dtype=np.int64)
        wl.append(Workload("gather", f_gather, [u(n), idx], n, (0, 0), "x[idx], idx uniform over N",
                           hand=kernels.setup_gather))
    if want("compaction"):
        wl.append(Workload("compaction", f_compaction, [u(n)], n // 2, (0, 0),
                           "x[x > 0.5], x uniform float32 (a data-dependent length)",
                           hand=lambda ctx, a: kernels.setup_compaction(ctx, *a),
                           peers_skip={"jax": "data-dependent shape: no jit",
                                       "pyopencl": "no boolean-mask indexing"}))
    if want("bincount"):
        # int64 indices: NumPy's intp (int32 would be converted first) and what torch.bincount
        # takes; NumPy, lazycl and the hand kernel return float64 bins for float32 weights.
        idx = rng.integers(0, BINS, n, dtype=np.int64)
        wl.append(Workload("bincount", f_bincount, [idx, u(n)], BINS, (1e-4, 1e-6),
                           f"bincount(idx, weights=x, minlength={BINS}), idx int64 uniform over "
                           f"{BINS} bins, x float32",
                           hand=lambda ctx, a: kernels.setup_bincount(ctx, *a, BINS),
                           nbytes=12 * n + 8 * BINS,
                           peers_skip={"pyopencl": "no bincount in pyopencl.array"}))
    if want("jacobi_2d"):
        JA, JB = jacobi_init(JACOBI_N)
        m = JACOBI_N - 2
        nomut = "immutable arrays (no in-place slice assignment)"
        wl.append(Workload("jacobi_2d", f_jacobi_2d, [JA, JB], 0, (1e-12, 1e-12),
                           f"npbench jacobi_2d, {JACOBI_STEPS} steps of B[1:-1,1:-1] = 0.2*(5-point "
                           "stencil of A); A[1:-1,1:-1] = (same of B), float64",
                           hand=lambda ctx, a: kernels.setup_jacobi(ctx, *a, JACOBI_STEPS),
                           mutates=True, nbytes=JACOBI_STEPS * 2 * 8 * (JACOBI_N ** 2 + m * m),
                           peers_skip={"jax": nomut, "dask": "setitem would grow the graph every run",
                                       "pyopencl": "no 2-d slice assignment here"},
                           stats=jacobi_stats, label=f"jacobi_2d {JACOBI_N}^2 x{JACOBI_STEPS}"))
    if want("slicewrite"):
        # x[start:stop:step] = y into an n-element float32 array: the cost should follow the
        # slice, not the array; `full` writes the whole array for comparison.
        cases = [(f"2^{k}", 1000, 1000 + (1 << k), 1) for k in (10, 16, 20) if (1 << k) + 1000 <= n]
        cases += [(f"::{k}", 0, None, k) for k in (256, 16)]
        cases.append(("full", 0, n, 1))
        for tag, start, stop, step in cases:
            ln = len(range(n)[start:stop:step])
            wl.append(Workload(f"slicewrite-{tag}", make_slicewrite(start, stop, step), [u(n), u(ln)],
                               0, (0, 0), f"x[{start}:{'' if stop is None else stop}:{step}] = y, "
                               f"{ln} of {n} elements",
                               hand=(lambda st, sp: lambda ctx, a: kernels.setup_slicewrite(
                                   ctx, *a, st, sp))(start, step),
                               mutates=True, nbytes=8 * ln,
                               peers_skip={"jax": "immutable arrays (no in-place slice assignment)",
                                           "dask": "setitem would grow the graph every run",
                                           "pyopencl": "not wired for writes"},
                               label=f"slicewrite x[{start}:{'' if stop is None else stop}:{step}] "
                                     f"({ln} el.)" if tag != "full" else f"slicewrite full x[:] ({ln} el.)"))
    no_sort = {"pyopencl": "no sort in pyopencl.array", "numba": "not expressed",
               "dask": "dask.array has no sort"}
    if want("sort"):
        wl.append(Workload("sort", f_sort, [u(n)], n, (0, 0), "sort(x), x uniform float32",
                           hand=kernels.setup_none, peers_skip=no_sort))
    if want("argsort"):
        wl.append(Workload("argsort", f_argsort, [u(n)], n, (0, 0),
                           "argsort(x), stable, x uniform float32 (distinct values)",
                           hand=kernels.setup_none, peers_skip=no_sort, nbytes=4 * n + 8 * n))
    if want("sort_rows"):
        wl.append(Workload("sort_rows", f_sort_rows, [u(side, side)], side * side, (0, 0),
                           f"sort of {side}x{side} float32 along the last axis",
                           hand=kernels.setup_none, peers_skip=no_sort))
    mm = side // 2
    no_mm = {"pyopencl": "no matmul in pyopencl.array", "numba": "not expressed"}
    flops = 2 * mm ** 3
    if want("matmul"):
        wl.append(Workload("matmul", f_matmul, [u(mm, mm) - 0.5, u(mm, mm) - 0.5], mm * mm,
                           (1e-4, 1e-4), f"A @ B, {mm}x{mm} float32 ({flops / 1e9:.0f} GFLOP)",
                           hand=kernels.setup_none, peers_skip=no_mm, label=f"matmul {mm}^2"))
    if want("matmul_relu"):
        wl.append(Workload("matmul_relu", f_matmul_relu, [u(mm, mm) - 0.5, u(mm, mm) - 0.5, u(mm)],
                           mm * mm, (1e-4, 1e-4), f"relu(A @ B + b), {mm}x{mm} float32",
                           hand=kernels.setup_none, peers_skip=no_mm,
                           label=f"relu(A @ B + b) {mm}^2"))
    if want("matmul_norm"):
        wl.append(Workload("matmul_norm", f_matmul_norm, [u(100000, 3) - 0.5, u(3, 4096) - 0.5],
                           4096, (1e-4, 1e-5), "sqrt(sum((Vd @ C) ** 2, axis=0)), Vd 100000x3, "
                           "C 3x4096 float32 (the sparse PCA's column norms)",
                           hand=kernels.setup_none, peers_skip=no_mm,
                           label="norm(Vd @ C, axis=0)"))
    tok = np.zeros(1, np.int32)
    no_rng = {"pyopencl": "no random module in pyopencl.array here",
              "dask": "not wired (dask.array.random)", "numba": "not expressed"}
    if want("random"):
        wl.append(Workload("random", make_random(n), [tok], 1, (5e-3, 0),
                           "mean(standard_normal(N, float32) ** 2), each system's generator",
                           nbytes=4, peers_skip=no_rng, hand=kernels.setup_none))
    if want("randn"):
        wl.append(Workload("randn", make_randn(n), [tok], n, (0, 0),
                           "standard_normal(N, float32) materialized, each system's generator",
                           nbytes=4 * n, peers_skip=no_rng, ref=normal_check(n),
                           hand=kernels.setup_none))
    if want("small"):
        for s in small_sizes:
            wl.append(Workload(f"small-{s:.0e}".replace("+0", ""), f_chain, [u(s), u(s)], s,
                               (1e-5, 1e-6), "chain", ne_chain, HAND_CHAIN, fuse=True, numba="chain",
                               label=f"small chain N={s:.0e}".replace("+0", "")))
    return wl


# ---- namespaces --------------------------------------------------------------------------------

class NS:
    def __init__(self, mod, **over):
        self.exp, self.sqrt, self.log1p = mod.exp, mod.sqrt, mod.log1p
        self.sum, self.max, self.cumsum = mod.sum, mod.max, mod.cumsum
        self.bincount = getattr(mod, "bincount", None)
        self.randn = self.randn_mat = None
        self.sort = getattr(mod, "sort", None)
        self.argsort = getattr(mod, "argsort", None)
        self.mean0 = lambda X: X.mean(0)
        self.std0 = lambda X: X.std(0)
        for k, v in over.items():
            setattr(self, k, v)


# ---- checking and timing ---------------------------------------------------------------------

def check(result, ref, tol):
    """(ok, max error relative to max |ref|, note); a callable ref checks the result itself."""
    if callable(ref):
        return ref(result)
    try:
        r = np.asarray(result, dtype=np.float64)
    except Exception as e:  # noqa: BLE001
        return False, float("nan"), f"not convertible: {e}"
    if r.shape != ref.shape:
        r = r.reshape(ref.shape) if r.size == ref.size else r
        if r.shape != ref.shape:
            return False, float("nan"), f"shape {r.shape} != {ref.shape}"
    rtol, arel = tol
    scale = float(np.max(np.abs(ref))) if ref.size else 1.0
    err = np.abs(r - ref)
    finite = bool(np.all(np.isfinite(r)))
    ok = finite and bool(np.all(err <= arel * scale + rtol * np.abs(ref)))
    maxrel = float(np.max(err) / scale) if ref.size and scale else float(np.max(err))
    return ok, maxrel, "" if finite else "non-finite values"


class Cell:
    def __init__(self, status, times=None, err=None, note=""):
        self.status = status      # ok | WRONG | skip | error | slow
        self.times = times or []
        self.err = err
        self.note = note

    @property
    def ms(self):
        return statistics.median(self.times) * 1e3 if self.times else None

    def json(self):
        return {"status": self.status, "median_ms": self.ms, "times_s": self.times,
                "max_rel_err": self.err, "note": self.note}


class Timer:
    """A checked, warmed-up system, ready to be timed one run at a time."""

    def __init__(self, run, sync):
        self.run, self.sync, self.times = run, sync, []
        self.warm_s = 0.0

    def once(self):
        t0 = time.perf_counter()
        r = self.run()
        self.sync(r)
        dt = time.perf_counter() - t0
        del r
        return dt


MAX_RUN_S = 3.0   # a system whose warm run takes longer is reported from that one run


def setup_system(prepare, run, sync, to_np, ref, tol):
    """prepare() -> state; run(state) -> result. Runs once and checks the result against the
    reference, then warms up once more: a Timer, or a Cell (WRONG / error)."""
    try:
        st = prepare()
        r = run(st)
        sync(r)
        ok, err, note = check(to_np(r), ref, tol)
        del r
        tm = Timer(lambda: run(st), sync)
        tm.err = err
        tm.wrong = None if ok else (note or f"max error {err:.3g} of max|ref|")
        if not ok and note:     # non-finite: not worth timing
            return Cell("WRONG", err=err, note=tm.wrong)
        tm.warm_s = tm.once()
        if tm.warm_s > MAX_RUN_S:
            return Cell("WRONG" if tm.wrong else "slow", [tm.warm_s], err,
                        tm.wrong or f"one run took {tm.warm_s:.1f} s (> {MAX_RUN_S:g} s): one timed run only")
        return tm
    except Exception as e:  # noqa: BLE001
        msg = f"{type(e).__name__}: {e}".splitlines()[0][:200]
        return Cell("error", note=msg)


def time_interleaved(timers, reps, budget_s, pre_run=False):
    """Round-robin over the systems, one run each per round, so that the drift of a shared
    machine falls on every system alike. At least `reps` rounds; more (up to 200) when a round
    is fast, to about budget_s seconds per system. With pre_run, each fast system first runs
    once untimed in its turn, so that no system pays for the one before it: on GPUs switching
    between CUDA peers and OpenCL costs ~0.2 ms; on a 2-core CPU numexpr's worker threads
    slowed the next system by ~30% (measured on l2: lazycl/hand 1.33 interleaved, 0.9-1.0
    with the untimed run or without numexpr)."""
    live = {k: t for k, t in timers.items()}
    round_s = sum(t.warm_s for t in live.values())
    if round_s > 0:
        reps = int(min(200, max(reps, budget_s * len(live) / round_s)))
    cells = {}
    for _ in range(reps):
        for k, t in live.items():
            try:
                if pre_run and t.warm_s < 0.05:
                    t.once()   # untimed: pays the switch between device APIs (CUDA <-> OpenCL)
                t.times.append(t.once())
            except Exception as e:  # noqa: BLE001
                cells[k] = Cell("error", note=f"{type(e).__name__}: {e}"[:200])
        for k in cells:
            live.pop(k, None)
    for k, t in timers.items():
        if k not in cells:
            bad = getattr(t, "wrong", None)
            cells[k] = Cell("WRONG" if bad else "ok", t.times, t.err, bad or "")
    return cells


# ---- peers -------------------------------------------------------------------------------------

def detect(name):
    try:
        mod = __import__(name)
        return mod, getattr(mod, "__version__", "?")
    except Exception as e:  # noqa: BLE001
        return None, f"not installed ({type(e).__name__})"


def _noop(r):
    pass


def numba_impls(numba):
    from numba import njit, prange

    @njit(parallel=True, fastmath=False)
    def axpy(x, y):
        out = np.empty_like(x)
        for i in prange(x.size):
            out[i] = np.float32(A) * x[i] + y[i]
        return out

    @njit(parallel=True)
    def chain(x, y):
        out = np.empty_like(x)
        for i in prange(x.size):
            a, b = x[i], y[i]
            out[i] = (a * np.float32(1.5) + b) * (a - b) / (np.float32(1) + a * a)
        return out

    @njit(parallel=True)
    def transc(x, y):
        out = np.empty_like(x)
        for i in prange(x.size):
            a, b = x[i], y[i]
            out[i] = np.exp(-a * a) * np.sqrt(b + np.float32(1)) + np.log1p(a)
        return out

    @njit(parallel=True)
    def l2(x, y):
        s = 0.0
        for i in prange(x.size):
            d = x[i] - y[i]
            s += d * d
        return np.float32(s)

    @njit(parallel=True)
    def softmax(x):
        m = -np.inf
        for i in prange(x.size):
            m = max(m, x[i])
        m32 = np.float32(m)
        out = np.empty_like(x)
        s = 0.0
        for i in prange(x.size):
            e = np.exp(x[i] - m32)
            out[i] = e
            s += e
        s32 = np.float32(s)
        for i in prange(x.size):
            out[i] = out[i] / s32
        return out

    @njit(parallel=True)
    def standardize(X):
        R, C = X.shape
        mean = np.zeros(C)
        sq = np.zeros(C)
        nb = 64
        for j0 in prange((C + nb - 1) // nb):      # column blocks, rows inner: contiguous rows
            for i in range(R):
                for j in range(j0 * nb, min(C, j0 * nb + nb)):
                    v = np.float64(X[i, j])
                    mean[j] += v
                    sq[j] += v * v
        m32 = np.empty(C, np.float32)
        s32 = np.empty(C, np.float32)
        for j in range(C):
            m = mean[j] / R
            m32[j] = m
            s32[j] = np.sqrt(max(sq[j] / R - m * m, 0.0))
        out = np.empty_like(X)
        for i in prange(R):
            for j in range(C):
                out[i, j] = (X[i, j] - m32[j]) / s32[j]
        return out

    @njit
    def cumsum(x):
        out = np.empty_like(x)
        s = 0.0
        for i in range(x.size):
            s += x[i] * x[i]
            out[i] = s
        return out

    return dict(axpy=axpy, chain=chain, transc=transc, l2=l2, softmax=softmax,
                standardize=standardize, cumsum=cumsum)


def build_peers(args, gpu):
    """Systems beyond lazycl / NumPy / numexpr / hand-written: name -> (factory or None, note)."""
    peers = {}
    notes = {}
    skip = set(args.skip.split(",")) if args.skip else set()

    numba, v = detect("numba")
    if numba and "numba" not in skip:
        try:
            impl = numba_impls(numba)
            peers["numba"] = ("numba " + v, lambda w: _numba_system(impl, w))
        except Exception as e:  # noqa: BLE001
            notes["numba"] = f"import failed: {e}"
    else:
        notes["numba"] = v if not numba else "skipped"

    dask, v = detect("dask")
    if dask and "dask" not in skip:
        try:
            import dask.array as da
            dns = NS(da)
            peers["dask"] = ("dask " + v, lambda w: _dask_system(da, dns, w))
        except Exception as e:  # noqa: BLE001
            notes["dask"] = f"dask.array unavailable: {e}"
    else:
        notes["dask"] = v if not dask else "skipped"

    jax, v = detect("jax")
    if jax and "jax" not in skip:
        import jax.numpy as jnp
        # jnp.bincount under jit needs a static length (the bins: no index reaches it here)
        jrand = (lambda n, tok: jax.random.normal(
            jax.random.fold_in(jax.random.PRNGKey(0), tok[0]), (n,), dtype=jnp.float32))
        jns = NS(jnp, bincount=lambda i, weights=None, minlength=0:
                 jnp.bincount(i, weights, minlength=minlength, length=minlength),
                 randn=jrand, randn_mat=jrand)
        peers["jax"] = (f"jax {v} jit ({jax.default_backend()})", lambda w: _jax_system(jax, jns, w))
    else:
        notes["jax"] = v if not jax else "skipped"

    pyopencl, v = detect("pyopencl")
    if pyopencl and "pyopencl" not in skip:
        peers["pyopencl"] = ("pyopencl " + v + " (eager arrays)", lambda w: _pyopencl_system(args, w))
    else:
        notes["pyopencl"] = v if not pyopencl else "skipped"

    if gpu:
        cupy, v = detect("cupy")
        if cupy and "cupy" not in skip:
            crand = (lambda n, tok: cupy.random.standard_normal(n, dtype=cupy.float32))
            cns = NS(cupy, randn=crand, randn_mat=crand)
            peers["cupy"] = ("cupy " + v, lambda w: _cupy_system(cupy, cns, w, False))
            if "cupy.fuse" not in skip:
                peers["cupy.fuse"] = ("cupy.fuse", lambda w: _cupy_system(cupy, cns, w, True))
        else:
            notes["cupy"] = v if not cupy else "skipped"
    else:
        notes["cupy"] = "GPU-only peer (CPU device)"

    torch, v = detect("torch")
    if torch and "torch" not in skip:
        tdev = "cuda" if gpu and torch.cuda.is_available() else "cpu"
        trand = (lambda n, tok: torch.randn(n, device=tdev))
        tns = NS(torch, cumsum=lambda x: torch.cumsum(x, 0),
                 std0=lambda X: X.std(0, correction=0), randn=trand, randn_mat=trand,
                 sort=lambda x: torch.sort(x).values,
                 argsort=lambda x: torch.argsort(x, stable=True))
        peers["torch"] = (f"torch {v} eager ({tdev})", lambda w: _torch_system(torch, tns, tdev, w, False))
        if "torch.compile" not in skip:
            peers["torch.compile"] = (f"torch.compile ({tdev})",
                                      lambda w: _torch_system(torch, tns, tdev, w, True))
        else:
            notes["torch.compile"] = "skipped"
    else:
        notes["torch"] = v if not torch else "skipped"

    pyclblast, v = detect("pyclblast")
    if pyclblast and "clblast" not in skip:
        peers["clblast"] = ("CLBlast (pyclblast " + v + ")", lambda w: _clblast_system(args, w))
    else:
        notes["clblast"] = v if not pyclblast else "skipped"

    dpnp, v = detect("dpnp")
    notes["dpnp"] = v if not dpnp else "installed, not wired into this suite"
    return peers, notes


# Each *_system returns (prepare, run, sync, to_np) or raises/returns a string (skip note).

def _numba_system(impl, w):
    key = w.numba
    if key is None:
        return "not expressed"
    f = impl[key]
    return (lambda: w.inputs, lambda st: f(*st), _noop, lambda r: r)


def _dask_system(da, dns, w):
    def prep():
        return [da.from_array(a, chunks=max(1, a.shape[0] // 8)) if a.ndim == 1 else
                da.from_array(a, chunks=(max(1, a.shape[0] // 8), a.shape[1])) for a in w.inputs]
    return (prep, lambda st: w.fn(dns, *st).compute(), _noop, lambda r: r)


def _jax_system(jax, jns, w):
    f = jax.jit(lambda *a: w.fn(jns, *a))
    return (lambda: [jax.device_put(a) for a in w.inputs], lambda st: f(*st),
            lambda r: r.block_until_ready(), lambda r: np.asarray(r))


def _cupy_system(cp, cns, w, fuse):
    if fuse:
        if not w.fuse:
            return "cupy.fuse cannot express it"
        # named functions: cupy.fuse names the CUDA kernel after the function ("<lambda>" fails)
        if len(w.inputs) == 2:
            def fused2(x, y):
                return w.fn(cns, x, y)
            f = cp.fuse(fused2, kernel_name="fused_" + w.name.replace("-", "_"))
        else:
            def fused1(x):
                return w.fn(cns, x)
            f = cp.fuse(fused1, kernel_name="fused_" + w.name.replace("-", "_"))
    else:
        def f(*a):
            return w.fn(cns, *a)
    return (lambda: [cp.asarray(a) for a in w.inputs], lambda st: f(*st),
            lambda r: cp.cuda.Device().synchronize(), lambda r: cp.asnumpy(r))


def _torch_system(torch, tns, tdev, w, compiled):
    def base(*a):
        return w.fn(tns, *a)
    f = torch.compile(base) if compiled else base
    sync = (lambda r: torch.cuda.synchronize()) if tdev == "cuda" else _noop
    def prep():
        ts = [torch.from_numpy(a).to(tdev) for a in w.inputs]
        return [t.clone() for t in ts] if w.mutates and tdev == "cpu" else ts
    return (prep, lambda st: f(*st), sync,
            lambda r: r.detach().cpu().numpy())


def _pyopencl_system(args, w):
    import pyopencl as cl
    import pyopencl.array as cla
    import pyopencl.clmath as clm
    if w.fn in (f_standardize, f_cumsum):
        return "pyopencl arrays have no axis reductions / scans here"
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    pns = NS(np, exp=clm.exp, sqrt=clm.sqrt, log1p=clm.log1p, sum=cla.sum, max=cla.max)
    return (lambda: [cla.to_device(q, a) for a in w.inputs], lambda st: w.fn(pns, *st),
            lambda r: q.finish(), lambda r: r.get())


def _clblast_system(args, w):
    """CLBlast's SGEMM on lazycl's device (the plain product only), through pyopencl."""
    if w.fn is not f_matmul:
        return "CLBlast runs the plain product only"
    import pyclblast
    import pyopencl as cl
    import pyopencl.array as cla
    name = lc.default_device().name
    devs = [d for p in cl.get_platforms() for d in p.get_devices() if d.name == name]
    if not devs:
        return f"pyopencl does not list {name}"
    ctx = cl.Context(devs[:1])
    q = cl.CommandQueue(ctx)

    def run(st):
        a, b = st
        m, k = a.shape
        n = b.shape[1]
        c = cla.empty(q, (m, n), np.float32)
        pyclblast.gemm(q, m, n, k, a, b, c, a_ld=k, b_ld=n, c_ld=n)
        return c
    return (lambda: [cla.to_device(q, a) for a in w.inputs], run, lambda r: q.finish(),
            lambda r: r.get())


def release_memory(peers):
    """Give cached device memory back between workloads (the GPU holds several peers' pools)."""
    import gc
    gc.collect()
    if "cupy" in peers:
        try:
            import cupy
            cupy.get_default_memory_pool().free_all_blocks()
        except Exception:  # noqa: BLE001
            pass
    if "torch" in peers:
        try:
            import torch
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        except Exception:  # noqa: BLE001
            pass


# ---- machine description --------------------------------------------------------------------

def machine_info(dev):
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception:  # noqa: BLE001
        commit = ""
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "host": platform.node(), "cpu": cpu, "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0], "numpy": np.__version__, "lazycl": lc.__version__,
        "git_commit": commit,
        "device": {
            "filter": dev.filter_string, "name": dev.name, "type": dev.type,
            "platform": dev.platform_name, "platform_version": dev.platform_version,
            "driver": dev.driver_version, "vendor": dev.vendor, "compute_units": dev.compute_units,
            "global_mem": dev.global_mem, "opencl_c": dev.opencl_c_version,
            "takes_spirv": dev.takes_spirv,
        },
    }


def device_kind(dev):
    parts = dev.filter_string.split(":")
    return f"{parts[1]}-{parts[0]}" if len(parts) >= 2 else dev.filter_string.replace(":", "-")


# ---- overhead --------------------------------------------------------------------------------

def graph_overhead(queue_dev, reps=300):
    x = lc.asarray(np.ones(1000, np.float32), device=queue_dev).compute()

    def build():
        r = x
        for _ in range(5):
            r = r * 1.0001
            r = r + 0.5
        return r

    for _ in range(20):
        build()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        build()
        ts.append(time.perf_counter() - t0)
    per_node_us = statistics.median(ts) / 10 * 1e6
    xn = np.ones(1000, np.float32)
    tn = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = xn
        for _ in range(5):
            r = r * np.float32(1.0001)
            r = r + np.float32(0.5)
        tn.append(time.perf_counter() - t0)
    r = build()
    lc.reset_stats()
    r.compute()
    x.queue.finish()
    s = lc.stats()
    # Where the per-call time of a forced 10-op chain goes: building the graph, compute()
    # returning (fusion, codegen, cache lookup, enqueue), then the device finishing; and the same
    # kernel hand-written through _launch. Also lc.explain (fusion + codegen, nothing run).
    q = x.queue
    out = _lazycl._alloc((1000,), np.float32, q)
    src = ("__kernel void hand_ovh(__global float *restrict o, __global const float *restrict a) {\n"
           "  const long i = get_global_id(0); float v = a[i];\n"
           "  v = v * 1.0001f + 0.5f; v = v * 1.0001f + 0.5f; v = v * 1.0001f + 0.5f;\n"
           "  v = v * 1.0001f + 0.5f; v = v * 1.0001f + 0.5f; o[i] = v; }\n")
    gpu = queue_dev.type == "gpu"
    g, l = ((1024,), (256,)) if gpu else ((1000,), None)
    if gpu:
        out = _lazycl._alloc((1024,), np.float32, q)
        x2 = lc.asarray(np.ones(1024, np.float32), device=queue_dev).compute()
    else:
        x2 = x
    _lazycl._launch(q, src, "hand_ovh", g, l, [out, x2])
    q.finish()
    # compute() and the hand-written launch take turns in one loop, so that both see the same
    # state of the driver (a CPU driver's worker threads wake up slower after an idle spell);
    # explain() has a loop of its own (between two computes it would leave them cold caches).
    tb, tc, tf, th, te = [], [], [], [], []
    for _ in range(reps // 3):
        t0 = time.perf_counter()
        r = build()
        t1 = time.perf_counter()
        r = r.compute()
        t2 = time.perf_counter()
        q.finish()
        t3 = time.perf_counter()
        _lazycl._launch(q, src, "hand_ovh", g, l, [out, x2])
        q.finish()
        t4 = time.perf_counter()
        tb.append(t1 - t0)
        tc.append(t2 - t1)
        tf.append(t3 - t2)
        th.append(t4 - t3)
        del r
    for _ in range(reps // 10):
        r = build()
        t3 = time.perf_counter()
        lc.explain(r)
        te.append(time.perf_counter() - t3)
    med = (lambda v: statistics.median(v) * 1e6)
    split = {"build_us": med(tb), "compute_return_us": med(tc), "finish_us": med(tf),
             "explain_us": med(te), "hand_launch_finish_us": med(th)}
    return {"us_per_node": per_node_us, "numpy_us_per_op_1e3": statistics.median(tn) / 10 * 1e6,
            "launches": s["launches"], "buffers": s["buffers_allocated"] + s["pool_hits"],
            "buffers_allocated": s["buffers_allocated"], "pool_hits": s["pool_hits"],
            "chain10_1e3_split": split}


# ---- main ------------------------------------------------------------------------------------

def fmt_cell(c, base):
    if c is None:
        return "—"
    if c.status == "error":
        return "error"
    if c.status == "skip":
        return "—"
    if c.status == "slow":
        return f"~{c.ms:.0f} (1 run)"
    tag = ""
    if c.status == "WRONG":
        tag = f"**WRONG** ({c.err:.2g})" if c.err == c.err else "**WRONG**"
        if not c.times:
            return tag
        tag += " "
    ms = c.ms
    s = f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"
    if base and base.status == "ok" and base.ms:
        s += f" (x{ms / base.ms:.2g})"
    return tag + s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default=None, help="lazycl device filter (default: lazycl's default)")
    ap.add_argument("--n", type=int, default=None, help="elements (default 2^24 CPU, 2^28 GPU)")
    ap.add_argument("--side", type=int, default=None, help="standardize matrix side (4096 CPU, 16384 GPU)")
    ap.add_argument("--quick", action="store_true", help="a fast smoke run (N = 2^20, 3 reps)")
    ap.add_argument("--only", default=None, help="comma-separated workloads")
    ap.add_argument("--reps", type=int, default=7, help="timed runs per cell (at least)")
    ap.add_argument("--skip", default="", help="comma-separated peers to leave out (e.g. torch.compile)")
    ap.add_argument("--max-run-s", type=float, default=3.0,
                    help="report a system whose single run takes longer from that run alone")
    ap.add_argument("--dask-log2n", type=int, default=None,
                    help="log2 of the dask_standardize row's elements (26 CPU, 28 GPU, 20 quick)")
    ap.add_argument("--tag", default="", help="a suffix for the result files' names")
    ap.add_argument("--out", default=os.path.join(HERE, "results"), help="results directory")
    args = ap.parse_args(argv)
    globals()["MAX_RUN_S"] = args.max_run_s

    dev = lc.Device(args.device) if args.device else lc.default_device()
    gpu = dev.type == "gpu"
    n = args.n or (1 << 20 if args.quick else (1 << 28 if gpu else 1 << 24))
    side = args.side or (1024 if args.quick else (16384 if gpu else 4096))
    reps = 3 if args.quick and args.reps == 7 else args.reps
    budget = 0.05 if args.quick else 1.0          # seconds per fast cell (more reps when fast)
    small = [1000, 100000] if args.quick else [1000, 10000, 20000, 50000, 100000, 1000000]
    only = set(args.only.split(",")) if args.only else None

    info = machine_info(dev)
    print(f"lazycl benchmarks on {dev.filter_string}: {dev.name} ({dev.platform_name}, driver "
          f"{dev.driver_version}, {dev.compute_units} CU)")
    print(f"host: {info['cpu']} x{info['cpu_count']}, numpy {np.__version__}, N = {n}, "
          f"standardize {side}x{side}, reps >= {reps}")

    # The copy-bandwidth ceiling, measured in this run.
    t0 = time.perf_counter()
    bw = _lazycl._runtime_bench(dev, 4 * min(n, 1 << 28), 5)
    bw_gbps = max(bw["d2d_GBps"], bw["d2d_kernel_GBps"])
    print(f"copy bandwidth: clEnqueueCopyBuffer {bw['d2d_GBps']:.1f} GB/s, copy kernel "
          f"{bw['d2d_kernel_GBps']:.1f} GB/s (ceiling uses {bw_gbps:.1f}); h2d {bw['h2d_GBps']:.1f}, "
          f"d2h {bw['d2h_GBps']:.1f} GB/s; launch+finish {bw['launch_us']:.0f} us "
          f"({time.perf_counter() - t0:.1f} s)")

    ne, ne_v = detect("numexpr")
    peers, peer_notes = build_peers(args, gpu)
    systems = ["lazycl", "lazycl e2e", "numpy"] + (["numexpr"] if ne else []) + ["hand"] + list(peers)
    print("systems: " + ", ".join(systems))
    for k, v in peer_notes.items():
        print(f"  {k}: {v}")

    queue = lc.asarray(np.zeros(1, np.float32), device=dev).queue
    ctx = kernels.HandContext(dev, queue)
    lrng, nrng = lc.random.default_rng(0, device=dev), np.random.default_rng(0)
    lns = NS(lc, randn=lambda n, tok: lrng.standard_normal(n, dtype=np.float32),
             randn_mat=lambda n, tok: lc.copy(lrng.standard_normal(n, dtype=np.float32)))
    nrand = (lambda n, tok: nrng.standard_normal(n, dtype=np.float32))
    npns = NS(np, randn=nrand, randn_mat=nrand,
              argsort=lambda x: np.argsort(x, kind="stable"))
    wls = build_workloads(n, side, small, only)

    results = []
    for w in wls:
        t_w = time.perf_counter()
        ref = w.ref if w.ref is not None else np.asarray(
            w.fn(npns, *[a.astype(np.float64) if a.dtype.kind == "f" else a for a in w.inputs]),
            dtype=np.float64)
        cells = {}

        def fresh_lc():
            r = [lc.asarray(a, device=dev).compute() for a in w.inputs]
            queue.finish()
            return r
        lc_in = fresh_lc()
        # A workload that writes into its inputs checks each system on fresh copies of them.
        np_in = (lambda: [a.copy() for a in w.inputs]) if w.mutates else (lambda: w.inputs)

        cells["lazycl"] = setup_system(
            lambda: lc_in, lambda st: w.fn(lns, *st).compute(), lambda r: queue.finish(),
            lambda r: np.asarray(r), ref, w.tol)
        # kernels and buffers per forced result
        stats = {}
        try:
            lc.reset_stats()
            r = w.fn(lns, *lc_in).compute()
            queue.finish()
            s = lc.stats()
            del r
            stats = {"launches": s["launches"], "buffers_allocated": s["buffers_allocated"],
                     "pool_hits": s["pool_hits"], "kernels_compiled": s["kernels_compiled"]}
            stats["plan"] = str(lc.explain(w.fn(lns, *lc_in)))
        except Exception as e:  # noqa: BLE001
            stats = {"error": str(e)}
        row_note = ""
        if w.stats:
            try:
                extra, row_note = w.stats(lns, lc_in, queue)
                stats.update(extra)
            except Exception as e:  # noqa: BLE001
                row_note = f"stats failed: {type(e).__name__}: {e}"[:200]

        cells["lazycl e2e"] = setup_system(
            lambda: w.inputs,
            lambda st: np.asarray(w.fn(lns, *[lc.asarray(a, device=dev) for a in st])),
            _noop, lambda r: r, ref, w.tol)
        cells["numpy"] = setup_system(np_in, lambda st: w.fn(npns, *st), _noop,
                                    lambda r: r, ref, w.tol)
        if ne:
            if w.ne is None:
                cells["numexpr"] = Cell("skip", note="numexpr cannot express it (no scans, "
                                        "gathers or writes)")
            else:
                cells["numexpr"] = setup_system(np_in, lambda st: w.ne(ne, *st), _noop,
                                              lambda r: r, ref, w.tol)
        hand_src = []
        try:
            hrun = w.hand(ctx, fresh_lc() if w.mutates else lc_in)
            hand_src = kernels.sources(hrun)
            cells["hand"] = setup_system(lambda: None, lambda st: hrun(), lambda r: queue.finish(),
                                       lambda r: np.asarray(r), ref, w.tol)
        except NotImplementedError as e:
            cells["hand"] = Cell("skip", note=str(e)[:300])
        except Exception as e:  # noqa: BLE001
            cells["hand"] = Cell("error", note=f"{type(e).__name__}: {e}"[:300])
        for name, (label, factory) in peers.items():
            why = w.peers_skip.get(name.split(".")[0])
            if why:
                cells[name] = Cell("skip", note=why)
                continue
            try:
                sysdef = factory(w)
            except Exception as e:  # noqa: BLE001
                cells[name] = Cell("error", note=f"{type(e).__name__}: {e}"[:200])
                continue
            if isinstance(sysdef, str):
                cells[name] = Cell("skip", note=sysdef)
                continue
            prep, run, sync, to_np = sysdef
            cells[name] = setup_system(prep, run, sync, to_np, ref, w.tol)
        timers = {k: c for k, c in cells.items() if isinstance(c, Timer)}
        timed = time_interleaved(timers, reps, budget, pre_run=True)
        cells = {k: timed.get(k, c) for k, c in cells.items()}
        del lc_in, timers, timed
        release_memory(peers)

        base = cells["lazycl"]
        row = {"workload": w.name, "label": w.label, "expr": w.expr, "n": w.n, "bytes": w.bytes,
               "tolerance": w.tol,
               "cells": {k: c.json() for k, c in cells.items()}, "lazycl_stats": stats,
               "hand_sources": hand_src, "wall_s": time.perf_counter() - t_w, "note": row_note}
        if base.status == "ok":
            row["lazycl_ms"] = base.ms
            h = cells.get("hand")
            if h and h.status == "ok":
                row["lazycl_over_hand"] = base.ms / h.ms
        results.append(row)
        line = "  ".join(f"{k}={fmt_cell(c, base)}" for k, c in cells.items())
        print(f"{w.label:<26} {line}  kernels={stats.get('launches')}  [{row['wall_s']:.1f} s]", flush=True)
        for k, c in cells.items():
            if c.status in ("WRONG", "error"):
                print(f"    {k}: {c.status} {c.note}")
        if row_note:
            print(f"    note: {row_note}")

    if (only is None or "dask_standardize" in only) and "dask_standardize" not in args.skip.split(","):
        # the cluster row (benchmarks/cluster.py): its own LocalClusters, built apart
        import cluster
        t_w = time.perf_counter()
        log2n = args.dask_log2n or (20 if args.quick else (28 if gpu else 26))
        row = cluster.dask_standardize_row(dev, lc, Cell, log2n, reps)
        row["wall_s"] = time.perf_counter() - t_w
        results.append(row)
        cells = {k: Cell(v["status"], v["times_s"], v["max_rel_err"], v["note"])
                 for k, v in row["cells"].items()}
        line = "  ".join(f"{k}={fmt_cell(c, cells.get('lazycl'))}" for k, c in cells.items())
        print(f"{row['label']:<26} {line}  [{row['wall_s']:.1f} s]", flush=True)
        if row["note"]:
            print(f"    note: {row['note']}")

    bw_end = _lazycl._runtime_bench(dev, 4 * min(n, 1 << 28), 5)
    bw_gbps = max(bw_gbps, bw_end["d2d_GBps"], bw_end["d2d_kernel_GBps"])
    print(f"copy bandwidth at the end: {bw_end['d2d_GBps']:.1f} / {bw_end['d2d_kernel_GBps']:.1f} GB/s; "
          f"the ceilings use the best seen, {bw_gbps:.1f} GB/s")
    for row in results:   # ceilings from the best copy bandwidth seen in this run
        row["bandwidth_ceiling_ms"] = row["bytes"] / (bw_gbps * 1e9) * 1e3
        if "lazycl_ms" in row:
            row["pct_of_bandwidth_ceiling"] = 100 * row["bandwidth_ceiling_ms"] / row["lazycl_ms"]
    ovh = graph_overhead(dev)
    print(f"graph building: {ovh['us_per_node']:.2f} us per node (NumPy eager op on 1e3 floats: "
          f"{ovh['numpy_us_per_op_1e3']:.2f} us); a 10-op chain: {ovh['launches']} launch, "
          f"{ovh['buffers']} buffer(s) (allocated {ovh['buffers_allocated']} + pool hits {ovh['pool_hits']})")
    sp = ovh["chain10_1e3_split"]
    print(f"per call (10-op chain, 1e3 floats): build {sp['build_us']:.0f} us, compute() (which waits "
          f"for the device) {sp['compute_return_us']:.0f} us, a finish() after it {sp['finish_us']:.0f} us; explain "
          f"{sp['explain_us']:.0f} us; the hand-written kernel's launch + finish {sp['hand_launch_finish_us']:.0f} us")

    # ---- write results ----
    date = datetime.datetime.now().strftime("%Y-%m-%d")
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, f"{device_kind(dev)}-{date}" + ("-quick" if args.quick else "")
                        + (f"-{args.tag}" if args.tag else ""))
    systems_used = [s for s in systems if any(s in r["cells"] for r in results)]
    doc = {"benchmark": "lazycl fusion suite", "machine": info, "n": n, "side": side, "reps": reps,
           "bandwidth": bw, "bandwidth_end": bw_end, "bandwidth_ceiling_GBps": bw_gbps, "systems": systems_used,
           "peer_labels": {k: v[0] for k, v in peers.items()}, "peer_notes": peer_notes,
           "numexpr": ne_v, "graph_overhead": ovh, "results": results,
           "ratio_convention": "system median / lazycl device-resident median"}
    with open(stem + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    md = render_md(doc, dev, systems_used)
    chart = write_chart(doc, systems_used, stem + ".png")
    md += f"\n{chart}\n"
    with open(stem + ".md", "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"wrote {stem}.json, {stem}.md")
    return 0


def render_md(doc, dev, systems):
    m = doc["machine"]
    bw = doc["bandwidth"]
    out = [f"# lazycl benchmarks — {dev.filter_string}, {m['date']}", "",
           f"- device: {m['device']['name']} ({m['device']['platform']}, driver {m['device']['driver']}, "
           f"{m['device']['compute_units']} CU)",
           f"- host: {m['cpu']} x{m['cpu_count']}; Python {m['python']}, NumPy {m['numpy']}, "
           f"lazycl {m['lazycl']} ({m['git_commit']})",
           f"- copy bandwidth (this run, start / end): {bw['d2d_GBps']:.1f} / {doc['bandwidth_end']['d2d_GBps']:.1f} GB/s "
           f"clEnqueueCopyBuffer, {bw['d2d_kernel_GBps']:.1f} / {doc['bandwidth_end']['d2d_kernel_GBps']:.1f} GB/s "
           f"copy kernel (ceilings use the best, {doc['bandwidth_ceiling_GBps']:.1f} GB/s); h2d {bw['h2d_GBps']:.1f}, d2h "
           f"{bw['d2h_GBps']:.1f} GB/s; launch+finish {bw['launch_us']:.0f} µs",
           f"- N = {doc['n']}, median of ≥ {doc['reps']} runs after warm-up. Cells: ms (x ratio to "
           "lazycl device-resident; >1 = slower than lazycl). `lazycl e2e` = NumPy in → NumPy out. "
           "`ceiling` = bytes that must move / copy bandwidth.", ""]
    hdr = ["workload"] + systems + ["lazycl/hand", "ceiling ms", "% of ceiling", "kernels", "buffers"]
    out.append("| " + " | ".join(hdr) + " |")
    out.append("|" + "---|" * len(hdr))
    for r in doc["results"]:
        cells = {k: Cell(v["status"], v["times_s"], v["max_rel_err"], v["note"]) for k, v in r["cells"].items()}
        base = cells.get("lazycl")
        row = [r["label"]] + [fmt_cell(cells.get(s), base) for s in systems]
        row.append(f"{r['lazycl_over_hand']:.2f}" if "lazycl_over_hand" in r else "—")
        row.append(f"{r['bandwidth_ceiling_ms']:.3g}")
        row.append(f"{r['pct_of_bandwidth_ceiling']:.0f}%" if "pct_of_bandwidth_ceiling" in r else "—")
        st = r["lazycl_stats"]
        row.append(str(st.get("launches", "?")))
        row.append(str(st.get("buffers_allocated", 0) + st.get("pool_hits", 0)) if "launches" in st else "?")
        out.append("| " + " | ".join(row) + " |")
    o = doc["graph_overhead"]
    out += ["", f"Graph building from Python: {o['us_per_node']:.2f} µs per node (a NumPy eager op on "
            f"1e3 floats: {o['numpy_us_per_op_1e3']:.2f} µs). A 10-op chain forced: {o['launches']} "
            f"kernel launch, {o['buffers']} buffer (allocated {o['buffers_allocated']} + pool hits "
            f"{o['pool_hits']}) — {'OK' if o['buffers'] == 1 and o['launches'] == 1 else 'EXPECTED 1 and 1'}.",
            "", "Per-call time of that chain on 1e3 floats: build {build_us:.0f} µs, `compute()` (plan-cache "
            "lookup, launch, and the wait for the device) {compute_return_us:.0f} µs, a `finish()` after it "
            "{finish_us:.0f} µs more (the queue is idle by then); `lc.explain` (fusion + codegen only) "
            "{explain_us:.0f} µs; the same kernel hand-written, launch + finish: {hand_launch_finish_us:.0f} µs "
            "(taken in turns with `compute()`).".format(**o["chain10_1e3_split"]),
            "", "`kernels` = lazycl launches per forced result; `buffers` = buffers_allocated + "
            "pool_hits per forced result (scratch included).", ""]
    notes = []
    for r in doc["results"]:
        if r.get("note"):
            notes.append(f"- {r['label']}: {r['note']}")
        for k, v in r["cells"].items():
            if v["status"] in ("WRONG", "error", "skip", "slow") and v["note"]:
                notes.append(f"- {r['label']} / {k}: {v['status']} — {v['note']}")
    for k, v in doc["peer_notes"].items():
        notes.append(f"- peer {k}: {v}")
    notes.append(f"- numexpr: {doc['numexpr']}")
    out += ["Notes:", ""] + notes
    return "\n".join(out) + "\n"


def write_chart(doc, systems, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # noqa: BLE001
        return f"(no chart: matplotlib not importable — {type(e).__name__})"
    rows = [r for r in doc["results"] if r["cells"].get("lazycl", {}).get("status") == "ok"]
    fig, ax = plt.subplots(figsize=(max(8, 1.3 * len(rows)), 5))
    width = 0.8 / max(1, len(systems))
    for j, s in enumerate(systems):
        vals = []
        for r in rows:
            c, b = r["cells"].get(s), r["cells"]["lazycl"]
            vals.append(c["median_ms"] / b["median_ms"] if c and c["status"] == "ok" else 0)
        ax.bar([i + j * width for i in range(len(rows))], vals, width, label=s)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))])
    ax.set_xticklabels([r["workload"] for r in rows], rotation=30)
    ax.set_yscale("log")
    ax.axhline(1, color="k", lw=0.5)
    ax.set_ylabel("time / lazycl time (lower is faster)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return f"![chart]({os.path.basename(path)})"


if __name__ == "__main__":
    sys.exit(main())
