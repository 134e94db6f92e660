"""NumPy's protocols on lazycl arrays: one-argument where, clip's bounds (NumPy 2 does not cast
them), ufuncs composed of lazycl's ops (logaddexp, logaddexp2, heaviside; lazy), ufunc.outer
(lazy), ufunc.reduce / accumulate with their keywords, and every other ufunc or method
computed on the host with a HostFallbackWarning (out= written back), never a TypeError."""
import warnings

import numpy as np
import pytest

import lazycl
from conftest import assert_same, lz, make

SPECIAL = np.array([-1.5, 0.0, 2.0, np.nan, np.inf, -np.inf, -0.0, 700.0, -700.0])
OTHER = np.array([0.5, 0.0, 2.0, 1.0, np.inf, -np.inf, 3.0, 699.0, 1.0])


def test_one_argument_where(dev):
    c = np.array([[0, 1, 0], [2, 0, 3]])
    got = np.where(lz(c, dev))
    want = np.where(c)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)
    with pytest.raises(ValueError):
        lazycl.where(lz(c, dev), 1)


def test_clip_bounds_are_not_cast(dev):
    for dtype in ["uint8", "int8", "uint16"]:
        x = make(dtype, (20,), seed=1)
        for lo, hi in [(-2, 2), (-1000, 1000), (None, 3), (-300, None), (5, 70)]:
            assert_same(np.clip(lz(x, dev), lo, hi), np.clip(x, lo, hi))


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2", "heaviside"])
def test_composed_ufuncs(dev, name):
    f = getattr(np, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dtype in ["float64", "float32"]:
            a, b = SPECIAL.astype(dtype), OTHER.astype(dtype)
            lazycl.reset_stats()
            r = f(lz(a, dev), lz(b, dev))
            r.compute()
            assert lazycl.stats()["launches"] == 1
            assert_same(r, f(a, b), rtol=1e-6, atol=1e-6)
            assert_same(f(lz(a, dev), 0.5), f(a, 0.5), rtol=1e-6, atol=1e-6)
        i = make("int32", (9,), seed=2)
        assert_same(f(lz(i, dev), lz(i[::-1].copy(), dev)), f(i, i[::-1]), rtol=1e-12)


def test_ufunc_outer_and_reduce_keywords(dev):
    a, b = make("float64", (3,), seed=1), make("float64", (2, 2), seed=2)
    lazycl.reset_stats()
    r = np.add.outer(lz(a, dev), lz(b, dev))
    r.compute()
    assert lazycl.stats()["launches"] == 1
    assert_same(r, np.add.outer(a, b))
    assert_same(np.multiply.outer(lz(a, dev), 2.0), np.multiply.outer(a, 2.0))
    x = make("float64", (2, 3), seed=3)
    m = np.array([True, False, True])
    assert_same(np.add.reduce(lz(x, dev), axis=1, where=lz(m, dev), initial=10),
                np.add.reduce(x, axis=1, where=m, initial=10))
    assert_same(np.maximum.reduce(lz(x, dev), axis=None, initial=10.0),
                np.maximum.reduce(x, axis=None, initial=10.0))
    assert_same(np.multiply.accumulate(lz(x, dev), axis=1, dtype=np.float32),
                np.multiply.accumulate(x, axis=1, dtype=np.float32), rtol=1e-6)


def test_other_ufuncs_run_on_the_host(dev):
    a, b = np.array([4, 6, 9]), np.array([6, 9, 12])
    lazycl._fallback.WARNED.discard((np.bitwise_count, "__call__"))  # shown once per ufunc
    with pytest.warns(lazycl.HostFallbackWarning, match="numpy.bitwise_count is not implemented"):
        r = np.bitwise_count(lz(a, dev))
    np.testing.assert_array_equal(np.asarray(r), np.bitwise_count(a))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(np.asarray(np.add.reduceat(lz(np.arange(8), dev), [0, 4, 5])),
                                      np.add.reduceat(np.arange(8), [0, 4, 5]))
        out = lz(np.zeros(3, np.uint8), dev)
        np.bitwise_count(lz(b, dev), out=out)
    assert_same(out, np.bitwise_count(b))
