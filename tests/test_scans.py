"""Scans and diff: differential tests against NumPy (axes, dtypes, NaN, large three-phase scans)."""
import numpy as np
import pytest

import lazycl

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def np_cummax(a, axis):
    return np.maximum.accumulate(a, axis=axis)


def np_cummin(a, axis):
    return np.minimum.accumulate(a, axis=axis)


def ref(fn, a, axis, **kw):
    if fn == "cummax":
        return np_cummax(a.ravel() if axis is None else a, 0 if axis is None else axis)
    if fn == "cummin":
        return np_cummin(a.ravel() if axis is None else a, 0 if axis is None else axis)
    return getattr(np, fn)(a, axis=axis, **kw)


def check(got, want, rtol=1e-6, atol=0.0):
    want = np.asarray(want)
    assert isinstance(got, lazycl.Array)
    g = np.asarray(got)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


def data(dtype, shape=(4, 5, 6), seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind == "f":
        return rng.uniform(0.5, 1.5, shape).astype(dt)
    if dt.kind == "u":
        return rng.integers(0, 3, shape, endpoint=True).astype(dt)
    return rng.integers(-2, 2, shape, endpoint=True).astype(dt)


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, -3])
@pytest.mark.parametrize("fn", ["cumsum", "cumprod", "cummax", "cummin"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_every_axis(dev, fn, axis, dtype):
    a = data(dtype)
    check(getattr(lazycl, fn)(lazycl.asarray(a, device=dev), axis=axis), ref(fn, a, axis),
          rtol=1e-5)


@pytest.mark.parametrize("fn", ["cumsum", "cumprod", "cummax", "cummin"])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64,
                                   np.uint64], ids=lambda d: np.dtype(d).name)
def test_dtypes(fn, dtype):
    a = data(dtype)
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=1), ref(fn, a, 1))


@pytest.mark.parametrize("src, fn, result", [
    (np.int32, "cumsum", np.int64), (np.bool_, "cumsum", np.int64), (np.uint8, "cumsum", np.uint64),
    (np.int16, "cumprod", np.int64), (np.float32, "cumsum", np.float32),
    (np.int32, "cummax", np.int32), (np.uint8, "cummin", np.uint8),
])
def test_result_dtype(src, fn, result):
    a = data(src)
    r = getattr(lazycl, fn)(lazycl.asarray(a), axis=0)
    assert r.dtype == np.dtype(result)
    check(r, ref(fn, a, 0))


@pytest.mark.parametrize("fn, src, dt", [("cumsum", np.int32, np.float64),
                                         ("cumsum", np.int8, np.int8),
                                         ("cumsum", np.float32, np.float64),
                                         ("cumprod", np.int32, np.int32),
                                         ("cumprod", np.float64, np.float32)])
def test_dtype_argument(fn, src, dt):
    a = data(src)
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=2, dtype=dt),
          getattr(np, fn)(a, axis=2, dtype=dt), rtol=1e-6)


def test_int8_cumsum_wraps_with_dtype():
    a = np.full(300, 100, np.int8)
    check(lazycl.cumsum(lazycl.asarray(a), dtype=np.int8), np.cumsum(a, dtype=np.int8))


@pytest.mark.parametrize("fn", ["cummax", "cummin", "cumsum", "cumprod"])
@pytest.mark.parametrize("n", [5, 37, 5000])
def test_nan_propagates(dev, fn, n):
    a = np.linspace(-1, 1, n).astype(np.float32)
    a[n // 3] = np.nan
    check(getattr(lazycl, fn)(lazycl.asarray(a, device=dev)), ref(fn, a, None), rtol=1e-4,
          atol=1e-5)


def test_cummax_nan_rows():
    a = data(np.float64, (6, 9))
    a[2, 4] = np.nan
    a[5, 0] = np.nan
    for axis in (0, 1):
        check(lazycl.cummax(lazycl.asarray(a), axis=axis), np_cummax(a, axis))
        check(lazycl.cummin(lazycl.asarray(a), axis=axis), np_cummin(a, axis))


@pytest.mark.parametrize("fn", ["cumsum", "cummax"])
def test_noncontiguous(fn):
    a = data(np.float32, (8, 9, 10))
    views = [lambda v: v.T, lambda v: v[::-1, :, ::2], lambda v: v[1:, ::-3].transpose(2, 0, 1)]
    for view in views:
        for axis in (0, 1, 2):
            check(getattr(lazycl, fn)(view(lazycl.asarray(a)), axis=axis),
                  ref(fn, view(a), axis), rtol=1e-5)


def test_broadcast_input():
    a = data(np.float64, (1, 7))
    b = np.broadcast_to(a, (5, 7))
    x = lazycl.broadcast_to(lazycl.asarray(a), (5, 7))
    for axis in (0, 1):
        check(lazycl.cumsum(x, axis=axis), np.cumsum(b, axis=axis))


EMPTY_BUG = ("bug: an empty array with a non-empty axis, e.g. cumsum of zeros((3, 0)) along axis "
             "0, raises 'ValueError: internal: reading a node that is not contiguous'")


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4)], ids=str)
def test_empty(shape):
    a = np.zeros(shape, np.float32)
    for axis in range(len(shape)):
        check(lazycl.cumsum(lazycl.asarray(a), axis=axis), np.cumsum(a, axis=axis))
        check(lazycl.cummax(lazycl.asarray(a), axis=axis), np_cummax(a, axis))


