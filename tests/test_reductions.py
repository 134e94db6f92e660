"""Reductions: differential tests against NumPy over axes, dtypes, layouts and edge cases."""
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

import lazycl
from conftest import core

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25
    from numpy import AxisError

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DEVICES = lazycl.devices()

AXES = [None, 0, 1, 2, -1, -2, -3, (0, 1), (0, 2), (1, 2), (2, 0), (-1, 0), (0, 1, 2)]
SHAPE = (5, 6, 7)


def data(dtype, shape=SHAPE, seed=0, small=False):
    """Values that keep every reduction exact or well-conditioned for `dtype`."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind == "f":
        if small:
            return rng.uniform(0.5, 1.5, shape).astype(dt)
        return rng.standard_normal(shape).astype(dt)
    if dt.kind == "u":
        hi = 3 if small else min(np.iinfo(dt).max, 1000)
        return rng.integers(0, hi, shape, endpoint=True).astype(dt)
    if small:
        return rng.integers(-2, 2, shape, endpoint=True).astype(dt)
    return rng.integers(-100, 100, shape, endpoint=True).astype(dt)


RTOL = {np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-12}


def check(got, want, rtol=None, atol=0.0):
    """got is a lazycl.Array equal to the NumPy result `want` in dtype, shape and value."""
    want = np.asarray(want)
    assert isinstance(got, lazycl.Array), type(got)
    g = np.asarray(got)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if want.dtype.kind == "f":
        if rtol is None:
            rtol = RTOL[want.dtype]
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


# ---- every reduction over every axis ---------------------------------------------------

FLOAT_REDS = ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all", "count_nonzero",
              "nansum", "nanmean", "nanmin", "nanmax"]


@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("fn", ["sum", "max", "var", "any"])
def test_every_axis_devices(dev, fn, axis):
    a = data(np.float32)
    x = lazycl.asarray(a, device=dev)
    check(getattr(lazycl, fn)(x, axis=axis), getattr(np, fn)(a, axis=axis), rtol=1e-4,
          atol=1e-6)


# make test: all, the middle axis, the last and two apart; test_every_axis_devices runs
# every axis (float32, every device) for sum, max, var and any.
@pytest.mark.parametrize("axis", core(AXES, [None, 1, 2, (0, 2)]), ids=str)
@pytest.mark.parametrize("fn", FLOAT_REDS)
def test_float32_every_axis(fn, axis):
    a = data(np.float32, small=(fn == "prod"))
    x = lazycl.asarray(a)
    check(getattr(lazycl, fn)(x, axis=axis), getattr(np, fn)(a, axis=axis), rtol=1e-4,
          atol=1e-6)


@pytest.mark.parametrize("axis", core(AXES, [None, 0, 1, 2, (0, 2)]), ids=str)
@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all",
                                "count_nonzero"])
def test_int32_every_axis(fn, axis):
    a = data(np.int32, small=(fn == "prod"))
    x = lazycl.asarray(a)
    check(getattr(lazycl, fn)(x, axis=axis), getattr(np, fn)(a, axis=axis))


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, -3])
@pytest.mark.parametrize("fn", ["argmin", "argmax"])
@pytest.mark.parametrize("dtype", core([np.float32, np.int32, np.uint8, np.bool_, np.float64],
                                       [np.float32, np.uint8]))
def test_arg_every_axis(fn, axis, dtype):
    # Few distinct values, so ties are common: NumPy returns the first.
    a = data(np.int8, small=True).astype(dtype)
    x = lazycl.asarray(a)
    check(getattr(lazycl, fn)(x, axis=axis), getattr(np, fn)(a, axis=axis))


@pytest.mark.parametrize("axis", core([None, 1, -1, (0, 2)], [None, -1]), ids=str)
@pytest.mark.parametrize("fn", FLOAT_REDS + ["argmin", "argmax"])
def test_keepdims(fn, axis):
    if fn.startswith("arg") and isinstance(axis, tuple):
        pytest.skip("argmin/argmax take one axis")
    a = data(np.float64, small=(fn == "prod"))
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=axis, keepdims=True),
          getattr(np, fn)(a, axis=axis, keepdims=True))


# ---- dtypes and result dtypes ---------------------------------------------------------

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float32, np.float64]


@pytest.mark.parametrize("axis", [None, 1])
@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "var", "std", "any",
                                "all", "count_nonzero", "argmin", "argmax"])
@pytest.mark.parametrize("dtype", core(DTYPES), ids=lambda d: np.dtype(d).name)
def test_dtypes(fn, dtype, axis):
    if np.dtype(dtype).kind == "b" and fn in ("var", "std"):
        # NumPy itself: var of bool works (as float64).
        pass
    a = data(dtype, small=(fn in ("prod", "var", "std")))
    x = lazycl.asarray(a)
    want = getattr(np, fn)(a, axis=axis)
    check(getattr(lazycl, fn)(x, axis=axis), want, rtol=1e-5 if want.dtype == np.float32 else
          None)


@pytest.mark.parametrize("dtype, fn, result", [
    (np.int32, "sum", np.int64), (np.bool_, "sum", np.int64), (np.uint8, "sum", np.uint64),
    (np.int8, "prod", np.int64), (np.uint16, "prod", np.uint64), (np.int32, "mean", np.float64),
    (np.uint8, "mean", np.float64), (np.bool_, "mean", np.float64), (np.int64, "var", np.float64),
    (np.float32, "mean", np.float32), (np.float32, "std", np.float32),
    (np.uint8, "max", np.uint8), (np.int16, "min", np.int16), (np.float32, "argmax", np.int64),
    (np.int32, "any", np.bool_), (np.float32, "count_nonzero", np.int64),
])
def test_result_dtype(dtype, fn, result):
    a = data(dtype, small=True)
    r = getattr(lazycl, fn)(lazycl.asarray(a))
    assert getattr(np, fn)(a).dtype == np.dtype(result)  # the table above is NumPy's
    assert r.dtype == np.dtype(result)
    check(r, getattr(np, fn)(a))


@pytest.mark.parametrize("fn, src, dt", [
    ("sum", np.int32, np.float64), ("sum", np.float32, np.float64), ("sum", np.int8, np.int8),
    ("sum", np.uint8, np.uint8), ("sum", np.float64, np.float32), ("prod", np.int16, np.int16),
    ("prod", np.int32, np.float32), ("mean", np.int32, np.float32),
    ("mean", np.float32, np.float64), ("var", np.int32, np.float32),
    ("std", np.float32, np.float64), ("nansum", np.float32, np.float64),
])
@pytest.mark.parametrize("axis", [None, 0, 2])
def test_dtype_argument(fn, src, dt, axis):
    a = data(src, small=(fn == "prod"))
    want = getattr(np, fn)(a, axis=axis, dtype=dt)
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=axis, dtype=dt), want, rtol=1e-5)


@pytest.mark.parametrize("dtype", core(DTYPES + [np.complex64]), ids=lambda d: np.dtype(d).name)
def test_sum_without_arguments(dtype):
    """x.sum() and lazycl.sum(x), the call with no argument (one node without the general
    path): NumPy's accumulator dtype and value for n-d, 0-d, empty and pending inputs."""
    a = data(dtype)
    for v in (a, a[1, 2, 3].copy().reshape(()), a[:, :0], a[1]):
        x = lazycl.asarray(v)
        check(x.sum(), np.sum(v))
        check(lazycl.sum(x), v.sum())
        check((x + x).sum(), (v + v).sum())


