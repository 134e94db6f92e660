"""where= and initial= of the reductions against NumPy: the masked elements count as the
reduction's identity (max and min take `initial`, which they need with a mask); the mask
broadcasts to the input, never the other way; a mask that keeps nothing gives NumPy's answer."""
import warnings

import numpy as np
import pytest

import lazycl
from conftest import assert_same, lz, make


def test_sum_where_is_not_ignored(dev):
    """The example of the array API issue: sum(arange(6), where=x != 3) is 12, not 15."""
    a = np.arange(6.0)
    assert_same(np.sum(lz(a, dev), where=lz(a != 3, dev)), np.sum(a, where=a != 3))
    assert float(np.sum(lz(a, dev), where=lz(a != 3, dev))) == 12.0


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_reductions_with_where(dev, dtype):
    x = make(dtype, (4, 5), seed=1)
    m = make("bool", (4, 5), seed=2)
    mr = make("bool", (5,), seed=3)
    X, M, MR = lz(x, dev), lz(m, dev), lz(mr, dev)
    t = dict(rtol=1e-5, atol=1e-6) if dtype != "int32" else {}
    ft = dict(rtol=1e-5, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [
            (lambda n, a, w, wr: n.sum(a, where=w), t),
            (lambda n, a, w, wr: n.sum(a, axis=0, where=wr), t),
            (lambda n, a, w, wr: n.prod(a, axis=1, where=w), t),
            (lambda n, a, w, wr: n.mean(a, where=w), ft),
            (lambda n, a, w, wr: n.mean(a, axis=0, where=w, keepdims=True), ft),
            (lambda n, a, w, wr: n.var(a, axis=1, where=w, ddof=1), ft),
            (lambda n, a, w, wr: n.std(a, where=w), ft),
            (lambda n, a, w, wr: n.any(a > 1, where=w), {}),
            (lambda n, a, w, wr: n.all(a > -1, axis=0, where=w), {}),
            (lambda n, a, w, wr: n.max(a, initial=2), t),
            (lambda n, a, w, wr: n.max(a, axis=1, initial=-9, where=w), t),
            (lambda n, a, w, wr: n.min(a, axis=0, initial=9, where=wr), t),
            (lambda n, a, w, wr: n.nansum(a, where=w), t),
            (lambda n, a, w, wr: n.nanmean(a, axis=1, where=w), ft),
            (lambda n, a, w, wr: n.mean(a, axis=0, where=w & False), ft),   # nothing kept: NaN
        ]
        for f, tt in cases:
            assert_same(f(np, X, M, MR), f(np, x, m, mr), **tt)


def test_where_and_initial_errors(dev):
    x, m = make("float64", (4, 5)), make("bool", (4, 5))
    X, M = lz(x, dev), lz(m, dev)
    for f in [lambda n, a, w: n.max(a, where=w),                 # no identity: initial needed
              lambda n, a, w: n.sum(a, where=w[:, :2]),          # not broadcastable
              lambda n, a, w: n.sum(a[0], where=w)]:             # the mask may not grow the input
        with pytest.raises(ValueError):
            f(np, x, m)
        with pytest.raises(ValueError):
            f(np, X, M)
    with pytest.raises(TypeError):
        np.sum(X, where=lz(np.ones((4, 5)), dev))
    assert_same(np.max(lz(np.zeros((0, 3)), dev), axis=0, initial=2.0),
                np.max(np.zeros((0, 3)), axis=0, initial=2.0))