@pytest.mark.parametrize("shape,axis", [((10,), 0), ((100001,), 0), ((5000, 3), 0),
                                        ((3, 70001), 1), ((300, 4), 1)], ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_negative_zero_sum(dev, shape, axis, dtype):
    """A running sum of -0.0 values stays -0.0, as NumPy's (whose first value is the first
    element, not 0.0 + it); a +0.0 among them turns it to +0.0 from there on."""
    if np.dtype(dtype).itemsize == 8 and np.dtype(dtype).kind == "f" and not dev.fp64:
        pytest.skip("no fp64")
    h = np.full(shape, -0.0, dtype)
    idx = [slice(None)] * len(shape)
    idx[axis] = shape[axis] // 2
    h[tuple(idx)] = 0.0
    got = np.asarray(lazycl.cumsum(lazycl.asarray(h, device=dev), axis=axis))
    want = np.cumsum(h, axis=axis)
    assert got.dtype == want.dtype
    assert np.array_equal(np.signbit(got.real), np.signbit(want.real))
    assert np.array_equal(np.signbit(got.imag), np.signbit(want.imag))


def test_zero_d():
    a = np.array(2.5)
    check(lazycl.cumsum(lazycl.asarray(a)), np.cumsum(a))
    check(lazycl.cumprod(lazycl.asarray(a)), np.cumprod(a))


def test_bad_axis():
    a = data(np.float32)
    for axis in (3, -4):
        with pytest.raises(np.exceptions.AxisError):
            np.cumsum(a, axis=axis)
        with pytest.raises(np.exceptions.AxisError):
            lazycl.cumsum(lazycl.asarray(a), axis=axis)


def test_numpy_calls_stay_lazy():
    a = data(np.float32)
    x = lazycl.asarray(a)
    for call in (lambda v: np.cumsum(v, axis=1), lambda v: np.cumprod(v),
                 lambda v: np.add.accumulate(v, axis=2), lambda v: np.diff(v),
                 lambda v: v.cumsum(axis=0)):
        r = call(x)
        assert isinstance(r, lazycl.Array) and r.pending
        check(r, call(a), rtol=1e-5)


# ---- large scans (three-phase schedule) and 2-d scans -----------------------------------

@pytest.mark.parametrize("n", [1 << 20, (1 << 20) + 12345])
def test_large_cumsum(dev, n):
    rng = np.random.default_rng(1)
    a = rng.uniform(0, 1, n).astype(np.float32)
    reference = np.cumsum(a.astype(np.float64))
    got = np.asarray(lazycl.cumsum(lazycl.asarray(a, device=dev)))
    assert got.dtype == np.float32
    # A float32 running sum of values in [0, 1): relative error of a few float32 ulps of the
    # running value, no worse than NumPy's sequential float32 scan.
    err_lc = np.max(np.abs(got - reference) / reference)
    err_np = np.max(np.abs(np.cumsum(a) - reference) / reference)
    assert err_lc <= max(err_np, 1e-6), (err_lc, err_np)
    again = np.asarray(lazycl.cumsum(lazycl.asarray(a, device=dev)))
    assert got.tobytes() == again.tobytes()


@pytest.mark.parametrize("fn", ["cummax", "cummin"])
def test_large_cummax(dev, fn):
    rng = np.random.default_rng(2)
    a = rng.standard_normal(1 << 20).astype(np.float32)
    check(getattr(lazycl, fn)(lazycl.asarray(a, device=dev)), ref(fn, a, None))


def test_large_int_cumsum():
    a = np.arange(1 << 20, dtype=np.int32) % 1000 - 500
    check(lazycl.cumsum(lazycl.asarray(a)), np.cumsum(a))


def test_large_cumprod_near_one():
    a = np.full(1 << 20, 1.0 + 1e-7, np.float64)
    check(lazycl.cumprod(lazycl.asarray(a)), np.cumprod(a), rtol=1e-9)


@pytest.mark.parametrize("shape", [(1024, 1000), (3, 300000), (300000, 3)], ids=str)
@pytest.mark.parametrize("axis", [0, 1])
def test_2d_scan(shape, axis):
    rng = np.random.default_rng(4)
    a = rng.uniform(0, 1, shape).astype(np.float32)
    reference = np.cumsum(a.astype(np.float64), axis=axis)
    got = np.asarray(lazycl.cumsum(lazycl.asarray(a), axis=axis))
    np.testing.assert_allclose(got, reference, rtol=2e-5)
    check(lazycl.cummax(lazycl.asarray(a), axis=axis), np_cummax(a, axis))


def test_fused_prologue_scan():
    a = data(np.float32, (1 << 16,))
    x = lazycl.asarray(a)
    check(lazycl.cumsum(x * x + 1), np.cumsum(a * a + 1), rtol=1e-5)


# ---- diff --------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_])
def test_diff(n, axis, dtype):
    a = data(dtype)
    check(lazycl.diff(lazycl.asarray(a), n=n, axis=axis), np.diff(a, n=n, axis=axis))


def test_diff_n_larger_than_axis():
    a = data(np.float64, (3, 4))
    for n in (4, 5):
        check(lazycl.diff(lazycl.asarray(a), n=n), np.diff(a, n=n))


def test_diff_errors():
    a = data(np.float64, (3, 4))
    with pytest.raises(ValueError):
        np.diff(a, n=-1)
    with pytest.raises(ValueError):
        lazycl.diff(lazycl.asarray(a), n=-1)
    with pytest.raises(np.exceptions.AxisError):
        lazycl.diff(lazycl.asarray(a), axis=2)


def test_diff_noncontiguous():
    a = data(np.float32, (5, 6))
    check(lazycl.diff(lazycl.asarray(a).T, n=2, axis=0), np.diff(a.T, n=2, axis=0))
    check(lazycl.diff(lazycl.asarray(a)[::-1], axis=0), np.diff(a[::-1], axis=0))


def test_diff_of_cumsum_roundtrip():
    a = np.arange(1, 100, dtype=np.int64)
    c = lazycl.cumsum(lazycl.asarray(a))
    check(lazycl.diff(c), np.diff(np.cumsum(a)))


# ---- long rows in one pass (GPUs' scans: codegen/scan_lookback.c) -----------------------
# Tiles of 4096 (256 items x 16) take tickets and look back 32 tiles at a time for an inclusive
# prefix (float sums and products: they fold only from one, in tile order, keeping up to 16
# windows of aggregates). The sizes cross tile and window boundaries: the split threshold (two
# tiles), a tile and one, 32 tiles (a window) and one either side, 66 tiles and one, and an odd
# count.

_ONE_PASS = [8192, 4096 * 5 + 1, 4096 * 32 - 1, 4096 * 32, 4096 * 32 + 1, 4096 * 66 + 1,
             4096 * 333 + 7]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8,
                                   np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_one_pass_cumsum(dev, dtype):
    """cumsum of long rows: on GPU targets in one launch (a look-back; for floats in a fixed
    association), complex128 (16-byte states) in three; the same bits every run."""
    if np.dtype(dtype).itemsize == 8 and np.dtype(dtype).kind == "f" and not dev.fp64:
        pytest.skip("no fp64")
    for n in _ONE_PASS:
        h = data(dtype, (n,), seed=n)
        if np.dtype(dtype).kind == "c":
            h = h + 1j * data(np.float32, (n,), seed=n + 1)
        x = lazycl.asarray(h, device=dev).compute()
        lazycl.cumsum(x).compute()
        lazycl.reset_stats()
        got = lazycl.cumsum(x).compute()
        if dev.schedule == "gpu":
            assert lazycl.stats()["launches"] == (3 if np.dtype(dtype) == np.complex128 else 1)
        wide = h.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
        want = np.cumsum(h)
        if want.dtype.kind in "fc":
            # Within NumPy's own error (complex64 sums in float32 on some targets, as NumPy).
            exact = np.cumsum(wide)
            tol = max(1e-5, 2 * np.max(np.abs(want - exact) / np.abs(exact)))
            np.testing.assert_allclose(np.asarray(got), exact, rtol=tol)
            assert np.asarray(got).dtype == want.dtype
        else:
            check(got, want)
        again = np.asarray(lazycl.cumsum(x))
        assert np.asarray(got).tobytes() == again.tobytes()


@pytest.mark.parametrize("fn", ["cummax", "cummin", "cumprod"])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint32, np.int64, np.float32],
                         ids=lambda d: np.dtype(d).name)