def test_int8_sum_wraps_with_dtype():
    a = np.full(300, 100, np.int8)
    check(lazycl.sum(lazycl.asarray(a), dtype=np.int8), np.sum(a, dtype=np.int8))


def test_uint8_sum_does_not_wrap():
    a = np.full(1000, 255, np.uint8)
    check(lazycl.sum(lazycl.asarray(a)), np.sum(a))


# ---- ddof ------------------------------------------------------------------------------

@pytest.mark.parametrize("ddof", [0, 1, 2, 5])
@pytest.mark.parametrize("fn", ["var", "std"])
@pytest.mark.parametrize("axis", [None, 0, 1, (1, 2)], ids=str)
def test_ddof(fn, ddof, axis):
    a = data(np.float64)
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=axis, ddof=ddof),
          getattr(np, fn)(a, axis=axis, ddof=ddof))


@pytest.mark.parametrize("fn", ["var", "std"])
def test_ddof_at_and_past_n(fn):
    a = np.array([1.0, 2.0, 4.0])
    for ddof in (3, 4):
        check(getattr(lazycl, fn)(lazycl.asarray(a), ddof=ddof), getattr(np, fn)(a, ddof=ddof))


def test_var_int_ddof1():
    a = data(np.int32)
    check(lazycl.var(lazycl.asarray(a), axis=0, ddof=1), np.var(a, axis=0, ddof=1))


# ---- layouts ---------------------------------------------------------------------------

