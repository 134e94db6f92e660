"""lazycl's ufuncs as NumPy's: their attributes, and reduce, accumulate, outer, at and reduceat
against NumPy's (dtypes, 0-d, empty, strided and reversed views, axes, keepdims, repeated
indices, errors), lazy and fused (kernel counts), and the same through NumPy's own ufuncs."""
import pickle
import warnings

import numpy as np
import pytest

import lazycl
from conftest import assert_same, lz, make

TOL = {"float32": 2e-6, "float64": 1e-12}


def tol(dtype):
    r = TOL.get(str(np.dtype(dtype)), 0.0)
    return {"rtol": r, "atol": r}


def data(dtype, shape, seed=0):
    # Small values, so that products stay exact in int32 and near 1 in floats.
    return make(dtype, shape, seed, lo=-3, hi=3)


@pytest.fixture
def dev0():
    """The first device: the name-by-dtype matrices of at and reduceat run there (their kernels
    are slow to build on Intel's CPU runtime); the other tests run on every device."""
    return lazycl.devices()[0]


def check_error(f_lc, f_np, exc):
    with pytest.raises(exc) as want:
        f_np()
    with pytest.raises(exc) as got:
        f_lc()
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)


# ---- the ufunc objects ------------------------------------------------------------------

def test_attributes_are_numpys():
    names = [n for n in lazycl.__all__ if isinstance(getattr(lazycl, n), lazycl._ufuncs.ufunc)]
    assert len(names) > 70
    for n in names:
        u, ref = getattr(lazycl, n), getattr(np, n)
        assert u.__name__ == ref.__name__, n
        assert (u.nin, u.nout, u.nargs) == (ref.nin, ref.nout, ref.nargs), n
        assert u.identity == ref.identity and type(u.identity) is type(ref.identity), n
        assert u.signature is None and u.__doc__
        assert repr(u) == f"<lazycl.ufunc '{ref.__name__}'>"
        assert pickle.loads(pickle.dumps(u)) is u
    assert lazycl.abs is lazycl.absolute and lazycl.divide is lazycl.true_divide
    assert lazycl.mod is lazycl.remainder and lazycl.pow is lazycl.power
    assert lazycl.acos is lazycl.arccos and lazycl.atan2 is lazycl.arctan2
    assert lazycl.bitwise_not is lazycl.invert and lazycl.conj is lazycl.conjugate
    assert lazycl.add.identity == 0 and lazycl.maximum.identity is None
    assert lazycl.logical_and.identity is True and lazycl.bitwise_and.identity == -1


def test_call_is_unchanged(dev):
    a, b = data("float32", (3, 4)), data("float32", (4,), 1)
    assert_same(lazycl.add(lz(a, dev), lz(b, dev)), a + b)
    assert_same(lazycl.add(lz(a, dev), 2), a + 2)
    assert_same(lazycl.negative(lz(a, dev)), -a)
    assert_same(lazycl.add([1, 2], [3, 4]), np.add([1, 2], [3, 4]))
    m, e = lazycl.frexp(lz(a, dev))
    assert_same(m, np.frexp(a)[0])
    assert_same(lazycl.logaddexp(lz(a, dev), lz(b, dev)), np.logaddexp(a, b), **tol("float32"))
    out = lz(np.zeros((3, 4), np.float64), dev)
    assert lazycl.multiply(lz(a, dev), 2.0, out=out) is out
    assert_same(out, (a * 2.0).astype(np.float64))


# ---- reduce -----------------------------------------------------------------------------

# (dtype, shape, axis, keepdims, view): each dtype, 0-d, empty, strided and reversed views,
# axes None / 0 / -1 / a tuple (the reductions themselves are tested in test_reductions.py).
REDUCE_CASES = [("int32", (3, 4), 0, False, None), ("float32", (3, 4), -1, True, "strided"),
                ("float64", (3, 4), None, False, "reversed"), ("bool", (2, 3, 4), (0, 2), True,
                                                                None),
                ("float32", (), 0, False, None), ("int32", (0, 3), 0, True, None)]