def test_one_pass_other_ops(dev, fn, dtype):
    """cummax/cummin (floats with NaN and -0.0: the first NaN carries on), cumprod (wrapping
    integers; floats near one)."""
    for n in _ONE_PASS:
        rng = np.random.default_rng(n)
        if fn == "cumprod" and np.dtype(dtype).kind == "f":
            r = rng.random(n)        # a random walk of the log that stays in range
            h = np.where(r < 0.001, 1.5, np.where(r > 0.999, 1 / 1.5, 1.0)).astype(dtype)
        elif fn == "cumprod":
            h = np.where(rng.random(n) < 0.01, 3, 1).astype(dtype)      # wraps
        elif np.dtype(dtype).kind == "f":
            h = rng.standard_normal(n).astype(dtype)
            h[rng.integers(0, n, 3)] = -0.0
            h[n - n // 7] = np.nan
        else:
            h = rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, n, dtype=dtype,
                             endpoint=True)
        x = lazycl.asarray(h, device=dev)
        got = getattr(lazycl, fn)(x)
        if fn == "cumprod" and np.dtype(dtype).kind == "f":
            # Against float64: NumPy's float32 product drifts (2.6e-5 here), lazycl's is double.
            check(got, np.cumprod(h.astype(np.float64)).astype(dtype), rtol=1e-5)
        else:
            check(got, ref(fn, h, None), rtol=1e-5)
        assert np.asarray(got).tobytes() == np.asarray(getattr(lazycl, fn)(x)).tobytes()