def layouts():
    """(name, NumPy view maker): each applied to the same base on both sides."""
    return [
        ("T", lambda v: v.T),
        ("transpose102", lambda v: v.transpose(1, 0, 2)),
        ("strided", lambda v: v[::2, :, 1::3]),
        ("negstride", lambda v: v[::-1, :, ::-2]),
        ("negstride_all", lambda v: v[::-1, ::-1, ::-1]),
        ("slice_T", lambda v: v[1:, 2:5].transpose(2, 0, 1)),
        ("bcast", lambda v: v[:, :1, :] * 1 + v[:1, :, :1] * 0),
    ]


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2)], ids=str)
@pytest.mark.parametrize("fn", ["sum", "max", "argmin", "var"])
@pytest.mark.parametrize("lay", layouts(), ids=lambda p: p[0])
def test_noncontiguous_lazy_views(lay, fn, axis):
    dev = None
    if fn == "argmin" and isinstance(axis, tuple):
        pytest.skip("argmin takes one axis")
    a = data(np.float32)
    _, view = lay
    want = getattr(np, fn)(view(a), axis=axis)
    got = getattr(lazycl, fn)(view(lazycl.asarray(a, device=dev)), axis=axis)
    check(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", ["sum", "min", "argmax", "mean", "std"])
def test_noncontiguous_numpy_input(fn):
    # asarray of a NumPy view (negative strides, transposed).
    a = data(np.float64)[::-1, ::2].transpose(2, 0, 1)
    for axis in (None, 0, 1, 2):
        check(getattr(lazycl, fn)(lazycl.asarray(a), axis=axis), getattr(np, fn)(a, axis=axis))


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "var", "argmax"])
@pytest.mark.parametrize("axis", [None, 0, 1, 2])
def test_broadcast_input(fn, axis):
    a = data(np.float64, shape=(1, 6, 1), small=True)
    want = getattr(np, fn)(np.broadcast_to(a, SHAPE), axis=axis)
    got = getattr(lazycl, fn)(lazycl.broadcast_to(lazycl.asarray(a), SHAPE), axis=axis)
    # var of equal values: NumPy's two-pass result is ~1e-32, lazycl's may be exactly 0.
    check(got, want, atol=1e-15)


def test_broadcast_scalar_plus_array():
    a = data(np.float32, shape=(7,))
    x = lazycl.asarray(a)
    check(lazycl.sum(x + lazycl.zeros((4, 5, 7), dtype=np.float32), axis=(0, 1)),
          np.sum(a + np.zeros((4, 5, 7), np.float32), axis=(0, 1)))


# ---- NaN -------------------------------------------------------------------------------

def nan_data(dtype=np.float64):
    a = data(dtype)
    a[1, 2, 3] = np.nan
    a[0, :, 5] = np.nan
    a[4, 0, 0] = np.nan
    a[3, 3, 3] = np.inf
    a[2, 1, 1] = -np.inf
    return a


@pytest.mark.parametrize("axis", [None, 0, 2, (0, 2)], ids=str)
@pytest.mark.parametrize("fn", ["max", "min", "sum", "mean", "var", "nanmax", "nanmin", "nansum",
                                "nanmean"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan(request, fn, axis, dtype):
    dev = None
    a = nan_data(dtype)
    want = getattr(np, fn)(a, axis=axis)
    check(getattr(lazycl, fn)(lazycl.asarray(a, device=dev), axis=axis), want, rtol=1e-5)


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1])
@pytest.mark.parametrize("fn", ["argmax", "argmin"])
def test_arg_nan_is_first_nan(dev, fn, axis):
    a = nan_data(np.float32)
    a[2, 4, 6] = np.nan
    check(getattr(lazycl, fn)(lazycl.asarray(a, device=dev), axis=axis),
          getattr(np, fn)(a, axis=axis))


def test_max_nan_small():
    for a in ([1.0, np.nan, 3.0], [np.nan, 1.0], [1.0, 2.0, np.nan], [np.nan, np.nan]):
        a = np.array(a, np.float32)
        x = lazycl.asarray(a)
        for fn in ("max", "min", "argmax", "argmin", "nanmax", "nanmin"):
            check(getattr(lazycl, fn)(x), getattr(np, fn)(a))