VIEWS = {None: lambda a: a, "strided": lambda a: a[:, ::2], "reversed": lambda a: a[::-1, ::-1]}


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_and",
                                  "logical_or"])
def test_reduce(dev, name):
    u, ref = getattr(lazycl, name), getattr(np, name)
    for dtype, shape, axis, keepdims, view in REDUCE_CASES:
        x = data(dtype, shape, seed=len(shape))
        if name in ("maximum", "minimum") and x.size == 0:
            continue                            # no identity: an error (test_reduce_errors)
        assert_same(u.reduce(VIEWS[view](lz(x, dev)), axis=axis, keepdims=keepdims),
                    ref.reduce(VIEWS[view](x), axis=axis, keepdims=keepdims), **tol(dtype))


def test_reduce_keywords(dev):
    x = data("float32", (3, 4), 1)
    m = np.array([True, False, True, True])
    assert_same(lazycl.add.reduce(lz(x, dev), axis=1, dtype=np.float64),
                np.add.reduce(x, axis=1, dtype=np.float64), rtol=1e-12)
    assert_same(lazycl.maximum.reduce(lz(x, dev), axis=0, dtype=np.float64),
                np.maximum.reduce(x, axis=0, dtype=np.float64))
    assert_same(lazycl.add.reduce(lz(x, dev), axis=1, initial=10, where=lz(m, dev)),
                np.add.reduce(x, axis=1, initial=10, where=m), **tol("float32"))
    assert_same(lazycl.minimum.reduce(lz(x, dev), axis=None, initial=-5.0, where=m),
                np.minimum.reduce(x, axis=None, initial=-5.0, where=m))
    assert_same(lazycl.maximum.reduce(lz(np.zeros((2, 0), np.float32), dev), axis=1, initial=1),
                np.maximum.reduce(np.zeros((2, 0), np.float32), axis=1, initial=1))
    assert_same(lazycl.logical_or.reduce(lz(x > 2, dev), axis=0, initial=True),
                np.logical_or.reduce(x > 2, axis=0, initial=True))
    assert_same(lazycl.logical_and.reduce(lz(x, dev), axis=1, where=m),
                np.logical_and.reduce(x, axis=1, where=m))
    i8 = data("int8", (5,), 2)
    assert_same(lazycl.add.reduce(lz(i8, dev)), np.add.reduce(i8))        # int64, as NumPy's
    b = data("bool", (2, 5), 3)
    for name in ["logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"]:
        assert_same(getattr(lazycl, name).reduce(lz(b, dev), axis=-1),
                    getattr(np, name).reduce(b, axis=-1))
    assert_same(lazycl.logical_xor.reduce(lz(x, dev), axis=0), np.logical_xor.reduce(x, axis=0))
    nan = np.array([[np.nan, 1.0], [2.0, np.nan]])
    for name in ["fmax", "fmin", "maximum", "minimum"]:
        assert_same(getattr(lazycl, name).reduce(lz(nan, dev), axis=1),
                    getattr(np, name).reduce(nan, axis=1))
    for out in [lz(np.zeros(3), dev), np.zeros(3)]:
        assert lazycl.add.reduce(lz(x, dev), axis=1, out=out) is out
        assert_same(out, np.add.reduce(x, axis=1, out=np.zeros(3)), rtol=1e-6)


