"""top_k by the selection kernel (codegen/topk.c, k <= 64) against the full stable sort: dtypes,
axes, both ends, NaN / -0.0 / ties, pending keys, views, chunked rows and their merges; launch
and buffer counts (the top k of each column of a pending product never writes the product);
and the force that keeps a still-held sort or selection (engine/keep.c)."""
import numpy as np
import pytest

import lazycl
from conftest import core, lz, make


def _ref(h, k, axis, largest):
    """The full stable sort's answer: NaN last, ties in index order, largest = the last k
    reversed."""
    order = np.argsort(h, axis=axis, kind="stable")
    n = h.shape[axis]
    sl = [slice(None)] * h.ndim
    sl[axis] = slice(n - 1, n - 1 - k if n - 1 - k >= 0 else None, -1) if largest else slice(0, k)
    idx = order[tuple(sl)]
    return np.take_along_axis(h, idx, axis), idx


def _check(x, h, k, axis=-1, largest=True):
    v, i = lazycl.top_k(x, k, axis=axis, largest=largest)
    ev, ei = _ref(h, k, axis, largest)
    np.testing.assert_array_equal(np.asarray(i), ei, err_msg=f"k={k} axis={axis} {largest}")
    np.testing.assert_array_equal(np.asarray(v), ev)
    assert np.asarray(i).dtype == np.int64


# `make test` takes a key of each width, signed and unsigned (7 of 10: each dtype is a kernel
# of its own, and the GPU-shaped ones take PoCL minutes to compile cold); `make test-full` all.
@pytest.mark.parametrize("dtype", core(["bool", "int8", "uint8", "int16", "int32", "uint32",
                                        "int64", "uint64", "float32", "float64"],
                                       ["bool", "int8", "int16", "uint32", "int64", "float32",
                                        "float64"]))
def test_dtypes_both_ends(dev, dtype):
    h = make(dtype, (7, 1500), seed=3, lo=-40, hi=40)
    x = lz(h, dev)
    for largest in (True, False):
        _check(x, h, 10, -1, largest)
    _check(x, h, 64, -1, True)
    _check(x, h, 1, -1, True)     # the same kernel as k = 10 (lists of 8 and 16 share one)


@pytest.mark.parametrize("n", [1, 2, 3, 17, 255, 256, 1000, 4097, 70000])
def test_lengths_and_chunks(dev, n):
    """Rows short and long: one chunk, several chunks and their merges (k = n too)."""
    h = make("float32", (3, n), seed=n)
    x = lz(h, dev)
    for k in sorted({1, min(n, 5), min(n, 64)}):
        _check(x, h, k)
    _check(x, h, min(n, 5), largest=False)


def test_special_values_and_ties(dev):
    rng = np.random.default_rng(5)
    h = rng.integers(0, 4, (5, 3000)).astype(np.float64)   # many ties
    h[:, 7] = np.nan
    h[:, 100:110] = np.nan
    h[1, ::3] = -0.0
    h[2, :50] = np.inf
    h[3, 50:90] = -np.inf
    x = lz(h, dev)
    for k in (1, 12, 64):
        for largest in (True, False):
            _check(x, h, k, -1, largest)
    f = h.astype(np.float32)
    for largest in (True, False):
        _check(lz(f, dev), f, 40, -1, largest)


def test_axes_views_and_pending_keys(dev):
    h = make("float32", (6, 50, 40), seed=8)
    x = lz(h, dev)
    for axis in (0, 1, 2, -1):
        k = min(6, h.shape[axis])
        _check(x, h, k, axis)
        _check(x, h, k, axis, largest=False)
    # transposed, strided and reversed views, read in place
    t = h[:, ::-2, ::3].transpose(2, 0, 1)
    _check(x[:, ::-2, ::3].transpose(2, 0, 1), t, 9, -1)
    _check(x[:, ::-2, ::3].transpose(2, 0, 1), t, 4, 0, largest=False)
    # a pending key: computed inside the selection, read back by index for the values
    a = lz(make("float64", (4, 5000), seed=9), dev)
    ha = np.asarray(a)
    v, i = lazycl.top_k(lazycl.abs(a - 0.5) * 2, 16)
    ev, ei = _ref(np.abs(ha - 0.5) * 2, 16, -1, True)
    np.testing.assert_array_equal(np.asarray(i), ei)
    np.testing.assert_array_equal(np.asarray(v), ev)


def test_empty_and_errors(dev):
    x = lz(np.zeros((0, 10), np.float32), dev)
    v, i = lazycl.top_k(x, 3)
    assert np.asarray(v).shape == (0, 3) and np.asarray(i).shape == (0, 3)
    y = lz(make("float32", (4, 10), seed=1), dev)
    with pytest.raises(ValueError, match="k"):
        lazycl.top_k(y, 11)
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError):
        lazycl.top_k(y, 2, axis=2)
    # k beyond the kernel's 64: the full sort, same answers
    _check(y, np.asarray(y), 10)
    z = lz(make("float32", (2, 300), seed=2), dev)
    _check(z, np.asarray(z), 100)


