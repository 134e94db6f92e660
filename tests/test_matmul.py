"""Matrix products against NumPy: matmul (@) over every dtype, 1-d operands, batch broadcasting,
empty dims and K = 0, transposed, strided and reversed operands; dot, vdot, inner, tensordot,
vecdot, matrix_transpose; NumPy's errors; and fusion proven by launch and buffer counts (the
operands' producers in the tile loads, the epilogue in the product's kernel, small-K products
inside their consumers)."""
import os

import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, assert_same, core, lz, make


def tol(dt, k):
    """Tolerances for a sum of k products of values in [-4, 4] (floats; others exact)."""
    dt = np.dtype(dt)
    if dt == np.float32:
        return dict(rtol=1e-5, atol=2e-6 * 16 * max(k, 1))
    if dt == np.float64:
        return dict(rtol=1e-12, atol=1e-14 * 16 * max(k, 1))
    return {}


# (left shape, right shape): 1-d operands, small K (elementwise), large K (a reduction; the
# GEMM tiles from 64 x 64 with K >= 16), ragged tiles, batch broadcasting, empty dims, K = 0.
SHAPES = [((3, 4), (4, 5)), ((5,), (5,)), ((4,), (4, 3)), ((3, 4), (4,)), ((7, 20), (20, 9)),
          ((130, 70), (70, 200)), ((3, 100, 65), (65, 129)), ((2, 1, 64, 40), (3, 40, 70)),
          ((0, 20), (20, 3)), ((3, 0), (0, 4)), ((2, 0, 5), (5, 6)), ((1, 3, 33), (2, 33, 2))]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_matmul_every_dtype(dev, dtype):
    for i, (sa, sb) in enumerate(SHAPES):
        if dev.platform_name.lower().startswith("intel") and i % 3 and dtype not in ("float32", "int8"):
            continue  # Intel's compiles are slow: a third of the shapes for most dtypes
        a, b = make(dtype, sa, seed=i), make(dtype, sb, seed=100 + i)
        assert_same(lz(a, dev) @ lz(b, dev), a @ b, **tol(dtype, sa[-1]))


def test_matmul_mixed_dtypes_and_scalars_rules(dev):
    a, b = make("int16", (8, 30)), make("float32", (30, 70))
    assert_same(lazycl.matmul(lz(a, dev), lz(b, dev)), a @ b, rtol=1e-5, atol=1e-2)
    c = make("uint8", (70, 80), seed=3)
    assert_same(lz(b, dev) @ lz(c, dev), b @ c, **tol("float32", 70))
    assert_same(lazycl.matmul(lz(a, dev), lz(b, dev), dtype="float64"),
                np.matmul(a, b, dtype="float64"), **tol("float64", 30))
    with pytest.raises(TypeError):
        lazycl.matmul(lz(b, dev), lz(b.T, dev), dtype="int32")   # same_kind forbids float -> int


def test_matmul_views(dev):
    """Transposed, strided and reversed operands are read in place (no copy kernel)."""
    a, b = make("float32", (200, 150), seed=1), make("float32", (300, 180), seed=2)
    A, B = lz(a, dev), lz(b, dev)
    cases = [(A.T @ B[::-1][100:], a.T @ b[::-1][100:]),
             (A[::2, ::-3] @ B[5:, :50].T[:, ::-2], a[::2, ::-3] @ b[5:, :50].T[:, ::-2]),
             (A[:, 7] @ B[:200], a[:, 7] @ b[:200]),
             (lazycl.matrix_transpose(A) @ A, a.T @ a)]
    for got, ref in cases:
        lazycl.reset_stats()
        got.compute()
        assert lazycl.stats()["launches"] == 1
        assert_same(got, ref, **tol("float32", 300))