def test_reduce_on_the_host(dev):
    x = data("int32", (3, 4), 2)
    lazycl._fallback.WARNED.discard((np.subtract, "reduce"))
    with pytest.warns(lazycl.HostFallbackWarning, match="numpy.subtract.reduce"):
        r = lazycl.subtract.reduce(lz(x, dev), axis=1)
    assert isinstance(r, lazycl.Array)
    assert_same(r, np.subtract.reduce(x, axis=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lazycl.HostFallbackWarning)
        assert_same(lazycl.bitwise_xor.reduce(lz(x, dev), axis=0), np.bitwise_xor.reduce(x, 0))
        check_error(lambda: lazycl.subtract.reduce(lz(x, dev), axis=None),
                    lambda: np.subtract.reduce(x, axis=None), ValueError)


def test_reduce_errors(dev):
    x = data("float64", (3, 4))
    e = np.zeros((3, 0))
    for f, exc in [(lambda m, a: m.negative.reduce(a), ValueError),
                   (lambda m, a: m.divmod.reduce(a), ValueError),
                   (lambda m, a: m.maximum.reduce(a, axis=2), np.exceptions.AxisError),
                   (lambda m, a: m.add.reduce(a, axis=(0, 0)), ValueError),
                   (lambda m, a: m.maximum.reduce(a, where=a > 0), ValueError)]:
        check_error(lambda: f(lazycl, lz(x, dev)), lambda: f(np, x), exc)
    for f in [lambda m, a: m.maximum.reduce(a, axis=1),
              lambda m, a: m.minimum.reduce(a, axis=None),
              lambda m, a: m.add.reduce(a, axis=1, initial=None)]:
        check_error(lambda: f(lazycl, lz(e, dev)), lambda: f(np, e), ValueError)


# ---- accumulate -------------------------------------------------------------------------

ACCUMULATE_CASES = [("int32", 0, None), ("float32", -1, "strided"), ("float64", 0, "reversed"),
                    ("bool", -1, None)]


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum"])
def test_accumulate(dev, name):
    u, ref = getattr(lazycl, name), getattr(np, name)
    for dtype, axis, view in ACCUMULATE_CASES:
        x = data(dtype, (3, 4), seed=7)
        assert_same(u.accumulate(VIEWS[view](lz(x, dev)), axis=axis),
                    ref.accumulate(VIEWS[view](x), axis=axis), **tol(dtype))
    v = data("float32", (5,), seed=8)
    assert_same(u.accumulate(lz(v, dev), axis=None), ref.accumulate(v, axis=None),
                **tol("float32"))
    e = np.zeros((0, 2), "int32")
    assert_same(u.accumulate(lz(e, dev)), ref.accumulate(e))


def test_accumulate_keywords_and_errors(dev):
    i8 = np.array([100, 100, 100], np.int8)
    assert_same(lazycl.add.accumulate(lz(i8, dev)), np.add.accumulate(i8))  # int64, as NumPy's
    x = data("float32", (2, 3), 1)
    assert_same(lazycl.maximum.accumulate(lz(x, dev), axis=1, dtype=np.float64),
                np.maximum.accumulate(x, axis=1, dtype=np.float64))
    out = lz(np.zeros((2, 3)), dev)
    assert lazycl.add.accumulate(lz(x, dev), axis=(1,), out=out) is out
    assert_same(out, np.add.accumulate(x, axis=1, dtype=np.float64), rtol=1e-6)
    for f, exc in [(lambda m, a: m.add.accumulate(a[0, 0]), TypeError),
                   (lambda m, a: m.add.accumulate(a, axis=None), ValueError),
                   (lambda m, a: m.add.accumulate(a, axis=(0, 1)), ValueError),
                   (lambda m, a: m.exp.accumulate(a), ValueError)]:
        check_error(lambda: f(lazycl, lz(x, dev)), lambda: f(np, x), exc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lazycl.HostFallbackWarning)
        assert_same(lazycl.subtract.accumulate(lz(x, dev), axis=1),
                    np.subtract.accumulate(x, axis=1))


# ---- outer ------------------------------------------------------------------------------

def test_outer(dev):
    for dtype, name in [("int32", "add"), ("float32", "minimum"), ("float64", "greater"),
                        ("bool", "logical_xor")]:
        a, b = data(dtype, (3,), 1), data(dtype, (2, 2), 2)
        u, ref = getattr(lazycl, name), getattr(np, name)
        assert_same(u.outer(lz(a, dev), lz(b, dev)), ref.outer(a, b))
        assert_same(u.outer(lz(a[::-1], dev), b), ref.outer(a[::-1], b))
    a, b = data("float32", (3,), 1), data("float32", (2, 2), 2)
    assert_same(lazycl.add.outer(lz(a, dev), np.zeros((0,), "float32")),
                np.add.outer(a, np.zeros(0, "float32")))
    assert_same(lazycl.multiply.outer(lz(a, dev), 2.0), np.multiply.outer(a, 2.0))
    assert_same(lazycl.maximum.outer(a[0], lz(b, dev)), np.maximum.outer(a[0], b))


def test_outer_errors_and_fusion(dev):
    x, y = data("float32", (5,), 1), data("float32", (6,), 2)
    check_error(lambda: lazycl.exp.outer(lz(x, dev), lz(y, dev)), lambda: np.exp.outer(x, y),
                ValueError)
    lazycl.reset_stats()
    r = lazycl.minimum.outer(lz(x, dev), lz(y, dev)).sum()
    r.compute()
    assert lazycl.stats()["launches"] == 1
    assert_same(r, np.minimum.outer(x, y).sum(), rtol=1e-6)
    q, r = lazycl.divmod.outer(lz(x, dev), lz(y, dev))
    assert_same(q, np.divmod.outer(x, y)[0])


# ---- at ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "minimum", "maximum"])
def test_at(dev0, name):
    dev = dev0
    u, ref = getattr(lazycl, name), getattr(np, name)
    idx = np.array([0, 3, 3, 1, 0, 3, -1])              # repeated and negative indices
    for dtype in ["int32", "float64"]:
        a, v = data(dtype, (6,), 1), data(dtype, (7,), 2)
        want = a.copy()
        ref.at(want, idx, v)
        got = lz(a, dev)
        assert u.at(got, idx, lz(v, dev)) is None
        assert_same(got, want, **tol(dtype))
        want, got = a.copy(), lz(a, dev)
        ref.at(want, [2, 2, 2], 2)                      # a scalar operand
        u.at(got, lz(np.array([2, 2, 2]), dev), 2)
        assert_same(got, want)
    a2 = data("float64", (3, 4), 3)
    want, got = a2.copy(), lz(a2, dev)
    ref.at(want, (np.array([0, 0, 2]), np.array([1, 1, 3])), 1.5)
    u.at(got, (np.array([0, 0, 2]), np.array([1, 1, 3])), 1.5)
    assert_same(got, want)
    want, got = a2.copy(), lz(a2, dev)
    ref.at(want, slice(1, None), np.arange(4.0))
    np_route = getattr(np, name)                        # NumPy's own ufunc, on a lazycl array
    np_route.at(got, slice(1, None), np.arange(4.0))
    assert_same(got, want)


def test_at_on_the_host_and_errors(dev):
    a = data("int32", (5,), 1)
    want, got = a.copy(), lz(a, dev)
    np.negative.at(want, [0, 0, 1])                     # a repeated index negates twice
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lazycl.HostFallbackWarning)
        lazycl.negative.at(got, [0, 0, 1])
        assert_same(got, want)
        want, got = a.copy(), lz(a, dev)
        np.bitwise_or.at(want, [1, 1, 4], 8)
        lazycl.bitwise_or.at(got, [1, 1, 4], 8)
        assert_same(got, want)
    host = a.copy()
    lazycl.add.at(host, [0, 0], lz(np.array([1, 2], np.int32), dev))   # a NumPy array: NumPy's
    assert host[0] == a[0] + 3
    check_error(lambda: lazycl.add.at(lz(a, dev), [0]), lambda: np.add.at(a.copy(), [0]),
                ValueError)
    check_error(lambda: lazycl.negative.at(lz(a, dev), [0], 1),
                lambda: np.negative.at(a.copy(), [0], 1), ValueError)
    ro = lazycl.broadcast_to(lz(a, dev), (2, 5))
    with pytest.raises(ValueError, match="read-only"):
        lazycl.add.at(ro, (0, 0), 1)