def test_top_k_of_columns_of_a_product_writes_no_product(dev):
    """The sparse PCA's step: the 10 largest |Vd @ C| of each column. The K = 3 product is
    computed inside the selection (no p x S buffer), and the values are recomputed at the
    k x S indices inside the norm's kernel."""
    p, S = 20000, 96
    Vd = lz(make("float32", (p, 3), seed=1) - 0.5, dev)
    C = lz(make("float32", (3, S), seed=2) - 0.5, dev)
    lazycl.compute(Vd, C)
    hV, hC = np.asarray(Vd), np.asarray(C)
    lazycl.reset_stats()
    A = Vd @ C
    v, I = lazycl.top_k(lazycl.abs(A), 10, axis=0)
    vals = lazycl.linalg.norm(lazycl.take_along_axis(A, I, axis=0), axis=0)
    lazycl.compute(I, vals)
    s = lazycl.stats()
    assert s["peak_bytes"] < p * S * 4 / 2, s        # far below one p x S float32 buffer
    assert s["launches"] <= 4, s
    hA = hV @ hC
    # the same indices as the full sort of NumPy's product, where its values agree bit for bit
    ref_vals = np.take_along_axis(hA, np.asarray(I), 0)
    got = np.abs(ref_vals)
    assert (got >= np.sort(np.abs(hA), axis=0)[-10][None] * (1 - 1e-5)).all()
    np.testing.assert_allclose(np.asarray(vals), np.linalg.norm(ref_vals, axis=0), rtol=1e-5)


def test_launches(dev):
    h = make("float32", (64, 4096), seed=4)
    x = lz(h, dev)
    x.compute()
    lazycl.reset_stats()
    _, i = lazycl.top_k(lazycl.exp(x) - 1, 10)
    i.compute()
    s = lazycl.stats()
    # the selection and its merges: at most 3 launches (rows of 4096), no buffer for exp(x) - 1
    assert 1 <= s["launches"] <= 3, s
    assert s["buffers_allocated"] + s["pool_hits"] <= 2, s
    np.testing.assert_array_equal(np.asarray(i), _ref(np.exp(h) - 1, 10, -1, True)[1])


def test_a_held_sort_is_kept_not_recomputed(dev):
    """`I = argsort(a); v = a[I[-k:]]; ...; x[I[-k:]] = ...`: forcing v computes I too (it is
    still held), and the next force reads it instead of sorting again."""
    h = make("float64", (3000,), seed=6)
    a = lz(h, dev)
    a.compute()
    I = lazycl.argsort(a * 2)
    v = lazycl.linalg.norm(a[I[-10:]])
    float(v)
    assert not I.pending
    lazycl.reset_stats()
    w = a[I[-10:]] / 3
    w.compute()
    assert lazycl.stats()["launches"] == 1
    np.testing.assert_array_equal(np.asarray(I), np.argsort(h * 2, kind="stable"))
    np.testing.assert_allclose(np.asarray(w), h[np.argsort(h)[-10:]] / 3)
    # a sort nothing else holds is not kept (a temporary inside the expression)
    lazycl.reset_stats()
    s = float(lazycl.sort(a)[-5:].sum())
    assert s == pytest.approx(np.sort(h)[-5:].sum())
    # the same for a selection held across forces
    v2, i2 = lazycl.top_k(a * 3, 5)
    float(v2.sum())
    assert not i2.pending


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_columns_in_simd_lanes(dev, dtype):
    """Columns of a C-ordered matrix (8 neighbouring columns per item on PoCL, their keys as
    vectors): NaN, -0.0, ties, both ends, a pending key, a row count past one chunk."""
    rng = np.random.default_rng(12)
    h = rng.integers(0, 50, (3000, 24)).astype(dtype)
    h[5, :] = np.nan
    h[100:140, 3] = np.nan
    h[::7, 5] = -0.0
    h[:, 9] = 7                                     # a column of ties
    x = lz(h, dev)
    for k in (1, 10, 33):
        for largest in (True, False):
            _check(x, h, k, 0, largest)
    a = lz(make(dtype, (5000, 16), seed=2), dev)
    ha = np.asarray(a)
    v, i = lazycl.top_k(lazycl.abs(a - 0.5), 12, axis=0, largest=False)
    ev, ei = _ref(np.abs(ha - 0.5), 12, 0, False)
    np.testing.assert_array_equal(np.asarray(i), ei)
    np.testing.assert_array_equal(np.asarray(v), ev)


