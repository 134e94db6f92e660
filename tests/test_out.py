"""out= of reductions and scans against NumPy doing the same: the result is written into out
(a lazycl or NumPy array) with NumPy's loop dtype, unsafe cast, exact shape check, and out is
returned; the method forms; ufunc.reduce and ufunc.accumulate; aliasing with the input."""
import numpy as np
import pytest

import lazycl
from conftest import core, lz


def same(got, ref, rtol=0.0):
    g = np.asarray(got)
    assert g.dtype == ref.dtype and g.shape == ref.shape, (g.dtype, g.shape, ref.dtype, ref.shape)
    if rtol:
        np.testing.assert_allclose(g, ref, rtol=rtol)
    else:
        np.testing.assert_array_equal(g, ref)


def data(dtype, shape=(4, 6)):
    # Halves: every sum, in any order and any float dtype here, is exact.
    h = (np.arange(int(np.prod(shape))).reshape(shape) % 7) * 0.5 - 1
    if np.dtype(dtype).kind == "b":
        return h > 0
    if np.dtype(dtype).kind in "iu":
        return (h * 2).astype(dtype)
    return h.astype(dtype)


# name, function, out dtypes to try, tolerance
FUNCS = [
    ("sum", np.sum, [np.float64, np.float32, np.int64, np.int16, np.bool_], 0),
    ("prod", np.prod, [np.float64, np.int64, np.int8], 0),
    ("max", np.max, [np.float64, np.int32, np.bool_], 0),
    ("min", np.min, [np.float32, np.int64], 0),
    ("any", np.any, [np.bool_, np.float64, np.int8], 0),
    ("all", np.all, [np.bool_, np.int32], 0),
    ("mean", np.mean, [np.float64, np.float32, np.int64], 0),
    ("nansum", np.nansum, [np.float64, np.int32], 0),
    ("nanmax", np.nanmax, [np.float32, np.int64], 0),
    ("var", np.var, [np.float64, np.float32], 1e-6),
    ("std", np.std, [np.float64, np.float32], 1e-6),
]