def test_nan_long_rows():
    # Long enough for the SIMD (8-wide) loop and the split schedule: NaN anywhere propagates.
    for n in (9, 17, 1000, 100003):
        for pos in (0, 7, n // 2, n - 1):
            a = np.arange(n, dtype=np.float32)
            a[pos] = np.nan
            x = lazycl.asarray(a)
            assert np.isnan(float(lazycl.max(x))), (n, pos)
            assert np.isnan(float(lazycl.min(x))), (n, pos)
            assert int(lazycl.argmax(x)) == pos, (n, pos)
            assert int(lazycl.argmin(x)) == pos, (n, pos)
            assert float(lazycl.nanmax(x)) == np.nanmax(a), (n, pos)


def test_nanmax_all_nan_slice():
    a = np.full((3, 4), np.nan)
    a[1, 2] = 5.0
    check(lazycl.nanmax(lazycl.asarray(a), axis=1), np.nanmax(a, axis=1))
    check(lazycl.nanmin(lazycl.asarray(a), axis=0), np.nanmin(a, axis=0))
    check(lazycl.nanmean(lazycl.asarray(a), axis=1), np.nanmean(a, axis=1))


def test_any_all_nan_is_true():
    a = np.array([0.0, np.nan])
    check(lazycl.any(lazycl.asarray(a)), np.any(a))
    check(lazycl.all(lazycl.asarray(a[1:])), np.all(a[1:]))
    check(lazycl.count_nonzero(lazycl.asarray(a)), np.count_nonzero(a))


def test_nanfuncs_on_ints_are_plain():
    a = data(np.int32)
    for fn in ("nansum", "nanmean", "nanmax", "nanmin"):
        check(getattr(lazycl, fn)(lazycl.asarray(a), axis=1), getattr(np, fn)(a, axis=1))


# ---- logsumexp ---------------------------------------------------------------------------
# lazycl.logsumexp reads max(x, keepdims=True) through a reshape + broadcast, which once
# crashed lc_fuse (a segfault kills pytest), so each case runs in a child process.

LSE_CASE = """
import math, sys
import numpy as np, lazycl

def np_logsumexp(a, axis=None, keepdims=False):
    a = np.asarray(a, np.float64)
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    if not keepdims:
        r = np.squeeze(r, axis=axis) if axis is not None else r.reshape(())
    return r

axis, keepdims = {axis!r}, {keepdims!r}
a = np.random.default_rng(0).standard_normal((5, 6, 7)) * 50
got = np.asarray(lazycl.logsumexp(lazycl.asarray(a), axis=axis, keepdims=keepdims))
want = np_logsumexp(a, axis=axis, keepdims=keepdims)
assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
np.testing.assert_allclose(got, want, rtol=1e-12)
"""

LSE_EDGES = """
import math
import numpy as np, lazycl
a = np.array([1000.0, 1000.0, -np.inf])
assert math.isclose(float(lazycl.logsumexp(lazycl.asarray(a))), 1000.0 + math.log(2))
b = np.array([-np.inf, -np.inf])
assert float(lazycl.logsumexp(lazycl.asarray(b))) == -np.inf
f32 = np.array([100.0, 90.0], np.float32)
r = lazycl.logsumexp(lazycl.asarray(f32))
assert r.dtype == np.float32
assert math.isclose(float(r), 100.0 + math.log1p(math.exp(-10)), rel_tol=1e-6)
"""


def in_child(code):
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, (0, 2)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp(axis, keepdims):
    in_child(LSE_CASE.format(axis=axis, keepdims=keepdims))


def test_logsumexp_large_values_and_inf():
    in_child(LSE_EDGES)


# ---- empty and 0-d ---------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0, 2)], ids=str)
@pytest.mark.parametrize("fn", ["sum", "prod", "mean", "var", "any", "all", "count_nonzero",
                                "nansum"])
def test_empty_full_reduction(fn, shape):
    a = np.zeros(shape, np.float32)
    check(getattr(lazycl, fn)(lazycl.asarray(a)), getattr(np, fn)(a))


def test_empty_values():
    x = lazycl.asarray(np.zeros((0,), np.float64))
    assert float(lazycl.sum(x)) == 0.0
    assert float(lazycl.prod(x)) == 1.0
    assert math.isnan(float(lazycl.mean(x)))
    assert bool(lazycl.all(x)) is True
    assert bool(lazycl.any(x)) is False
    xi = lazycl.asarray(np.zeros((0,), np.int32))
    r = lazycl.sum(xi)
    assert r.dtype == np.int64 and int(r) == 0


@pytest.mark.parametrize("fn", ["min", "max", "argmin", "argmax", "nanmin", "nanmax"])
def test_empty_raises_value_error(fn):
    a = np.zeros((0,), np.float32)
    with pytest.raises(ValueError):
        getattr(np, fn)(a)
    with pytest.raises(ValueError):
        np.asarray(getattr(lazycl, fn)(lazycl.asarray(a)))


@pytest.mark.parametrize("fn", ["min", "max", "argmin", "argmax"])
def test_empty_axis_raises_or_not_like_numpy(fn):
    a = np.zeros((0, 3), np.float32)
    # Reducing the empty axis: NumPy raises.
    with pytest.raises(ValueError):
        getattr(np, fn)(a, axis=0)
    with pytest.raises(ValueError):
        np.asarray(getattr(lazycl, fn)(lazycl.asarray(a), axis=0))
    # Reducing a non-empty axis of an empty array: an empty result.
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=1), getattr(np, fn)(a, axis=1))