def test_matmul_errors(dev):
    a = lz(make("float32", (3, 4)), dev)
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        a @ lz(np.float32(2), dev)
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        a @ lz(make("float32", (5, 2)), dev)
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        lz(make("float32", (3,)), dev) @ lz(make("float32", (4,)), dev)
    with pytest.raises(ValueError):
        lz(make("float32", (2, 3, 4)), dev) @ lz(make("float32", (3, 4, 5)), dev)
    with pytest.raises(NotImplementedError):
        lazycl.matmul(a, a.T, axes=[(0, 1), (0, 1), (0, 1)])
    # NumPy raises the same kinds
    with pytest.raises(ValueError):
        np.ones((2, 3, 4)) @ np.ones((3, 4, 5))
    # the engine is fine afterwards
    assert_same(a @ a.T, make("float32", (3, 4)) @ make("float32", (3, 4)).T, **tol("float32", 4))


@pytest.mark.parametrize("dtype", core(ALL_DTYPES + ["complex64"]))
def test_inner_products_of_vectors(dev, dtype):
    """v @ w, lazycl.dot and np.dot of two vectors (one sum of products, built in C for
    K > 16): NumPy's dtype (integers wrap in it) and values at each K around the elementwise
    limit, K = 0, views and pending operands; mismatched lengths and mixed dtypes as NumPy."""
    for k in (0, 1, 16, 17, 50, 300):
        v, w = make(dtype, (k,), seed=k), make(dtype, (k,), seed=k + 1)
        V, W = lz(v, dev), lz(w, dev)
        t = tol(dtype, k)
        assert_same(V @ W, v @ w, **t)
        assert_same(lazycl.matmul(V, W), np.matmul(v, w), **t)
        assert_same(lazycl.dot(V, W), np.dot(v, w), **t)
        assert_same(np.dot(V, W), np.dot(v, w), **t)
        assert_same(V.dot(W), v.dot(w), **t)
        assert_same(V[::-1] @ (W + W), v[::-1] @ (w + w), **t)
    i8 = np.full(300, 100, np.int8)
    assert_same(lz(i8, dev) @ lz(i8, dev), i8 @ i8)                # wraps in int8, as NumPy
    a = make("float32", (30, 40), seed=3)
    A = lz(a, dev)
    assert_same(A[3, :30] @ A[:, 7], a[3, :30] @ a[:, 7], **tol("float32", 30))
    assert_same(lazycl.dot(A[3], A[4]), np.dot(a[3], a[4]), **tol("float32", 40))
    f64 = make("float64", (40,), seed=4)
    assert_same(A[3] @ lz(f64, dev), a[3] @ f64, **tol("float64", 40))   # promoted
    assert_same(lazycl.dot(A[3], f64), np.dot(a[3], f64), **tol("float64", 40))
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        A[3] @ A[:, 3]
    with pytest.raises(ValueError, match=r"shapes \(40,\) and \(30,\) not aligned"):
        lazycl.dot(A[3], A[:, 3])
    with pytest.raises(ValueError):
        np.dot(a[3], a[:, 3])


def test_matmul_out_and_inplace(dev):
    a, b = make("float64", (6, 6), seed=1), make("float64", (6, 6), seed=2)
    out = lz(np.zeros((6, 6)), dev)
    r = lazycl.matmul(lz(a, dev), lz(b, dev), out=out)
    assert r is out
    assert_same(out, a @ b, **tol("float64", 6))
    x = lz(a, dev)
    x @= lz(b, dev)
    assert_same(x, a @ b, **tol("float64", 6))
    n = a.copy()
    assert_same(np.matmul(lz(a, dev), lz(b, dev), out=n), a @ b, **tol("float64", 6))


