"""The suite's workloads (benchmarks/run.py): each expression written once against a small
namespace `ns` (peers.NS) so that NumPy, lazycl, CuPy, JAX, Dask and PyTorch run the very same
code, with its inputs, tolerance, numexpr form, hand-written kernel and the peers that cannot
express it (a reason each)."""
import math

import numpy as np

import lazycl as lc

import kernels
from selection import (TOPK, f_spca, f_spca_loop, f_topk, spca_bytes, spca_check, spca_flops,
                       spca_inputs, spca_jax, spca_loop_inputs, spca_torch, topk_check)

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


# User kernels (issue 30): the same axpy and l2 as ElementwiseKernel / ReductionKernel where the
# library has them (lazycl; CuPy), else as the plain expression. One kernel object per module.
_USER = {}


def _user_kernels(mod):
    if mod not in _USER:
        ek, rk = getattr(mod, "ElementwiseKernel", None), getattr(mod, "ReductionKernel", None)
        _USER[mod] = (
            ek and ek("T x, T y", "T z", "z = (T)2.5 * x + y", "user_axpy"),
            rk and rk("T x, T y", "T z", "(x - y) * (x - y)", "a + b", "z = a", "0", "user_l2"))
    return _USER[mod]


def f_user_elementwise(ns, x, y):
    k = _user_kernels(ns.mod)[0]
    return k(x, y) if k else A * x + y


def f_user_reduction(ns, x, y):
    k = _user_kernels(ns.mod)[1]
    return k(x, y) if k else ns.sum((x - y) ** 2)


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


# JAX's arrays are immutable: its spelling of a write is .at[].set, a new array (under jit XLA
# may write in place only into a donated buffer; the suite reruns on the same inputs, so none is
# donated and the whole array is written).

def jax_jacobi_2d(jax):
    def f(ns, A, B):
        for _ in range(JACOBI_STEPS):
            B = B.at[1:-1, 1:-1].set(0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]
                                            + A[2:, 1:-1] + A[:-2, 1:-1]))
            A = A.at[1:-1, 1:-1].set(0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:]
                                            + B[2:, 1:-1] + B[:-2, 1:-1]))
        return A
    return f


def jax_slicewrite(start, stop, step):
    def make(jax):
        def f(ns, x, y):
            return x.at[start:stop:step].set(y)
        return f
    return make


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
                 stats=None, ref=None, impl=None):
        self.impl = impl or {}        # peer name -> fn(ns, *inputs) where w.fn does not fit it
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


