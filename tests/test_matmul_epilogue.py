"""Reductions of a large-K product's rows or columns in its GEMM epilogue (issue 13): sums,
means, maxima, minima, norms and sums of squares of (elementwise consumers of) A @ B over
axis 0, 1, both, batch axes, keepdims, against NumPy in float32 and float64 over ragged,
batched, non-square and degenerate shapes; the same bits on every run; float32 errors no
larger than the unfused path's; and buffer / launch counts proving the M x N product is never
written (codegen/gemm_post.c)."""
import numpy as np
import pytest

import lazycl
from conftest import assert_same, lz, make


def reference(f, *arrays):
    """f over float64 copies of the operands (the exact value, as far as float32 goes)."""
    return f(*[a.astype(np.float64) for a in arrays])


def tol(dt, k, n):
    """A sum of n values each a sum of k products of values in [-4, 4]."""
    if np.dtype(dt) == np.float32:
        return dict(rtol=2e-5, atol=2e-6 * 16 * k * max(n, 1) ** 0.5 * 4)
    return dict(rtol=1e-11, atol=1e-13 * 16 * k * max(n, 1))


# (name, f, how many product values each output reduces: "m", "n", "mn", ...)
CASES = [
    ("sum0", lambda A, B, b: (A @ B).sum(0), "m"),
    ("sum1", lambda A, B, b: (A @ B).sum(1), "n"),
    ("sum_all", lambda A, B, b: (A @ B).sum(), "mn"),
    ("sum_keep", lambda A, B, b: (A @ B).sum(axis=1, keepdims=True), "n"),
    ("mean0", lambda A, B, b: (A @ B).mean(0), "m"),
    ("norm0", lambda A, B, b: np.linalg.norm(A @ B, axis=0), "m"),
    ("norm1", lambda A, B, b: np.linalg.norm(A @ B, axis=1), "n"),
    ("relu_max0", lambda A, B, b: np.maximum(A @ B + b, 0).max(0), "m"),
    ("relu_max1", lambda A, B, b: np.maximum(A @ B + b, 0).max(axis=1), "n"),
    ("min1", lambda A, B, b: (A @ B - b).min(axis=1), "n"),
    ("sq_sum", lambda A, B, b: ((A @ B) ** 2).sum(), "mn"),
    ("std0", lambda A, B, b: (A @ B).std(0), "m"),
]

# (A shape, B shape): ragged tiles, non-square, K just above 16, M or N = 1 (no tiles: the
# reduction runs unfused), a square that is a multiple of the tiles.
SHAPES = [((130, 70), (70, 200)), ((200, 17), (17, 65)), ((1, 40), (40, 90))]


def _run(dev, dtype, f, sa, sb, seed=0):
    a, b = make(dtype, sa, seed=seed), make(dtype, sb, seed=seed + 1)
    bias = make(dtype, (sb[-1],), seed=seed + 2)
    got = f(lz(a, dev), lz(b, dev), lz(bias, dev))
    ref = reference(f, a, b, bias)
    return got, ref


# float64: a few cases (each case is a kernel build of its own, slow on PoCL)
PARAMS = [(c, "float32") for c in CASES] + [(c, "float64") for c in CASES
                                            if c[0] in ("sum0", "norm1")]


@pytest.mark.parametrize("case,dtype", PARAMS, ids=[f"{c[0]}-{d}" for c, d in PARAMS])
def test_product_reductions_match_numpy(dev, case, dtype):
    name, f, over = case
    for i, (sa, sb) in enumerate(SHAPES):
        got, ref = _run(dev, dtype, f, sa, sb, seed=10 * i)
        n = {"m": sa[0], "n": sb[1], "mn": sa[0] * sb[1]}[over]
        assert_same(got, ref.astype(dtype), **tol(dtype, sa[1], n))


BATCHED = [
    ("sum_n", lambda A, B: (A @ B).sum(-1), "n"),
    ("sum_m", lambda A, B: (A @ B).sum(-2), "m"),
    ("sum_batch_n", lambda A, B: (A @ B).sum(axis=(0, -1)), "bn"),
    ("max_batch_m", lambda A, B: (A @ B).max(axis=(0, 1)), "bm"),
    ("norm_m_keep", lambda A, B: np.linalg.norm(A @ B, axis=-2, keepdims=True), "m"),
    ("sum_all", lambda A, B: (A @ B).sum(), "bmn"),
]


@pytest.mark.parametrize("name,f,over", BATCHED, ids=[c[0] for c in BATCHED])
def test_batched_product_reductions(dev, name, f, over):
    for i, (sa, sb) in enumerate([((3, 100, 65), (65, 129)), ((2, 70, 40), (2, 40, 90))]):
        a, b = make("float32", sa, seed=i), make("float32", sb, seed=i + 5)
        ref = reference(f, a, b)
        n = {"n": sb[-1], "m": sa[-2], "bn": 3 * sb[-1], "bm": 3 * sa[-2],
             "bmn": 3 * sa[-2] * sb[-1]}[over]
        assert_same(f(lz(a, dev), lz(b, dev)), ref.astype("float32"), **tol("float32", 65, n))