# ---- reduceat ---------------------------------------------------------------------------

# (dtype, indices): unsorted, repeated and single indices over each dtype.
REDUCEAT_CASES = [("int32", [0, 4, 1, 5, 5, 7]), ("float32", [0, 2, 3]), ("float64", [7]),
                  ("bool", [3, 3, 0])]


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or"])
def test_reduceat(dev0, name):
    dev = dev0
    u, ref = getattr(lazycl, name), getattr(np, name)
    for dtype, idx in REDUCEAT_CASES:
        x = data(dtype, (8,), 4)
        assert_same(u.reduceat(lz(x, dev), idx), ref.reduceat(x, idx), **tol(dtype))
    x2 = data("float32", (3, 8), 5)
    assert_same(u.reduceat(lz(x2, dev)[::-1, ::-1], [0, 3, 6], axis=-1),
                ref.reduceat(x2[::-1, ::-1], [0, 3, 6], axis=-1), **tol("float32"))
    x2 = data("int32", (3, 8), 5)
    assert_same(u.reduceat(lz(x2, dev), np.array([2, 0]), axis=0),
                ref.reduceat(x2, np.array([2, 0]), axis=0))
    assert_same(u.reduceat(lz(x2, dev), [], axis=1), ref.reduceat(x2, [], axis=1))