def build_workloads(n, side, small_sizes, only, spca=(100000, 4096)):
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
    if want("user_elementwise"):
        wl.append(Workload("user_elementwise", f_user_elementwise, [u(n), u(n)], n, (1e-5, 1e-6),
                           "ElementwiseKernel: z = 2.5 * x + y", ne_axpy, HAND_AXPY,
                           numba="axpy"))
    if want("user_reduction"):
        wl.append(Workload("user_reduction", f_user_reduction, [u(n), u(n)], 1, (1e-4, 0),
                           "ReductionKernel: sum((x - y)**2)", ne_l2,
                           lambda ctx, a: kernels.setup_l2(ctx, *a), numba="l2"))
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
                           hand=kernels.setup_gather, numba="gather"))
    if want("compaction"):
        wl.append(Workload("compaction", f_compaction, [u(n)], n // 2, (0, 0),
                           "x[x > 0.5], x uniform float32 (a data-dependent length)",
                           hand=lambda ctx, a: kernels.setup_compaction(ctx, *a), numba="compaction",
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
                           nbytes=12 * n + 8 * BINS, numba="bincount",
                           peers_skip={"pyopencl": "no bincount in pyopencl.array"}))
    if want("jacobi_2d"):
        JA, JB = jacobi_init(JACOBI_N)
        m = JACOBI_N - 2
        wl.append(Workload("jacobi_2d", f_jacobi_2d, [JA, JB], 0, (1e-12, 1e-12),
                           f"npbench jacobi_2d, {JACOBI_STEPS} steps of B[1:-1,1:-1] = 0.2*(5-point "
                           "stencil of A); A[1:-1,1:-1] = (same of B), float64",
                           hand=lambda ctx, a: kernels.setup_jacobi(ctx, *a, JACOBI_STEPS),
                           mutates=True, nbytes=JACOBI_STEPS * 2 * 8 * (JACOBI_N ** 2 + m * m),
                           numba=("jacobi_2d", (JACOBI_STEPS,)),
                           impl={"jax": jax_jacobi_2d},
                           peers_skip={"dask": "setitem would grow the graph every run",
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
                               numba=("slicewrite", (start, n if stop is None else stop, step)),
                               mutates=True, nbytes=8 * ln,
                               impl={"jax": jax_slicewrite(start, stop, step)},
                               peers_skip={"dask": "setitem would grow the graph every run",
                                           "pyopencl": "not wired for writes"},
                               label=f"slicewrite x[{start}:{'' if stop is None else stop}:{step}] "
                                     f"({ln} el.)" if tag != "full" else f"slicewrite full x[:] ({ln} el.)"))
    no_sort = {"pyopencl": "no sort in pyopencl.array", "dask": "dask.array has no sort"}
    if want("sort"):
        wl.append(Workload("sort", f_sort, [u(n)], n, (0, 0), "sort(x), x uniform float32",
                           hand=kernels.setup_none, peers_skip=no_sort, numba="sort"))
    if want("argsort"):
        wl.append(Workload("argsort", f_argsort, [u(n)], n, (0, 0),
                           "argsort(x), stable, x uniform float32 (distinct values)",
                           hand=kernels.setup_none, peers_skip=no_sort, nbytes=4 * n + 8 * n,
                           numba="argsort"))
    if want("sort_rows"):
        wl.append(Workload("sort_rows", f_sort_rows, [u(side, side)], side * side, (0, 0),
                           f"sort of {side}x{side} float32 along the last axis",
                           hand=kernels.setup_none, peers_skip=no_sort, numba="sort_rows"))
    no_topk = {"pyopencl": "no top-k or sort in pyopencl.array"}
    if want("topk"):
        wl.append(Workload("topk", f_topk, [u(n)], 2 * TOPK, (0, 0),
                           f"top_k(x, {TOPK}): values and indices, x uniform float32",
                           hand=kernels.setup_none, peers_skip=no_topk, numba="topk",
                           ref=None, nbytes=4 * n + 12 * TOPK, label=f"top_k {TOPK} of N"))
        wl[-1].ref = topk_check(wl[-1].inputs[0], TOPK)
    if want("topk_rows"):
        wl.append(Workload("topk_rows", f_topk, [u(side, side)], 2 * TOPK * side, (0, 0),
                           f"top_k(X, {TOPK}) along the last axis of {side}x{side} float32: "
                           "values and indices per row", hand=kernels.setup_none,
                           peers_skip=no_topk, numba="topk_rows", nbytes=4 * side * side +
                           12 * TOPK * side, label=f"top_k {TOPK} per row {side}^2"))
        wl[-1].ref = topk_check(wl[-1].inputs[0], TOPK)
    mm = side // 2
    no_mm = {"pyopencl": "no matmul in pyopencl.array"}
    flops = 2 * mm ** 3
    if want("matmul"):
        wl.append(Workload("matmul", f_matmul, [u(mm, mm) - 0.5, u(mm, mm) - 0.5], mm * mm,
                           (1e-4, 1e-4), f"A @ B, {mm}x{mm} float32 ({flops / 1e9:.0f} GFLOP)",
                           hand=kernels.setup_none, peers_skip=no_mm, label=f"matmul {mm}^2",
                           numba="matmul"))
    if want("matmul_relu"):
        wl.append(Workload("matmul_relu", f_matmul_relu, [u(mm, mm) - 0.5, u(mm, mm) - 0.5, u(mm)],
                           mm * mm, (1e-4, 1e-4), f"relu(A @ B + b), {mm}x{mm} float32",
                           hand=kernels.setup_none, peers_skip=no_mm, numba="matmul_relu",
                           label=f"relu(A @ B + b) {mm}^2"))
    if want("matmul_norm"):
        wl.append(Workload("matmul_norm", f_matmul_norm, [u(100000, 3) - 0.5, u(3, 4096) - 0.5],
                           4096, (1e-4, 1e-5), "sqrt(sum((Vd @ C) ** 2, axis=0)), Vd 100000x3, "
                           "C 3x4096 float32 (the sparse PCA's column norms)",
                           hand=kernels.setup_none, peers_skip=no_mm, numba="matmul_norm",
                           label="norm(Vd @ C, axis=0)"))
    # Skinny products (npbench's mlp at its small size, a matrix-vector product): the cost is
    # reading W (or A) once.
    if want("mlp"):
        wl.append(Workload("mlp", f_matmul_relu, [u(8, 30000) - 0.5, u(30000, 2000) - 0.5,
                                                  u(2000)],
                           8 * 2000, (1e-4, 1e-4), "relu(x @ W + b), x 8x30000, W 30000x2000 "
                           "float32 (npbench's mlp, small)", hand=kernels.setup_none,
                           peers_skip=no_mm, numba="matmul_relu", label="mlp relu(x @ W + b)"))
    if want("gemv"):
        wl.append(Workload("gemv", f_matmul, [u(2000, 30000) - 0.5, u(30000) - 0.5], 2000,
                           (1e-4, 1e-4), "A @ v, A 2000x30000 float32", hand=kernels.setup_none,
                           peers_skip=no_mm, numba="matmul", label="A @ v 2000x30000"))
    tok = np.zeros(1, np.int32)
    no_rng = {"pyopencl": "no random module in pyopencl.array here",
              "dask": "not wired (dask.array.random)"}
    if want("random"):
        wl.append(Workload("random", make_random(n), [tok], 1, (5e-3, 0),
                           "mean(standard_normal(N, float32) ** 2), each system's generator",
                           nbytes=4, peers_skip=no_rng, hand=kernels.setup_none,
                           numba=("random", (n,))))
    if want("randn"):
        wl.append(Workload("randn", make_randn(n), [tok], n, (0, 0),
                           "standard_normal(N, float32) materialized, each system's generator",
                           nbytes=4 * n, peers_skip=no_rng, ref=normal_check(n),
                           hand=kernels.setup_none, numba=("randn", (n,))))
    if want("sparse_pca"):
        # The batched form: every direction at once (float32); checked against float64 NumPy.
        p, S = spca
        Vd, C = spca_inputs(rng, p, S, np.float32)
        wl.append(Workload("sparse_pca", f_spca, [Vd, C], p, (1e-4, 0),
                           f"the seed's spca, batched: A = Vd @ C, top_k {10} of |A| per column, "
                           f"their norms, the best column scattered into opt_x; p={p}, d=3, k=10, "
                           f"S={S} float32 ({spca_flops(p, S) / 1e9:.1f} GFLOP)",
                           hand=kernels.setup_none, numba=("spca", (True,)),
                           nbytes=spca_bytes(p, S, 4), ref=spca_check(Vd, C, 1e-4),
                           peers_skip={"pyopencl": "no matmul or selection in pyopencl.array",
                                       "dask": "int(argmax) and a scatter mid-way: no one graph"},
                           impl={"jax": spca_jax, "torch": spca_torch},
                           label=f"sparse_pca p={p} S={S}"))
    if want("sparse_pca_loop"):
        # The seed's loop form (float64, 512 directions), run as written: NumPy and lazycl run
        # the same function; a module whose API differs cannot.
        Vd, C = spca_loop_inputs(rng)
        p, S = Vd.shape[0], C.shape[1]
        other = "the seed's NumPy loop does not run unchanged in it (see the sparse_pca row)"
        wl.append(Workload("sparse_pca_loop", f_spca_loop, [Vd, C], p, (1e-12, 1e-12),
                           f"the seed's spca loop, one direction at a time (argsort, norm, a "
                           f"data-dependent branch, a scatter); p={p}, d=3, k=10, {S} directions, "
                           "float64", hand=kernels.setup_none, numba="spca_loop",
                           nbytes=spca_bytes(p, S, 8),
                           peers_skip={"pyopencl": other, "dask": other, "jax": other,
                                       "torch": other},
                           label=f"sparse_pca loop p={p} {S} dirs"))
    if want("small"):
        for s in small_sizes:
            wl.append(Workload(f"small-{s:.0e}".replace("+0", ""), f_chain, [u(s), u(s)], s,
                               (1e-5, 1e-6), "chain", ne_chain, HAND_CHAIN, fuse=True, numba="chain",
                               label=f"small chain N={s:.0e}".replace("+0", "")))
    return wl