@pytest.mark.parametrize("xdtype", core([np.float64, np.float32, np.int32, np.bool_],
                                        [np.float64, np.int32]),
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("fi", range(len(FUNCS)), ids=[f[0] for f in FUNCS])
def test_reduction_out(dev, xdtype, fi):
    name, f, odtypes, tol = FUNCS[fi]
    h = data(xdtype)
    x = lz(h, dev)
    for axis, keepdims in [(None, False), (0, False), (1, True), ((0, 1), False)]:
        ref_shape = np.asarray(f(h, axis=axis, keepdims=keepdims)).shape
        for od in odtypes:
            ho = np.zeros(ref_shape, od)
            try:
                want = f(h, axis=axis, keepdims=keepdims, out=ho)
            except TypeError:
                with pytest.raises(TypeError):
                    f(x, axis=axis, keepdims=keepdims, out=lazycl.zeros(ref_shape, od,
                                                                        device=dev))
                continue
            assert want is ho
            o = lazycl.zeros(ref_shape, od, device=dev)
            got = f(x, axis=axis, keepdims=keepdims, out=o)
            assert got is o
            same(o, ho, tol)
            hn = np.zeros(ref_shape, od)                  # a NumPy out gets the values too
            assert f(x, axis=axis, keepdims=keepdims, out=hn) is hn
            same(hn, ho, tol)


def test_loop_dtype_follows_out(dev):
    # NumPy resolves the loop with out's dtype: float32 data summed into float64 out sums in
    # float64; a float sum truncated into an int out is the float sum's truncation.
    h = np.full(100000, 0.1, np.float32)
    o = lazycl.zeros((), np.float64, device=dev)
    lazycl.sum(lz(h, dev), out=o)
    ref = np.sum(h, out=np.zeros((), np.float64))
    np.testing.assert_allclose(np.asarray(o), ref, rtol=1e-12)
    assert abs(float(o) - float(np.sum(h))) > 1e-4        # not the float32 sum, widened
    h = np.array([0.6, 0.6, 0.6])
    o = lazycl.zeros((), np.int64, device=dev)
    lazycl.sum(lz(h, dev), out=o)
    same(o, np.sum(h, out=np.zeros((), np.int64)))        # 1, not 0
    big = np.array([2 ** 24, 1, 1, 1])
    o = lazycl.zeros((), np.float32, device=dev)
    lazycl.mean(lz(big, dev), out=o)
    same(o, np.mean(big, out=np.zeros((), np.float32)))
    o = lazycl.zeros((), np.int64, device=dev)
    lazycl.mean(lz(h, dev), out=o)                        # sum cast first: 1 // 3
    same(o, np.mean(h, out=np.zeros((), np.int64)))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_out(dev, name):
    h = data(np.float64)
    x = lz(h, dev)
    f = getattr(np, name)
    for axis, keepdims, shape in [(None, False, ()), (0, False, (6,)), (1, True, (4, 1))]:
        for od in (np.int64, np.int32, np.uint8):
            ho = np.zeros(shape, od)
            f(h, axis=axis, keepdims=keepdims, out=ho)
            o = lazycl.zeros(shape, od, device=dev)
            assert f(x, axis=axis, keepdims=keepdims, out=o) is o
            same(o, ho)
    with pytest.raises(TypeError, match="safe"):
        f(x, axis=0, out=lazycl.zeros(6, np.float64, device=dev))
    with pytest.raises(TypeError, match="safe"):
        f(h, axis=0, out=np.zeros(6, np.float64))
    with pytest.raises(ValueError, match="does not match"):
        f(x, axis=0, out=lazycl.zeros(4, np.int64, device=dev))
    with pytest.raises(ValueError, match="does not match"):
        f(x, out=lazycl.zeros(1, np.int64, device=dev))


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scan_out(dev, name):
    h = data(np.float64, (3, 4))
    x = lz(h, dev)
    f = getattr(np, name)
    for axis, shape in [(None, (12,)), (0, (3, 4)), (1, (3, 4))]:
        for od in (np.float64, np.float32, np.int64):
            ho = np.zeros(shape, od)
            f(h, axis=axis, out=ho)
            o = lazycl.zeros(shape, od, device=dev)
            assert f(x, axis=axis, out=o) is o
            same(o, ho)
    with pytest.raises(ValueError, match="wrong size"):
        f(x, out=lazycl.zeros((3, 4), device=dev))
    with pytest.raises(ValueError, match="wrong size"):
        f(h, out=np.zeros((3, 4)))
    big = np.array([2 ** 24, 1, 1, 1])                 # integers widened to float64, then cast
    o = lazycl.zeros(4, np.float32, device=dev)
    np.cumsum(lz(big, dev), out=o)
    same(o, np.cumsum(big, out=np.zeros(4, np.float32)))


def test_out_errors(dev):
    h = data(np.float64)
    x = lz(h, dev)
    for f in (np.sum, np.max, np.any, np.mean, np.var):
        with pytest.raises(ValueError):                 # wrong number of dimensions
            f(x, axis=1, out=lazycl.zeros((1, 4), device=dev))
        with pytest.raises(ValueError):
            f(h, axis=1, out=np.zeros((1, 4)))
        with pytest.raises(ValueError):                 # wrong shape
            f(x, axis=1, out=lazycl.zeros(6, device=dev))
        with pytest.raises(ValueError):
            f(h, axis=1, out=np.zeros(6))
        with pytest.raises(ValueError):                 # keepdims: the kept dims count
            f(x, axis=1, keepdims=True, out=lazycl.zeros(4, device=dev))
        with pytest.raises(TypeError):                  # not an array
            f(x, axis=1, out=[0, 0, 0, 0])
    with pytest.raises(TypeError, match="inexact"):
        np.nanmean(x, axis=0, out=lazycl.zeros(6, np.int64, device=dev))
    o = lazycl.zeros(6, device=dev)
    with pytest.raises(ValueError):                     # nothing was written on an error
        np.sum(x, axis=1, out=o)
    same(o, np.zeros(6))


def test_methods_and_ufunc_reduce(dev):
    h = data(np.float64)
    x = lz(h, dev)
    o = lazycl.zeros(6, np.int32, device=dev)
    assert x.sum(0, None, o) is o                       # positional, as ndarray.sum
    same(o, h.sum(0, None, np.zeros(6, np.int32)))
    assert x.max(axis=1, out=lazycl.zeros(4, device=dev)) is not None
    o = lazycl.zeros(4, np.float32, device=dev)
    assert x.mean(axis=1, out=o) is o
    same(o, h.mean(axis=1, out=np.zeros(4, np.float32)))
    o = lazycl.zeros(6, np.int8, device=dev)
    assert np.add.reduce(x, axis=0, out=o) is o
    same(o, np.add.reduce(h, axis=0, out=np.zeros(6, np.int8)))
    o = lazycl.zeros((4, 6), np.int64, device=dev)
    assert np.add.accumulate(x, axis=1, out=o) is o
    same(o, np.add.accumulate(h, axis=1, out=np.zeros((4, 6), np.int64)))
    o = lazycl.zeros((), np.int32, device=dev)
    assert np.trace(x, out=o) is o
    same(o, np.trace(h, out=np.zeros((), np.int32)))


def test_out_aliasing(dev):
    h = data(np.float64)
    x = lz(h, dev)
    before = x * 1                                      # built before: the old values
    row = x[0]
    np.sum(x, axis=0, out=x[0])                         # out is a view of the input
    hh = h.copy()
    np.sum(hh, axis=0, out=hh[0])
    same(x, hh)
    same(row, hh[0])                                    # other views see the write
    same(before, h)
    # out a view of another array (a realized one: a view of lazycl.zeros taken before its
    # first write is a known gap, docs/layout.md "Writes")
    o = lz(np.zeros((2, 6)), dev)
    np.max(x, axis=0, out=o[1])
    ho = np.zeros((2, 6))
    np.max(hh, axis=0, out=ho[1])
    same(o, ho)


def test_out_kernels(dev):
    x = lz(np.random.default_rng(0).random((200, 300)), dev)
    x.compute()
    o = lz(np.zeros(200), dev)
    lazycl.reset_stats()
    np.sum(x * 2, axis=1, out=o)
    assert lazycl.stats()["launches"] <= 2              # the reduction, its store into out
    np.testing.assert_allclose(np.asarray(o), np.asarray(x).sum(1) * 2, rtol=1e-12)