def test_reduceat_lazy_host_and_errors(dev):
    x = data("float32", (4000,), 1)
    idx = lz(np.array([0, 10, 20, 1000]), dev)
    lazycl.reset_stats()
    r = lazycl.add.reduceat(lz(x, dev) * 2, [0, 1000, 2000, 3000])
    r.compute()
    assert lazycl.stats()["launches"] == 1
    assert_same(r, np.add.reduceat(x * 2, [0, 1000, 2000, 3000]), rtol=1e-5)
    # One segment far longer than the others: padding would blow up, so NumPy answers.
    lazycl._fallback.WARNED.discard((np.add, "reduceat"))
    with pytest.warns(lazycl.HostFallbackWarning, match="numpy.add.reduceat"):
        r = lazycl.add.reduceat(lz(x, dev), idx)
    assert_same(r, np.add.reduceat(x, [0, 10, 20, 1000]))
    assert_same(np.add.reduceat(lz(x, dev), [0, 2000]), np.add.reduceat(x, [0, 2000]),
                rtol=1e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lazycl.HostFallbackWarning)
        assert_same(lazycl.subtract.reduceat(lz(x, dev), [0, 5, 3]),
                    np.subtract.reduceat(x, [0, 5, 3]))
    x = x[:8]
    for f, exc in [(lambda m, a: m.add.reduceat(a, [0, 8]), IndexError),
                   (lambda m, a: m.add.reduceat(a, [0, -1]), IndexError),
                   (lambda m, a: m.add.reduceat(a[0], [0]), TypeError),
                   (lambda m, a: m.add.reduceat(m.reshape(a, (2, 4)), [0], axis=None), ValueError),
                   (lambda m, a: m.exp.reduceat(a, [0]), ValueError)]:
        check_error(lambda: f(lazycl, lz(x, dev)), lambda: f(np, x), exc)


# ---- laziness and the NumPy route ---------------------------------------------------------

def test_methods_are_lazy_and_fuse(dev):
    x = data("float32", (64, 8), 1)
    lazycl.reset_stats()
    r = lazycl.add.reduce(lz(x, dev) * 2)
    assert lazycl.stats()["launches"] == 0
    r.compute()
    assert lazycl.stats()["launches"] == 1
    assert_same(r, np.add.reduce(x * 2), rtol=1e-5)
    lazycl.reset_stats()
    r = lazycl.maximum.accumulate(lz(x, dev) + 1, axis=0)
    r.compute()
    assert lazycl.stats()["launches"] <= 2
    assert_same(r, np.maximum.accumulate(x + 1, axis=0))
    r = np.minimum.outer(lz(x[0], dev), lz(x[1], dev))
    assert isinstance(r, lazycl.Array)
    r = np.maximum.reduce(lz(x, dev), axis=None, keepdims=True)
    assert isinstance(r, lazycl.Array)
    assert_same(r, np.maximum.reduce(x, axis=None, keepdims=True))