@pytest.mark.parametrize("fn", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_one_pass_float_bits(dev, fn, dtype):
    """A float sum's or product's look-back folds the tiles' aggregates from the first tile on,
    in tile order, whichever inclusive prefix it meets: the same bits in every run, however far
    each group looked (on a GPU, thousands of groups in flight). The values span 12 orders of
    magnitude, so that another association would round differently."""
    if np.dtype(dtype).itemsize == 8 and not dev.fp64:
        pytest.skip("no fp64")
    n = 4096 * 700 + 3
    rng = np.random.default_rng(5)
    if fn == "cumsum":
        h = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)).astype(dtype)
    else:
        h = (1 + rng.standard_normal(n) * 1e-4).astype(dtype)
    x = lazycl.asarray(h, device=dev).compute()
    first = np.asarray(getattr(lazycl, fn)(x))
    np.testing.assert_allclose(first, getattr(np, fn)(h.astype(np.float64)),
                               rtol=1e-4 if dtype == np.float32 else 1e-10,
                               atol=1e-3 * np.max(np.abs(first)) if fn == "cumsum" else 0)
    for _ in range(8):
        assert np.asarray(getattr(lazycl, fn)(x)).tobytes() == first.tobytes()


@pytest.mark.parametrize("shape", [(3, 2048 * 9 + 5), (2, 5, 9000), (20001, 2)], ids=str)
def test_one_pass_rows(dev, shape):
    """A few long rows: one tree per row (the tickets run through every row's tiles in
    turn)."""
    h = data(np.int32, shape, seed=7)
    x = lazycl.asarray(h, device=dev)
    for axis in range(len(shape)):
        check(lazycl.cumsum(x, axis=axis), np.cumsum(h, axis=axis))
        check(lazycl.cummax(x * 2 + 1, axis=axis), np_cummax(h * 2 + 1, axis))