@pytest.mark.parametrize("fn", ["sum", "prod", "mean", "var"])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_empty_partial_reductions(request, fn, axis):
    a = np.zeros((3, 0, 2), np.float64)
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=axis), getattr(np, fn)(a, axis=axis))


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all",
                                "argmin", "argmax", "count_nonzero", "nanmax", "nansum"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_zero_d(fn, dtype):
    a = np.array(3, dtype=dtype)
    x = lazycl.asarray(a)
    check(getattr(lazycl, fn)(x), getattr(np, fn)(a))
    if fn not in ("count_nonzero",):
        check(getattr(lazycl, fn)(x, axis=None), getattr(np, fn)(a, axis=None))


@pytest.mark.parametrize("fn", ["sum", "max", "mean", "any"])
def test_zero_d_empty_axes_tuple(fn):
    a = np.array(2.5)
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=()), getattr(np, fn)(a, axis=()))


def test_empty_axes_tuple_3d():
    a = data(np.int32)
    for fn in ("sum", "max", "prod"):
        check(getattr(lazycl, fn)(lazycl.asarray(a), axis=()), getattr(np, fn)(a, axis=()))


# ---- exceptions ------------------------------------------------------------------------

def raises_like(fn, a, **kw):
    """lazycl raises the exception type NumPy raises (build time or at forcing)."""
    with pytest.raises(Exception) as npe:
        getattr(np, fn)(a, **kw)
    with pytest.raises(Exception) as lce:
        np.asarray(getattr(lazycl, fn)(lazycl.asarray(a), **kw))
    assert isinstance(lce.value, type(npe.value)), (fn, kw, repr(npe.value), repr(lce.value))


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all",
                                "argmin", "argmax", "nansum", "nanmax", "count_nonzero"])
@pytest.mark.parametrize("axis", [3, -4, 10], ids=str)
def test_bad_axis(fn, axis):
    a = data(np.float32)
    raises_like(fn, a, axis=axis)
    with pytest.raises(AxisError):
        getattr(lazycl, fn)(lazycl.asarray(a), axis=axis)


@pytest.mark.parametrize("fn", ["sum", "max", "mean", "var", "any"])
def test_duplicate_axis(fn):
    raises_like(fn, data(np.float32), axis=(0, 0))
    raises_like(fn, data(np.float32), axis=(1, -2))


@pytest.mark.parametrize("fn", ["argmin", "argmax"])
def test_arg_tuple_axis(fn):
    raises_like(fn, data(np.float32), axis=(0, 1))


@pytest.mark.parametrize("fn", ["sum", "argmax"])
def test_float_axis(fn):
    raises_like(fn, data(np.float32), axis=1.0)


@pytest.mark.parametrize("fn", ["sum", "max", "argmax", "any"])
def test_zero_d_axis_0(fn):
    a = np.array(1.0)
    check(getattr(lazycl, fn)(lazycl.asarray(a), axis=0), getattr(np, fn)(a, axis=0))


@pytest.mark.parametrize("fn", ["mean", "var", "std"])
def test_zero_d_axis_0_refused_like_numpy(fn):
    raises_like(fn, np.array(1.0), axis=0)


# ---- laziness through the NumPy protocols ------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda x: np.sum(x), lambda x: np.prod(x, axis=0), lambda x: np.max(x), lambda x: np.min(x),
    lambda x: np.mean(x, axis=1), lambda x: np.var(x), lambda x: np.std(x, ddof=1),
    lambda x: np.argmax(x), lambda x: np.argmin(x, axis=2), lambda x: np.any(x > 0),
    lambda x: np.all(x > 0), lambda x: np.count_nonzero(x), lambda x: np.nansum(x),
    lambda x: np.nanmean(x), lambda x: np.nanmax(x), lambda x: np.add.reduce(x, axis=1),
    lambda x: np.maximum.reduce(x), lambda x: x.sum(axis=0), lambda x: x.mean(),
    lambda x: np.amax(x, axis=(0, 2)),
], ids=["sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "any", "all",
        "count_nonzero", "nansum", "nanmean", "nanmax", "add.reduce", "maximum.reduce",
        "method_sum", "method_mean", "amax"])