def test_rows_of_ties_in_simd_steps(dev):
    """Rows of 32-bit keys in the vector list (k <= 16, int positions) where equal values decide
    the order: rows all equal (every later element ranks first for the largest), rows with
    fewer than k values above the tie (the tie fills the list), -0.0 beside 0.0 among the
    tie, and both ends, for k of 3 (8 places) and 16 (16 places)."""
    rng = np.random.default_rng(8)
    h = np.zeros((6, 5000), np.float32)
    h[1] = 2.5
    h[2, rng.choice(5000, 7, replace=False)] = rng.random(7, dtype=np.float32) + 1
    h[3, ::3] = -0.0
    h[4] = -1
    h[4, rng.choice(5000, 5, replace=False)] = -2
    h[5] = rng.integers(0, 3, 5000)
    x = lz(h, dev)
    for k in (3, 16):
        for largest in (True, False):
            _check(x, h, k, -1, largest)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_long_rows_in_simd_steps(dev, dtype):
    """Long rows read along the axis (on PoCL vectors of values tested against the last
    place's value, the passing ones keyed and offered): NaN (more than k too), -0.0 beside
    0.0, infinities, ties, subnormals, rising and falling rows (every element enters, or
    none after the first), lengths off the steps, both ends, a pending key."""
    rng = np.random.default_rng(21)
    n = 200003
    h = rng.integers(-30, 30, n).astype(dtype)
    h[::1001] = np.nan
    h[5::97] = -0.0
    h[6::89] = 0.0
    h[70000:70100] = np.inf
    h[90000:90050] = -np.inf
    h[120000:120300] = np.finfo(dtype).smallest_subnormal * rng.integers(-5, 5, 300)
    x = lz(h, dev)
    for k in (1, 16, 64):
        for largest in (True, False):
            _check(x, h, k, -1, largest)
    sub = np.finfo(dtype).smallest_subnormal * rng.integers(-9, 9, 5000).astype(dtype)
    _check(lz(sub, dev), sub, 16, -1, True)
    _check(lz(sub, dev), sub, 16, -1, False)
    up = np.arange(100000, dtype=dtype) / 7
    for r in (up, up[::-1].copy(), h[:1000].copy(), h[:130].copy(), h[:65].copy()):
        for largest in (True, False):
            _check(lz(r, dev), r, 16, -1, largest)
    a = lz(make(dtype, (3, 50000), seed=4), dev)
    ha = np.asarray(a)
    v, i = lazycl.top_k(lazycl.abs(a - 0.5), 12, largest=False)
    ev, ei = _ref(np.abs(ha - 0.5), 12, -1, False)
    np.testing.assert_array_equal(np.asarray(i), ei)
    np.testing.assert_array_equal(np.asarray(v), ev)


# `make test` takes float32 keys (PoCL builds each GPU-shaped one-launch kernel, for the
# LAZYCL_SCHEDULE=gpu child run, in 3-6 s: the groups' selection in loops with barriers);
# `make test-full` every width, signed and unsigned, and bool's ties.
@pytest.mark.parametrize("dtype", core(["float32", "int32", "uint16", "int8", "bool", "float64"],
                                       ["float32"]))
def test_long_row_in_one_launch(dev, dtype):
    """A long row cut into many chunks: on GPUs (P >= 1024 chunks in whole groups) each group
    selects the k best of its items' lists and the row's last group merges them, in one launch
    (codegen/topk_group.c); keys of 64 bits keep the merges. NaN, -0.0, ties (a row of equal
    values: every later element ranks first for the largest), rising rows, both ends, several
    rows, a pending key."""
    n = 300001
    h = make(dtype, (n,), seed=5, lo=-100, hi=100)
    if h.dtype.kind == "f":
        h[::1009] = np.nan
        h[7::101] = -0.0
        h[8::103] = 0.0
    x = lz(h, dev)
    for k in (1, 7, 16):
        for largest in (True, False):
            lazycl.reset_stats()
            _check(x, h, k, -1, largest)
    one = dev.schedule == "gpu" and dev.compute_units * 512 >= 1024 and h.dtype.itemsize <= 4
    if one:
        lazycl.reset_stats()
        lazycl.top_k(x, 16)[1].compute()
        assert lazycl.stats()["launches"] == 1, lazycl.stats()
    for r in (np.zeros(n, h.dtype), np.arange(n).astype(h.dtype)):
        for largest in (True, False):
            _check(lz(r, dev), r, 16, -1, largest)
    rows = make(dtype, (3, 1 << 19), seed=6, lo=-100, hi=100)
    for largest in (True, False):
        _check(lz(rows, dev), rows, 16, -1, largest)
    if h.dtype.kind == "f":
        v, i = lazycl.top_k(lazycl.abs(x - 3) * 2, 16, largest=False)
        ev, ei = _ref(np.abs(h - 3) * 2, 16, -1, False)
        np.testing.assert_array_equal(np.asarray(i), ei)
        np.testing.assert_array_equal(np.asarray(v), ev)
