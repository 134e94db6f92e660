"""Matrix-vector products against NumPy: A @ v (a reduction along rows: on PoCL several rows
per work-item sharing the vector's loads) and v @ A (along columns: panels of columns x chunks
of rows), over row counts 1..31 and past whole blocks, K across the vector width and chunk
boundaries, float32 and float64, batched and non-contiguous operands, fused epilogues; the
float32 bound any BLAS dot product meets; and a plain sum of products (not a product) keeps
its float32 sum as accurate as before."""
import numpy as np
import pytest

import lazycl
from conftest import assert_same, core, lz, make


def tol(dt, k):
    """Tolerances for a sum of k products of values in [-4, 4], as test_matmul.py's."""
    if np.dtype(dt) == np.float32:
        return dict(rtol=1e-5, atol=2e-6 * 16 * max(k, 1))
    return dict(rtol=1e-12, atol=1e-14 * 16 * max(k, 1))


def _fp64(dev, dtype):
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")


# K: under one vector, one vector and a tail, many vectors and a tail, past 4 rows of chunks
KS = [5, 8, 17, 300, 1031]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rows_times_vector(dev, dtype):
    """A @ v for 1..31 rows (whole blocks of rows per item and the last partial one) and a few
    larger counts, each K of KS."""
    _fp64(dev, dtype)
    for m in list(range(1, 32)) + [64, 203]:
        for j, k in enumerate(KS):
            if m % 5 != j % 5 and m not in (1, 8, 16, 17, 31, 203):
                continue   # every K for some row counts, one K for the others
            a, v = make(dtype, (m, k), seed=m), make(dtype, (k,), seed=100 + k)
            assert_same(lz(a, dev) @ lz(v, dev), a @ v, **tol(dtype, k))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_vector_times_columns(dev, dtype):
    """v @ A: outputs along A's unit-stride dim, a panel of columns (and its last columns fewer
    than a vector) times chunks of rows, rows a multiple of 4 or not."""
    _fp64(dev, dtype)
    for i, (k, n) in enumerate([(5, 9), (17, 31), (64, 8), (257, 100), (1000, 1030),
                                (301, 2051), (2, 40)]):
        v, a = make(dtype, (k,), seed=i), make(dtype, (k, n), seed=50 + i)
        assert_same(lz(v, dev) @ lz(a, dev), v @ a, **tol(dtype, k))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_vector_products_of_views(dev, dtype):
    """Transposed, strided, reversed and offset operands, a strided vector, batches (several
    kept dims), and the epilogue (bias, relu, scale) fused into the product's kernel."""
    _fp64(dev, dtype)
    big, vb = make(dtype, (90, 700), seed=1), make(dtype, (1500,), seed=2)
    B, V = lz(big, dev), lz(vb, dev)
    cases = [
        (B[:, 3:603] @ V[:600], big[:, 3:603] @ vb[:600]),          # rows 700 apart, offset
        (B.T @ V[:90], big.T @ vb[:90]),                            # A @ v with A transposed
        (V[:700] @ B.T, vb[:700] @ big.T),                          # v @ A with A transposed
        (B[::-2, ::3] @ V[:234], big[::-2, ::3] @ vb[:234]),        # reversed rows, step 3
        (B[:, ::-1] @ V[::2][:700], big[:, ::-1] @ vb[::2][:700]),  # reversed K, strided v
        (V[::-3][:90] @ B[:, 1:], vb[::-3][:90] @ big[:, 1:]),      # v @ A at an offset
    ]
    for got, ref in cases:
        assert_same(got, ref, **tol(dtype, 700))
    a3, v3 = make(dtype, (3, 41, 300), seed=3), make(dtype, (300,), seed=4)
    assert_same(lz(a3, dev) @ lz(v3, dev), a3 @ v3, **tol(dtype, 300))
    assert_same(lz(v3[:41], dev) @ lz(a3, dev), v3[:41] @ a3, **tol(dtype, 41))
    bias = make(dtype, (90,), seed=5)
    got = lazycl.maximum(B @ V[:700] + lz(bias, dev), 0) * 2
    assert_same(got, np.maximum(big @ vb[:700] + bias, 0) * 2, **tol(dtype, 700))
    got = lazycl.maximum(V[:90] @ B - 1, 0)
    assert_same(got, np.maximum(vb[:90] @ big - 1, 0), **tol(dtype, 90))


def test_row_blocks_take_other_reductions(dev):
    """The row blocks take any sum, max, min or variance of values that read a vector shared
    by the rows (not only products), and several of them in one kernel."""
    a, v = make("float32", (29, 1003), seed=6), make("float32", (1003,), seed=7)
    A, W = lz(a, dev), lz(v, dev)
    p = a.astype(np.float64) * v
    assert_same(lazycl.max(A * W, axis=1), (a * v).max(axis=1))
    assert_same(lazycl.min(A - W, axis=1), (a - v).min(axis=1))
    assert_same(lazycl.var(A * W, axis=1), p.var(axis=1).astype(np.float32), rtol=1e-5, atol=1e-5)
    s, m = lazycl.sum(A * W, axis=1), lazycl.mean(A + W, axis=1)
    lazycl.compute(s, m)   # one kernel may take both
    assert_same(s, p.sum(axis=1).astype(np.float32), rtol=1e-6, atol=1e-5)
    assert_same(m, (a.astype(np.float64) + v).mean(axis=1).astype(np.float32), rtol=1e-6,
                atol=1e-6)
    # a column sum with a shared read: column panels, double accumulators (not a product)
    x = make("float32", (300, 40), seed=10)
    assert_same(lazycl.sum(lz(x, dev) * lz(v[:300], dev)[:, None], axis=0),
                (x.astype(np.float64) * v[:300, None]).sum(axis=0).astype(np.float32),
                rtol=1e-6, atol=1e-5)