def test_numpy_calls_stay_lazy(call):
    a = data(np.float32)
    x = lazycl.asarray(a)
    r = call(x)
    assert isinstance(r, lazycl.Array)
    assert r.pending
    check(r, call(a), rtol=1e-5, atol=1e-6)


# ---- large cases -------------------------------------------------------------------------

def test_float32_sum_2_24_accuracy(dev):
    rng = np.random.default_rng(42)
    a = rng.uniform(0.0, 1.0, 1 << 24).astype(np.float32)
    ref = np.sum(a, dtype=np.float64)
    x = lazycl.asarray(a, device=dev)
    got = [np.asarray(lazycl.sum(x)) for _ in range(3)]
    assert got[0].dtype == np.float32
    err_lc = abs(float(got[0]) - ref)
    err_np = abs(float(np.sum(a)) - ref)
    assert err_lc <= err_np, (err_lc, err_np)
    # Deterministic: bitwise equal run to run.
    assert got[0].tobytes() == got[1].tobytes() == got[2].tobytes()


def test_float32_sum_ones_2_24_plus(dev):
    # A naive float32 accumulator stalls at 2^24; a correct sum does not.
    a = np.ones((1 << 24) + 1000, np.float32)
    assert float(lazycl.sum(lazycl.asarray(a, device=dev))) == float((1 << 24) + 1000)


LARGE = (4096, 1024)


@pytest.fixture(scope="module")
def large():
    rng = np.random.default_rng(7)
    return rng.standard_normal(LARGE).astype(np.float32)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("fn", ["sum", "mean", "max", "min", "var", "argmax", "argmin"])
def test_large_schedules(dev, large, fn, axis):
    x = lazycl.asarray(large, device=dev)
    ref = getattr(np, fn)(large.astype(np.float64), axis=axis)
    runs = [np.asarray(getattr(lazycl, fn)(x, axis=axis)) for _ in range(3)]
    want_dtype = getattr(np, fn)(large[:2, :2], axis=axis if axis is None else axis).dtype
    assert runs[0].dtype == want_dtype
    assert runs[0].shape == np.shape(ref)
    if fn.startswith("arg"):
        np.testing.assert_array_equal(runs[0], getattr(np, fn)(large, axis=axis))
    else:
        # Row/column sums of N(0,1): absolute error relative to sqrt(n) scale.
        n = large.size if axis is None else large.shape[axis]
        np.testing.assert_allclose(runs[0], ref, rtol=1e-5, atol=1e-6 * math.sqrt(n))
    assert runs[0].tobytes() == runs[1].tobytes() == runs[2].tobytes()


@pytest.mark.parametrize("fn,dtype", [(f, d) for f in ("sum", "mean", "max", "argmax", "var",
                                                          "prod")
                                      for d in ("float32", "float64", "int32", "complex64")
                                      if not (d == "complex64" and "max" in f)])
def test_outer_column_reductions(dev, fn, dtype):
    """Column reductions whose reads are vectors broadcast along one dim or the other, none a
    matrix (norm(Vd @ C, axis=0) for a small K): Intel's runtime runs them one item per
    output, PoCL in SIMD panels or lanes, GPUs in column blocks; 4096 outputs, 600 rows.
    (Complex max: test_complex.py's lexicographic reductions.)"""
    rng = np.random.default_rng(5)
    u, w = (rng.uniform(0.9, 1.1, (600, 1)), rng.uniform(0.9, 1.1, (1, 4096)))
    if dtype == "int32":
        u, w = rng.integers(-3, 4, (600, 1)), rng.integers(-3, 4, (1, 4096))
    if dtype == "complex64":
        u = u + 0.01j * rng.standard_normal((600, 1))
    u, w = u.astype(dtype), w.astype(dtype)
    h = u * w + w * w
    x = lazycl.asarray(u, device=dev) * lazycl.asarray(w, device=dev) + \
        lazycl.asarray(w, device=dev) ** 2
    if fn == "prod" and dtype == "int32":   # int products of 20 rows in -1..1 (floats near 1)
        h, x = h[:20] % 3 - 1, x[:20] % 3 - 1
    got, want = np.asarray(getattr(lazycl, fn)(x, axis=0)), getattr(np, fn)(h, axis=0)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-4 if dtype in ("float32", "complex64")
                                   else 1e-10)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_large_int_sum(axis):
    a = np.arange(LARGE[0] * LARGE[1], dtype=np.int32).reshape(LARGE)
    check(lazycl.sum(lazycl.asarray(a), axis=axis), np.sum(a, axis=axis))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_large_fused_prologue(large, axis):
    x = lazycl.asarray(large)
    ref = np.sum((large.astype(np.float64) - 0.5) ** 2, axis=axis)
    np.testing.assert_allclose(np.asarray(lazycl.sum((x - 0.5) ** 2, axis=axis)), ref, rtol=1e-5)