def _stats(expr):
    """expr's result and stats; peak_bytes less the bytes held before (the operands)."""
    lazycl.reset_stats()
    base = lazycl.stats()["peak_bytes"]
    r = expr().numpy()
    s = dict(lazycl.stats())
    s["peak_bytes"] -= base
    return r, s


@pytest.mark.parametrize("which", ["norm0", "sum1", "relu_max0"])
def test_product_never_written(dev, which):
    """norm(A @ B, axis=0), (A @ B).sum(1), maximum(A @ B + b, 0).max(0): the product's kernel
    and the combine, no M x N buffer (the unfused path, the product forced first, needs one)."""
    M, K, N = 512, 48, 640
    a, b, bias = make("float32", (M, K)), make("float32", (K, N), seed=1), make("float32", (N,), seed=2)
    A, B, bb = lz(a, dev), lz(b, dev), lz(bias, dev)
    A.compute(), B.compute(), bb.compute()
    f = {"norm0": lambda P: lazycl.linalg.norm(P, axis=0), "sum1": lambda P: P.sum(1),
         "relu_max0": lambda P: lazycl.maximum(P + bb, 0).max(0)}[which]
    npf = {"norm0": lambda P: np.linalg.norm(P, axis=0), "sum1": lambda P: P.sum(1),
           "relu_max0": lambda P: np.maximum(P + bias, 0).max(0)}[which]
    got, s = _stats(lambda: f(A @ B))
    product = M * N * 4
    assert s["launches"] == 2                    # the product's kernel, the combine
    assert s["buffers_allocated"] + s["pool_hits"] <= 2   # the result (and large partials)
    assert s["peak_bytes"] < product // 4        # no M x N buffer (the partials are small)
    assert "post-reduction" in lazycl.explain(f(A @ B))
    # The unfused path: the product written, then reduced.
    P = (A @ B).compute()
    unfused, s2 = _stats(lambda: f(P))
    assert s2["launches"] >= 1
    ref = npf(a.astype(np.float64) @ b.astype(np.float64))
    err, err_unfused = np.max(np.abs(got - ref)), np.max(np.abs(unfused - ref))
    assert err <= 2 * err_unfused + 1e-6 * np.max(np.abs(ref))   # float32 accuracy as unfused
    assert_same(got, ref.astype("float32"), **tol("float32", K, M if which != "sum1" else N))


def test_same_bits_every_run(dev):
    a, b = make("float32", (300, 50)), make("float32", (50, 333), seed=1)
    A, B = lz(a, dev), lz(b, dev)
    runs = [np.asarray(lazycl.linalg.norm(A @ B, axis=0)) for _ in range(3)]
    runs += [np.asarray((A @ B).sum(1)) for _ in range(3)]
    for r in runs[1:3]:
        assert np.array_equal(r, runs[0])
    for r in runs[4:]:
        assert np.array_equal(r, runs[3])


def test_product_also_forced(dev):
    """The product (or its epilogue) forced as well: it is written, and the reduction reads it."""
    a, b = make("float32", (130, 70)), make("float32", (70, 200), seed=1)
    A, B = lz(a, dev), lz(b, dev)
    P = lazycl.maximum(A @ B, 0)
    m = P.max(0)
    lazycl.compute(P, m)
    got_p, got_m = P, m
    ref_p = np.maximum(a.astype(np.float64) @ b, 0)
    assert_same(got_p, ref_p.astype("float32"), **tol("float32", 70, 1))
    assert_same(got_m, ref_p.max(0).astype("float32"), **tol("float32", 70, 1))


def test_small_k_and_integer_products(dev):
    """K <= 16 stays elementwise (one reduction kernel); integers reduce exactly."""
    a, b = make("float32", (200, 3)), make("float32", (3, 150), seed=1)
    lazycl.reset_stats()
    got = lazycl.linalg.norm(lz(a, dev) @ lz(b, dev), axis=0).numpy()
    assert lazycl.stats()["launches"] == 1
    assert_same(got, np.linalg.norm(a.astype(np.float64) @ b, axis=0).astype("float32"),
                rtol=1e-5, atol=1e-5)
    ai, bi = make("int32", (100, 40), lo=-5, hi=5), make("int32", (40, 90), seed=1, lo=-5, hi=5)
    assert_same((lz(ai, dev) @ lz(bi, dev)).sum(0), (ai @ bi).sum(0))
    assert_same((lz(ai, dev) @ lz(bi, dev)).max(1), (ai @ bi).max(1))