def test_float32_vector_products_accuracy(dev):
    """float32 A @ v and v @ A of a long K within the bound every float32 dot product of
    length K meets, |err| <= K u / (1 - K u) (|A| @ |v|), and within 8x NumPy's own error."""
    rng = np.random.default_rng(12)
    k = 30000
    a = rng.uniform(-1, 1, (40, k)).astype(np.float32)
    v = rng.uniform(-1, 1, k).astype(np.float32)
    u = 2.0 ** -24
    for got, ref, np_got, absref in [
            (lz(a, dev) @ lz(v, dev), a.astype(np.float64) @ v, a @ v,
             np.abs(a).astype(np.float64) @ np.abs(v)),
            (lz(v, dev) @ lz(a.T, dev), v.astype(np.float64) @ a.T, v @ a.T,
             np.abs(v).astype(np.float64) @ np.abs(a.T))]:
        err = np.abs(np.asarray(got).astype(np.float64) - ref)
        assert np.all(err <= k * u / (1 - k * u) * absref)
        assert err.max() <= 8 * max(np.abs(np_got - ref).max(), u * np.abs(ref).max())


def test_plain_sum_of_products_keeps_its_accuracy(dev):
    """A sum of products written as a sum (not matmul) is a plain float32 sum: as accurate as
    NumPy's pairwise one (double accumulators where the device has fp64), where a product may
    accumulate in float32 as BLAS does."""
    rng = np.random.default_rng(13)
    a = (1 + rng.uniform(0, 1e-3, (24, 100000))).astype(np.float32)
    v = np.ones(100000, np.float32)
    ref = a.astype(np.float64).sum(axis=1)
    got = np.asarray(lazycl.sum(lz(a, dev) * lz(v, dev), axis=1)).astype(np.float64)
    np_err = np.abs(np.sum(a * v, axis=1) - ref).max()
    assert np.abs(got - ref).max() <= max(2 * np_err, 2 ** -24 * np.abs(ref).max())
    if dev.fp64:
        assert "double" in lazycl.explain(lazycl.sum(lz(a, dev) * lz(v, dev), axis=1))


def test_schedules_on_cpus(dev):
    """On CPUs, v @ A (of at least 256 rows) takes the column panels, and on PoCL A @ v the row
    blocks (the layouts measured fastest; Intel's runtime runs A @ v fastest one row an item);
    both accumulate a float32 product in float32."""
    if dev.schedule != "simd":
        pytest.skip("the SIMD target's schedules")
    a, v = make("float32", (300, 500), seed=8), make("float32", (500,), seed=9)
    e = lazycl.explain(lz(a, dev) @ lz(v, dev))
    pocl = dev.filter_string.startswith("pocl")
    assert ("a shared read" in e) == pocl and "double" not in e.split("---")[-1], e
    e = lazycl.explain(lz(v[:300], dev) @ lz(a, dev))
    assert "panels of" in e and "double" not in e.split("---")[-1], e


# float64 in `make test-full` (the same schedules; 19 s of PoCL's builds in a cold `make test`).
@pytest.mark.parametrize("dtype", core(["float32", "float64"], ["float32"]))
def test_few_rows_times_matrix(dev, dtype):
    """x @ W of 2..31 rows (on CPUs up to 16 rows take every row x panels of W's columns, the
    panels sized by N; past 8 rows 4 vectors a pass), K across the 256-long panels of K and not
    a multiple of 4, N past whole vectors and panels; views of both operands, a producer of x
    and an epilogue."""
    _fp64(dev, dtype)
    cases = [(2, 300, 64), (3, 513, 515), (5, 1031, 1100), (8, 257, 2051), (8, 1000, 72),
             (7, 20, 333), (12, 700, 130), (16, 600, 1003), (10, 300, 77), (31, 300, 90)]
    for i, (m, k, n) in enumerate(cases):
        x, w = make(dtype, (m, k), seed=i), make(dtype, (k, n), seed=40 + i)
        b = make(dtype, (n,), seed=80 + i)
        got = lazycl.maximum((lz(x, dev) * 2) @ lz(w, dev) + lz(b, dev), 0)
        assert_same(got, np.maximum((x * 2) @ w + b, 0), **tol(dtype, k))
        if dev.schedule == "simd" and m <= 16 and k >= 16:
            assert "all %d rows" % m in lazycl.explain(lz(x, dev) @ lz(w, dev))
    x, big = make(dtype, (6, 900), seed=7), make(dtype, (902, 400), seed=8)
    X, B = lz(x, dev), lz(big, dev)
    cases = [(lz(np.ascontiguousarray(x.T), dev).T @ B[:900, :300], x @ big[:900, :300]),
             (X @ B[900:0:-1, 1:301], x @ big[900:0:-1, 1:301]),   # W reversed along K
             (X[:, ::-1] @ B[2:, ::2], x[:, ::-1] @ big[2:, ::2]),  # W every second column
             (X[::2] @ B[:900, 5:], x[::2] @ big[:900, 5:])]
    for got, ref in cases:
        assert_same(got, ref, **tol(dtype, 900))