def test_large_transposed_column_sum(large):
    x = lazycl.asarray(large)
    ref = large.astype(np.float64).T.sum(axis=0)
    np.testing.assert_allclose(np.asarray(x.T.sum(axis=0)), ref, rtol=1e-5, atol=1e-4)


def test_mean_var_large_offset_stable():
    # var of values with a large common offset: a naive E[x^2]-E[x]^2 loses everything.
    rng = np.random.default_rng(3)
    a = (1e4 + rng.standard_normal(1 << 20)).astype(np.float32)
    ref = np.var(a.astype(np.float64))
    got = float(lazycl.var(lazycl.asarray(a)))
    assert abs(got - ref) / ref < 1e-3, (got, ref)


def test_warnings_do_not_escape_as_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        float(lazycl.sum(lazycl.asarray(np.ones(4))))


# Column reductions with many rows: on PoCL these run as blocks of adjacent
# columns times chunks of rows, combined in chunk order by a second launch
# (codegen's schedule D); the shapes cover a partial last block, row counts
# that do not divide into the chunks, several reduced dims and NaN/inf.
@pytest.mark.parametrize("shape,axis", [((1000, 75), 0), ((777, 40), 0), ((300, 4, 37), (0, 1)),
                                        ((2, 513, 33), (0, 1)), ((640, 64), 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_column_blocks(dev, shape, axis, dtype):
    rng = np.random.default_rng(11)
    a = (rng.standard_normal(shape) * 3 + 1e3).astype(dtype)
    flat = a.reshape(-1, a.shape[-1])
    flat[5, 3] = np.nan
    flat[-1, 7] = np.inf
    flat[17, -1] = -np.inf
    x = lazycl.asarray(a, device=dev)
    mean, std, var1 = x.mean(axis), x.std(axis), x.var(axis, ddof=1)
    lazycl.compute(mean, std, var1)
    a64 = a.astype(np.float64)
    tol = RTOL[np.dtype(dtype)] * 10
    np.testing.assert_allclose(np.asarray(mean), a64.mean(axis), rtol=tol)
    np.testing.assert_allclose(np.asarray(std), a64.std(axis), rtol=max(tol, 1e-4 if dtype == "float32" else 0))
    np.testing.assert_allclose(np.asarray(var1), a64.var(axis, ddof=1), rtol=max(tol, 1e-4 if dtype == "float32" else 0))
    for fn in ("sum", "max", "min"):
        np.testing.assert_allclose(np.asarray(getattr(x, fn)(axis)), getattr(a64, fn)(axis), rtol=tol)
    z = (x - x.mean(axis, keepdims=True)) / x.std(axis, keepdims=True)
    np.testing.assert_allclose(np.asarray(z), (a64 - a64.mean(axis, keepdims=True)) / a64.std(axis, keepdims=True),
                               rtol=1e-3 if dtype == "float32" else 1e-9, atol=1e-3 if dtype == "float32" else 1e-9)


@pytest.mark.parametrize("shape", [(1000, 75), (777, 40), (300, 4, 37), (4096, 64)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_column_sum_beside_var(dev, shape, dtype):
    """A column sum (x.mean(0) is one) beside x.var / x.std of the same values in one force:
    on PoCL the sum comes from the variance's shifted sums (n K + sum(x - K)), with no
    accumulator of its own; NumPy's values all the same, NaN and inf included, at a large
    offset and for standardize."""
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    axis = (0, 1) if len(shape) == 3 else 0
    rng = np.random.default_rng(7)
    for offset, special in [(1e4, False), (0.0, True)]:
        a = (rng.standard_normal(shape) * 3 + offset).astype(dtype)
        if special:
            flat = a.reshape(-1, a.shape[-1])
            flat[5, 3] = np.nan
            flat[-1, 7] = np.inf
            flat[17, -1] = -np.inf
        x = lazycl.asarray(a, device=dev)
        got = x.sum(axis), x.mean(axis), x.std(axis), x.var(axis, ddof=1)
        lazycl.compute(*got)
        a64 = a.astype(np.float64)
        want = a64.sum(axis), a64.mean(axis), a64.std(axis), a64.var(axis, ddof=1)
        tol = 1e-5 if dtype == "float32" else 1e-12
        # Sums that cancel: absolute error against the sum of magnitudes.
        mag = np.where(np.isfinite(a64), np.abs(a64), 0).sum(axis).max()
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), w.astype(dtype), rtol=tol,
                                       atol=mag * (1e-7 if dtype == "float32" else 1e-15))
    z = (x - x.mean(axis)) / x.std(axis)
    np.testing.assert_allclose(np.asarray(z), (a64 - a64.mean(axis)) / a64.std(axis),
                               rtol=1e-4 if dtype == "float32" else 1e-10, atol=1e-5)


def test_standardize_kernels(dev):
    """(X - X.mean(0)) / X.std(0): one reduce kernel for the column sums and variances
    (partials and their combine on PoCL) and one map."""
    a = np.random.default_rng(1).random((2048, 256)).astype(np.float32)
    x = lazycl.asarray(a, device=dev)
    x.compute()
    ((x - x.mean(0)) / x.std(0)).compute()
    lazycl.reset_stats()
    z = (x - x.mean(0)) / x.std(0)
    z.compute()
    assert lazycl.stats()["launches"] <= 3
    np.testing.assert_allclose(np.asarray(z), (a - a.mean(0)) / a.std(0), rtol=1e-4, atol=1e-5)


def test_column_blocks_schedule_is_used():
    if lazycl.default_device().schedule != "simd":
        pytest.skip("the blocked column schedule is the SIMD target's (CPUs)")
    x = lazycl.asarray(np.ones((1000, 75), np.float32))
    assert "blocks of 32 outputs x chunks of rows" in lazycl.explain(x.mean(0), x.std(0))
    # The second launch combines each block's partials in chunk order: same bits every run.
    a = np.random.default_rng(2).standard_normal((1000, 75)).astype(np.float32)
    runs = [np.asarray(lazycl.asarray(a).std(0)).tobytes() for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]


# ---- integer operands of float reductions (explicit SIMD) ----------------------------------

def _schedules(*arrays):
    """The schedule comment of each kernel lazycl.explain shows."""
    return [l.split("reduce kernel:", 1)[1].split(";", 1)[1].strip()
            for l in lazycl.explain(*arrays).splitlines() if "reduce kernel:" in l]


@pytest.mark.parametrize("dev", DEVICES, ids=lambda d: d.filter_string)
@pytest.mark.parametrize("ndt", ["bool", "int8", "uint32", "int64"])
def test_int_operand_of_float_reduction(dev, ndt):
    """An integer array read only by float arithmetic (Dask's variance divides by an int64
    count) keeps a float reduction's SIMD schedule, with NumPy's values: per column
    (broadcast along the reduced axis) and whole and reversed, both axes, a tail of columns
    past the vector width."""
    x = data("float32", (333, 37), seed=1)
    lx = lazycl.asarray(x, device=dev)
    for n in (data(ndt, (1, 37), seed=3, small=True), data(ndt, (333, 37), seed=2)[::-1]):
        ln = lazycl.asarray(n, device=dev)
        for axis in (0, 1):
            def f(v, n):
                d = v - n
                return (d * d).sum(axis=axis), (v / (n + 1.0)).max(axis=axis)
            got = f(lx, ln)
            lazycl.compute(*got)
            for g, r in zip(got, f(x, n)):
                check(g, r, rtol=1e-5 if r.dtype == np.float32 else 1e-12)
    # the schedule is the one a float operand of the same layout gets
    x = lazycl.asarray(data("float32", (4096, 256)), device=dev)
    n = data(ndt, (1, 256), small=True)
    as_int = (x - lazycl.asarray(n, device=dev)).sum(axis=0)
    as_float = (x - lazycl.asarray(n.astype(np.float32), device=dev)).sum(axis=0)
    assert _schedules(as_int) == _schedules(as_float)
    check(as_int, (x.numpy() - n).sum(axis=0), rtol=1e-4)