def test_dot_family(dev):
    a, b = make("float64", (3, 4, 5), seed=1), make("float64", (2, 5, 6), seed=2)
    v, w = make("float64", (5,), seed=3), make("float64", (5,), seed=4)
    A, B, V, W = (lz(x, dev) for x in (a, b, v, w))
    t = tol("float64", 30)
    assert_same(lazycl.dot(A, B), np.dot(a, b), **t)
    assert_same(np.dot(A, V), np.dot(a, v), **t)
    assert_same(np.dot(V, W), np.dot(v, w), **t)
    assert_same(np.dot(A, 2.5), np.dot(a, 2.5), **t)
    assert_same(A.dot(B), a.dot(b), **t)
    assert_same(np.vdot(A, A), np.vdot(a, a), **t)
    assert_same(np.inner(A, B[..., :5]), np.inner(a, b[..., :5]), **t)
    assert_same(np.inner(V, W), np.inner(v, w), **t)
    assert_same(np.tensordot(A, B, axes=([2], [1])), np.tensordot(a, b, axes=([2], [1])), **t)
    assert_same(np.tensordot(A, A.transpose(1, 2, 0), axes=2), np.tensordot(a, a.transpose(1, 2, 0), axes=2), **t)
    assert_same(np.tensordot(A, A, axes=([0, 1], [0, 1])), np.tensordot(a, a, axes=([0, 1], [0, 1])), **t)
    assert_same(np.tensordot(A, V, axes=0), np.tensordot(a, v, axes=0), **t)
    assert_same(np.vecdot(A, V), np.vecdot(a, v), **t)
    assert_same(lazycl.vecdot(A, B[:1, :4, :5], axis=1), np.vecdot(a, b[:1, :4, :5], axis=1), **t)
    assert_same(lazycl.matrix_transpose(A), np.matrix_transpose(a))
    i8 = make("int8", (40, 30), seed=5)
    assert_same(np.dot(lz(i8, dev), lz(i8.T, dev)), np.dot(i8, i8.T))
    for f in (lambda m: m.dot(np.ones((2, 3)), np.ones((2, 3))),
              lambda m: m.inner(np.ones(2), np.ones(3)),
              lambda m: m.tensordot(np.ones((2, 3)), np.ones((2, 3)), axes=([1], [0])),
              lambda m: m.vdot(np.ones(2), np.ones(3)),
              lambda m: m.vecdot(np.ones(2), np.ones(3)),
              lambda m: m.matrix_transpose(np.ones(3))):
        with pytest.raises(Exception) as want:
            f(np)
        with pytest.raises(want.type):
            f(lazycl)


def test_product_fusion(dev):
    """relu(A @ B + b) is one kernel and one buffer; (A * s) @ W.T and (X - mu) @ W read their
    operands' producers in the product; a small-K product (K = 3) fuses into the norm over its
    columns, with no p x S buffer."""
    a, b = make("float32", (96, 80), seed=1), make("float32", (80, 72), seed=2)
    bias = make("float32", (72,), seed=3)
    A, B, BI, BT = lz(a, dev), lz(b, dev), lz(bias, dev), lz(b.T.copy(), dev)
    lazycl.compute(A, B, BI, BT)
    lazycl.reset_stats()
    r = lazycl.maximum(A @ B + BI, 0)
    r.compute()
    s = lazycl.stats()
    assert s["launches"] == 1
    assert s["buffers_allocated"] + s["pool_hits"] == 1
    assert_same(r, np.maximum(a @ b + bias, 0), **tol("float32", 80))
    for expr, ref, launches in [
            (lambda: (A * 0.5) @ BT.T, (a * np.float32(0.5)) @ b, 1),
            (lambda: (A - A.mean(axis=0)) @ B, (a - a.mean(axis=0)) @ b, 2)]:   # the mean first
        lazycl.reset_stats()
        r = expr()
        r.compute()
        s = lazycl.stats()
        assert s["launches"] == launches
        assert s["buffers_allocated"] + s["pool_hits"] == launches   # no operand buffer
        assert_same(r, ref, rtol=1e-4, atol=1e-3)
    vd, c = make("float32", (5000, 3), seed=4), make("float32", (3, 256), seed=5)
    VD, C = lz(vd, dev), lz(c, dev)
    lazycl.compute(VD, C)
    lazycl.reset_stats()
    n = lazycl.sqrt(lazycl.sum((VD @ C) ** 2, axis=0))
    n.compute()
    s = lazycl.stats()
    assert s["buffers_allocated"] + s["pool_hits"] <= 2   # the norms (and a split's partials)
    assert s["launches"] <= 2
    assert_same(n, np.sqrt(np.sum((vd @ c) ** 2, axis=0)), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_large_products_pack_their_right_operand(dev, dtype):
    """CPU products of at least 256 rows whose right operand holds 2^20 elements or more pack
    it first (codegen/gemm_pack.c: two launches, the pack in the scratch, so still one buffer),
    its producer computed in the pack: ragged column blocks and K steps, an epilogue; a right
    operand read across its rows and smaller products keep one launch."""
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    cpu = lazycl.asarray(np.zeros(1), device=dev).device.schedule != "gpu"
    for (m, k, n) in ((300, 1031, 1100), (257, 4096, 260)):
        a, b = make(dtype, (m, k), seed=m), make(dtype, (k, n), seed=n)
        bias = make(dtype, (n,), seed=5)
        A, B, BT, BI = lz(a, dev), lz(b, dev), lz(b.T.copy(), dev), lz(bias, dev)
        lazycl.compute(A, B, BT, BI)
        # (B.T's columns are not contiguous along N: not the vector blocks, one launch)
        for expr, ref, launches in ((lambda: A @ B, a @ b, 2),
                                    (lambda: lazycl.maximum(A @ (B * 2) + BI, 0),
                                     np.maximum(a @ (b * 2) + bias, 0), 2),
                                    (lambda: A @ BT.T, a @ b, 1)):
            r = expr()
            blas = "gemm engine: clblast" in lazycl.explain(r)   # (LAZYCL_GEMM=clblast)
            lazycl.reset_stats()
            r.compute()
            s = lazycl.stats()
            if cpu and not blas:
                assert s["launches"] == launches, s
            if not blas:
                assert s["buffers_allocated"] + s["pool_hits"] <= 2, s   # result, scratch
            assert_same(r, ref, **tol(dtype, k))
    lazycl.reset_stats()
    small = lz(make(dtype, (255, 4096), seed=1), dev) @ B   # fewer rows: one launch
    small.compute()
    if cpu:
        assert lazycl.stats()["launches"] == 1


def test_product_of_pending_sources(dev):
    """Operands that are random draws, aranges and gathers are computed in the product."""
    rng = lazycl.random.default_rng(7, device=dev)
    x = rng.standard_normal((70, 90), dtype="float32")
    xn = np.asarray(x)
    idx = make("int64", (65,), lo=0, hi=69, seed=9)
    w = lazycl.arange(90 * 64, dtype="float32", device=dev).reshape(90, 64) / 1000
    wn = np.arange(90 * 64, dtype="float32").reshape(90, 64) / 1000
    r = x[lz(idx, dev)] @ w
    assert_same(r, xn[idx] @ wn, **tol("float32", 90))
    with pytest.raises(IndexError):
        (x[lz(np.array([0, 200] * 40), dev)] @ w).compute()
    assert_same(x @ w, xn @ wn, **tol("float32", 90))


def test_float32_accuracy(dev):
    """float32 products against a float64 reference: every element within the bound any float32
    dot product of length K meets (NumPy's included), |err| <= K u / (1 - K u) (|a| @ |b|); and
    the largest error within 2x NumPy's own on CPU schedules (sums per 256-long panel, then
    the panels), 8x on GPU tiles and in CLBlast (one float32 sum along K per output)."""
    rng = np.random.default_rng(11)
    k = 4096
    a = rng.uniform(-1, 1, (200, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, 150)).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np_err = np.abs((a @ b) - ref).max()
    got = np.asarray(lz(a, dev) @ lz(b, dev)).astype(np.float64)
    u = 2.0 ** -24
    bound = k * u / (1 - k * u) * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    assert np.all(np.abs(got - ref) <= bound)
    # CLBlast (LAZYCL_GEMM=clblast, test_clblast.py) sums along K in one float32 sum too
    factor = 8 if dev.schedule == "gpu" or os.environ.get("LAZYCL_GEMM") == "clblast" else 2
    assert np.abs(got - ref).max() <= factor * np_err, (np.abs(got - ref).max(), np_err)


@pytest.mark.parametrize("m", [1, 2, 5, 8, 16, 31])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_skinny_products(m, dtype, dev):
    """A few rows of x times a wide W, with a bias and relu (npbench's mlp): CPU targets take the
    SIMD GEMM schedule with work-groups of as few items as the rows need (one launch), where a
    product of fewer than 64 rows used to read W with a stride per output."""
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    k, n = 700, 150
    x, w, b = make(dtype, (m, k), seed=21), make(dtype, (k, n), seed=22), make(dtype, (n,), seed=23)
    lazycl.reset_stats()
    got = lazycl.maximum(lz(x, dev) @ lz(w, dev) + lz(b, dev), 0).numpy()
    # (one row: a vector-matrix product, on PoCL a split reduction and its combining launch)
    assert lazycl.stats()["launches"] <= (1 if m > 1 else 2) or dev.schedule == "gpu"
    ref = np.maximum(x.astype(np.float64) @ w + b, 0)
    assert_same(got, ref.astype(dtype), **tol(dtype, k))
    if dev.schedule != "gpu" and m > 1:
        assert "gemm:" in lazycl.explain(lz(x, dev) @ lz(w, dev))


@pytest.mark.parametrize("case", [
    # (rows, K, N, how W is taken from a larger array): N past a multiple of 4 and of 512, odd K
    (1, 300, 67, "plain"), (3, 1031, 130, "plain"), (16, 777, 515, "plain"),
    (7, 513, 2050, "plain"), (9, 2100, 64, "plain"), (4, 8000, 96, "plain"),
    # W at an offset of 1 (no 16-byte vector loads), its rows 4 apart but not aligned, rows an
    # odd number of values apart, every second column (no unit stride along N)
    (4, 400, 97, "offset"), (8, 300, 128, "rowpad"), (2, 333, 101, "oddrows"),
    (5, 260, 80, "colstep"),
    # x transposed (read along M), W reversed along K
    (6, 500, 200, "xT"), (3, 450, 150, "flipk"),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_skinny_shapes(case, dtype, dev):
    """Products of a few rows (the GPU schedule: four columns per item, K in slices) at sizes
    that leave partial vectors and groups, and with W views that must not be read with 16-byte
    loads (or only where they are aligned), with the bias and relu epilogue."""
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    m, k, n, how = case
    x = make(dtype, (m, k), seed=31)
    big = make(dtype, (k + 3, 2 * n + 7), seed=32)
    w = {"plain": big[:k, :n], "offset": big[1:k + 1, 1:n + 1],
         "rowpad": big[:k, 3:n + 3], "oddrows": big[:k, :n], "colstep": big[:k, :2 * n:2],
         "xT": big[:k, :n], "flipk": big[k - 1::-1, :n]}[how]
    b = make(dtype, (n,), seed=33)
    if how == "oddrows":
        wl = lz(big[:, :2 * n + 7], dev)[:k, 2:n + 2]      # rows 2n + 7 apart, offset 2
        w = big[:k, 2:n + 2]
    elif how == "rowpad":
        wl = lz(make(dtype, (k, n + 4), seed=34), dev)[:, 3:n + 3]
        w = make(dtype, (k, n + 4), seed=34)[:, 3:n + 3]
    else:
        wl = lz(big, dev)[{"plain": np.s_[:k, :n], "offset": np.s_[1:k + 1, 1:n + 1],
                           "colstep": np.s_[:k, :2 * n:2], "xT": np.s_[:k, :n],
                           "flipk": np.s_[k - 1::-1, :n]}[how]]
    xl = lz(np.ascontiguousarray(x.T), dev).T if how == "xT" else lz(x, dev)
    got = lazycl.maximum(xl @ wl + lz(b, dev), 0)
    if dev.schedule == "gpu" and how != "colstep" and m > 1:   # (one row: a vector product)
        assert "slice of K" in lazycl.explain(got), lazycl.explain(got)
    ref = np.maximum(x.astype(np.float64) @ w.astype(np.float64) + b, 0)
    assert_same(got.numpy(), ref.astype(dtype), **tol(dtype, k))
