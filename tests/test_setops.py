"""unique (and unique_all/counts/inverse/values), searchsorted, digitize, isin, intersect1d,
union1d, setdiff1d and lexsort against NumPy: dtypes, NaN/+-inf/-0.0, repeated values, 0-d,
empty, non-contiguous and negative-stride inputs, every return_* combination, side and
sorter=, NumPy's errors, and np.<func> staying lazy."""
import itertools
import warnings

import numpy as np
import pytest

import lazycl
from conftest import core, make

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float32", "float64"]


def lz(a, dev):
    return lazycl.asarray(np.asarray(a), device=dev, copy=True)


def data(dtype, shape, seed=0):
    """Small values with many repeats; floats also get NaN, +-inf, -0.0 and 0.0."""
    dt = np.dtype(dtype)
    h = make(dt, shape, seed=seed) if dt.kind == "b" else make(dt, shape, seed=seed, lo=0, hi=9)
    if dt.kind == "i":
        h = h - np.asarray(4, dt)
    if dt.kind == "f" and h.size:
        h = np.floor(h)
        flat = h.reshape(-1)
        rng = np.random.default_rng(seed + 1)
        for v in (np.nan, np.inf, -np.inf, -0.0, 0.0, np.nan):
            flat[rng.integers(0, flat.size, max(1, flat.size // 15))] = v
    return h


def same(got, want):
    """Equal values (NaN == NaN), dtype and shape; 0-d NumPy scalars compare as 0-d arrays."""
    g = np.asarray(got)
    w = np.asarray(want)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    np.testing.assert_array_equal(g, w)


def as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


# ---- unique -------------------------------------------------------------------------------

def check_unique(x, h, flags, equal_nan):
    got = as_tuple(lazycl.unique(x, *flags, equal_nan=equal_nan))
    want = as_tuple(np.unique(h, *flags, equal_nan=equal_nan))
    assert len(got) == len(want)
    same(got[0], want[0])
    k = 1
    if flags[0]:                                 # first occurrences: NumPy sorts stably here
        same(got[k], want[k])
        if h.dtype.kind == "f":                  # so -0.0 or 0.0, whichever came first
            assert np.array_equal(np.signbit(np.asarray(got[0])), np.signbit(want[0]))
        k += 1
    if flags[1]:
        inv, w = np.asarray(got[k]), want[k]
        assert inv.shape == w.shape == h.shape and inv.dtype == w.dtype
        # NumPy's inverse sorts unstably: NaNs that stay distinct may come in any order.
        # Ours keeps their order; both rebuild the input.
        np.testing.assert_array_equal(np.asarray(got[0])[inv], h)
        ok = ~np.isnan(h) if h.dtype.kind == "f" and not equal_nan else np.ones(h.shape, bool)
        np.testing.assert_array_equal(inv[ok], w[ok])
        k += 1
    if flags[2]:
        same(got[k], want[k])


@pytest.mark.parametrize("dtype", core(DTYPES))
def test_unique_matches_numpy(dev, dtype):
    h = data(dtype, (4, 31), seed=2)
    x = lz(h, dev)
    for flags in itertools.product((False, True), repeat=3):
        check_unique(x, h, flags, True)
    if h.dtype.kind == "f":
        for flags in itertools.product((False, True), repeat=3):
            check_unique(x, h, flags, False)


def test_unique_shapes_and_errors(dev):
    h = data("float32", (3, 8), seed=4)
    x = lz(h, dev)
    for e in (np.zeros((0,), np.int32), np.zeros((3, 0), np.float64)):
        for flags in itertools.product((False, True), repeat=3):
            check_unique(lz(e, dev), e, flags, True)
    check_unique(x[:, ::-3], h[:, ::-3], (True, True, True), True)   # negative strides
    z = np.float64(2.5)
    for flags in itertools.product((False, True), repeat=3):
        check_unique(lz(z, dev), z, flags, True)                  # inverse is 0-d
    one = data("int32", (40,), seed=1)
    for axis in (0, -1):                                        # a 1-d input takes axis 0
        for g, w in zip(lazycl.unique(lz(one, dev), True, True, True, axis=axis),
                        np.unique(one, True, True, True, axis=axis)):
            same(g, w)
    with pytest.raises(NotImplementedError, match="axis"):
        lazycl.unique(x, axis=0)
    with pytest.raises(np.exceptions.AxisError):
        lazycl.unique(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        lazycl.unique(lz(one, dev), axis=1)
    with pytest.raises(np.exceptions.AxisError):
        lazycl.unique(lz(z, dev), axis=0)
    same(lazycl.unique(x, sorted=False), np.unique(h))           # always sorted here
    same(lazycl.unique([3, 1, 3]), np.unique([3, 1, 3]))


def test_unique_array_api(dev):
    h = data("float64", (5, 9), seed=7)
    x = lz(h, dev)
    r, w = lazycl.unique_all(x), np.unique_all(h)
    assert r._fields == w._fields == ("values", "indices", "inverse_indices", "counts")
    for f in ("values", "indices", "counts"):
        same(getattr(r, f), getattr(w, f))
    np.testing.assert_array_equal(np.asarray(r.values)[np.asarray(r.inverse_indices)], h)
    r, w = lazycl.unique_counts(x), np.unique_counts(h)
    assert r._fields == w._fields
    same(r.values, w.values)
    same(r.counts, w.counts)
    r, w = lazycl.unique_inverse(x), np.unique_inverse(h)
    assert r._fields == w._fields
    same(r.values, w.values)
    assert np.asarray(r.inverse_indices).shape == h.shape
    np.testing.assert_array_equal(np.asarray(r.values)[np.asarray(r.inverse_indices)], h)
    # NumPy's unique_values leaves the order unspecified; ours is sorted (NaNs stay distinct)
    same(lazycl.unique_values(x), np.sort(np.unique_values(h)))
    assert np.isnan(np.asarray(lazycl.unique_values(x))).sum() == np.isnan(h).sum()


def test_unique_sorts_once(dev):
    h = data("float64", (500,), seed=3)
    x = lz(h, dev)
    lazycl.compute(lazycl.argsort(x))           # compile first
    lazycl.reset_stats()
    lazycl.compute(lazycl.argsort(x))
    one_sort = lazycl.stats()["launches"]
    lazycl.compute(*lazycl.unique(x, True, True, True))
    lazycl.reset_stats()
    lazycl.compute(*lazycl.unique(x, True, True, True))
    # the scans, compaction, inverse store and gathers add a few; a second sort would double
    assert lazycl.stats()["launches"] <= one_sort + 12


# ---- searchsorted, digitize -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(DTYPES))
def test_searchsorted_matches_numpy(dev, dtype):
    vals = data(dtype, (42,), seed=5)
    xv = lz(vals, dev)
    for n in (0, 1, 2, 3, 7, 8, 9, 64, 100):            # around the powers of two
        a = np.sort(data(dtype, (n,), seed=n))
        for side in ("left", "right"):
            same(lazycl.searchsorted(lz(a, dev), xv, side), np.searchsorted(a, vals, side))


def test_searchsorted_layouts_and_sorter(dev):
    dtype = "float64"
    vals = data(dtype, (6, 7), seed=5)
    a = np.sort(data(dtype, (37,), seed=1))
    xa, xv = lz(a, dev), lz(vals, dev)
    same(lazycl.searchsorted(xa, xv[::-1, 1::2]), np.searchsorted(a, vals[::-1, 1::2]))
    same(lazycl.searchsorted(xa[::2], xv, "right"), np.searchsorted(a[::2], vals, "right"))
    same(lazycl.searchsorted(xa, xv[0, 3]), np.searchsorted(a, vals[0, 3]))       # 0-d v
    same(lazycl.searchsorted(xa, xv[:0]), np.searchsorted(a, vals[:0]))           # empty v
    # sorter=: an unsorted array and the permutation that sorts it (host and device)
    u = data(dtype, (37,), seed=8)
    perm = np.argsort(u, kind="stable")
    for side in ("left", "right"):
        want = np.searchsorted(u, vals, side, sorter=perm)
        same(lazycl.searchsorted(lz(u, dev), xv, side, sorter=perm), want)
    same(lazycl.searchsorted(lz(u, dev), xv, sorter=lz(perm.astype(np.int32), dev)),
         np.searchsorted(u, vals, sorter=perm))


def test_searchsorted_special_values_and_dtypes(dev):
    a = np.array([-np.inf, -1.5, -0.0, 0.0, 0.0, 2.0, np.inf, np.nan, np.nan])
    v = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 3.0, -7.0])
    for dt in ("float32", "float64"):                  # the sweep's kernels
        for side in ("left", "right"):
            same(lazycl.searchsorted(lz(a.astype(dt), dev), lz(v.astype(dt), dev), side),
                 np.searchsorted(a.astype(dt), v.astype(dt), side))
    u8 = np.array([1, 2, 2, 3, 250], np.uint8)
    for v in (np.array([-1, 300, 2]), np.array([2.5, -1.0]), -1, 2.5):   # int64, float64
        for side in ("left", "right"):
            same(lazycl.searchsorted(lz(u8, dev), v, side), np.searchsorted(u8, v, side))
    f32 = np.array([1.0, 2.0], np.float32)
    same(lazycl.searchsorted(lz(f32, dev), 1.0000001), np.searchsorted(f32, 1.0000001))
    same(lazycl.searchsorted([1, 2, 3], lz(np.array([2]), dev)), np.searchsorted([1, 2, 3], [2]))


def test_searchsorted_errors(dev):
    a = lz(np.array([1, 2, 3]), dev)
    cases = [
        (lambda m: m.searchsorted(m_a(m), 2, side="foo"), ValueError,
         "search side must be 'left' or 'right' \\(got 'foo'\\)"),
        (lambda m: m.searchsorted(m_a(m), 2, side="L"), ValueError,
         "search side must be one of 'left' or 'right'"),
        (lambda m: m.searchsorted(m_a(m).reshape(1, 3), 2), ValueError,
         "object too deep for desired array"),
        (lambda m: m.searchsorted(m_a(m)[0], 2), ValueError,
         "object of too small depth for desired array"),
        (lambda m: m.searchsorted(m_a(m), 2, sorter=[0, 1]), ValueError,
         "sorter.size must equal a.size"),
        (lambda m: m.searchsorted(m_a(m), 2, sorter=[0, 1.0, 2]), TypeError,
         "sorter must only contain integers"),
        (lambda m: m.searchsorted(m_a(m), 2, sorter=[True, False, True]), TypeError,
         "sorter must only contain integers"),
        (lambda m: m.searchsorted(m_a(m), 2, sorter=np.array([0, 1, 2], np.uint64)), ValueError,
         "could not parse sorter argument"),
        (lambda m: m.searchsorted(m_a(m), 2, sorter=[[0, 1, 2]]), TypeError,
         "could not parse sorter argument"),
        (lambda m: m.searchsorted(m_a(m), 3, sorter=[0, 1, 5]), ValueError,
         "Sorter index out of range."),
    ]

    def m_a(m):
        return a if m is lazycl else np.array([1, 2, 3])
    for f, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            f(np)
        with pytest.raises(exc, match=msg):
            f(lazycl)
    with pytest.raises(ValueError, match="Sorter index out of range."):
        lazycl.searchsorted(a, 3, sorter=lz(np.array([0, -1, 2]), dev))


def test_digitize(dev):
    x = data("float64", (5, 6), seed=11)
    xd = lz(x, dev)
    inc = np.array([-3.0, -1.0, 0.0, 0.0, 2.5, 4.0])
    for bins in (inc, inc[::-1], np.array([1.0, 1.0, 1.0]), np.array([2.0]), np.array([]),
                 np.array([1.0, 2.0, np.nan]), np.array([np.nan, 2.0, 1.0]),
                 np.array([np.nan, np.nan])):          # constant, NaN: NumPy's direction rule
        for right in (False, True):
            same(lazycl.digitize(xd, lz(bins, dev), right), np.digitize(x, bins, right))
    ib = np.array([5, 3, 3, -2], np.int32)
    xi = data("int8", (20,), seed=3)
    same(lazycl.digitize(lz(xi, dev), ib, True), np.digitize(xi, ib, True))
    same(lazycl.digitize(1.5, lz(inc, dev)), np.digitize(1.5, inc))
    with pytest.raises(ValueError, match="bins must be monotonically increasing or decreasing"):
        lazycl.digitize(xd, lz(np.array([1.0, 3.0, 2.0]), dev))
    with pytest.raises(ValueError, match="object too deep for desired array"):
        lazycl.digitize(xd, lz(np.ones((2, 2)), dev))
    with pytest.raises(ValueError, match="object of too small depth for desired array"):
        lazycl.digitize(xd, 1.0)


# ---- isin and the set functions ---------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(DTYPES))
def test_isin_matches_numpy(dev, dtype):
    h = data(dtype, (4, 9), seed=6)
    x = lz(h, dev)
    for tests in (data(dtype, (3,), seed=1), data(dtype, (25,), seed=2)):   # compare, search
        same(lazycl.isin(x, lz(tests, dev)), np.isin(h, tests))
    if h.dtype.kind == "f":
        same(lazycl.isin(x, lz(tests, dev), invert=True), np.isin(h, tests, invert=True))


def test_isin_mixed_dtypes_and_errors(dev):
    i8 = np.array([-3, 0, 5, 100, 127], np.int8)
    for t in (np.array([0.0, 5.5, 100.0]), np.arange(-40, 40, dtype=np.int64)):
        same(lazycl.isin(lz(i8, dev), lz(t, dev)), np.isin(i8, t))
    f = np.array([np.nan, 1.0, -0.0, np.inf])
    same(lazycl.isin(lz(f, dev), lz(np.array([0.0, np.nan, np.inf] * 5), dev)),
         np.isin(f, np.array([0.0, np.nan, np.inf] * 5)))
    same(lazycl.isin(lz(i8, dev), [5, 6], assume_unique=True), np.isin(i8, [5, 6]))
    h = data("float32", (4, 9), seed=6)
    x = lz(h, dev)
    same(lazycl.isin(x[::-1, 1::3], lz(h[1:3], dev)), np.isin(h[::-1, 1::3], h[1:3]))
    same(lazycl.isin(x[0, 0], lz(h, dev)), np.isin(h[0, 0], h))                     # 0-d
    same(lazycl.isin(x, lz(np.zeros(0, np.float32), dev)), np.isin(h, np.zeros(0, np.float32)))
    same(lazycl.isin(lz(i8, dev), [5, 6], kind="table"), np.isin(i8, [5, 6], kind="table"))
    with pytest.raises(ValueError, match="Invalid kind: 'foo'. Please use None, 'sort' or"):
        lazycl.isin(lz(i8, dev), [1], kind="foo")
    with pytest.raises(ValueError, match="The 'table' method is only supported for boolean"):
        lazycl.isin(lz(f, dev), [1.0], kind="table")


@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_set_functions_match_numpy(dev, dtype):
    a = data(dtype, (5, 7), seed=12)
    b = data(dtype, (23,), seed=13)
    xa, xb = lz(a, dev), lz(b, dev)
    same(lazycl.union1d(xa, xb), np.union1d(a, b))
    same(lazycl.setdiff1d(xa, xb), np.setdiff1d(a, b))
    same(lazycl.setdiff1d(xb, xa[::-1, ::2]), np.setdiff1d(b, a[::-1, ::2]))
    same(lazycl.intersect1d(xa, xb), np.intersect1d(a, b))
    for g, w in zip(lazycl.intersect1d(xa, xb, return_indices=True),
                    np.intersect1d(a, b, return_indices=True)):
        same(g, w)
    ua, ub = np.unique(a), np.unique(b)[::-1].copy()          # unique, not sorted
    same(lazycl.intersect1d(lz(ua, dev), lz(ub, dev), assume_unique=True),
         np.intersect1d(ua, ub, assume_unique=True))
    for g, w in zip(lazycl.intersect1d(lz(ua, dev), lz(ub, dev), True, True),
                    np.intersect1d(ua, ub, True, True)):
        same(g, w)
    same(lazycl.setdiff1d(lz(ub, dev), xa, assume_unique=True),
         np.setdiff1d(ub, a, assume_unique=True))


def test_set_functions_edges(dev):
    e = np.zeros(0, np.float64)
    f = np.array([np.nan, 1.0, np.nan, -0.0, 2.0, np.inf])
    g = np.array([np.nan, 0.0, 2.0, 5.0])
    for a, b in ((e, e), (f, g), (f[:1], g[:1])):
        xa, xb = lz(a, dev), lz(b, dev)
        same(lazycl.union1d(xa, xb), np.union1d(a, b))
        same(lazycl.setdiff1d(xa, xb), np.setdiff1d(a, b))
        same(lazycl.intersect1d(xa, xb), np.intersect1d(a, b))
        for r, w in zip(lazycl.intersect1d(xa, xb, return_indices=True),
                        np.intersect1d(a, b, return_indices=True)):
            same(r, w)
    i8, f64 = np.array([1, 2, 3, 2], np.int8), np.array([1.5, 2.0, 3.0])
    same(lazycl.union1d(lz(i8, dev), f64), np.union1d(i8, f64))
    same(lazycl.intersect1d(lz(i8, dev), lz(f64, dev)), np.intersect1d(i8, f64))
    same(lazycl.setdiff1d(lz(i8, dev), lz(f64, dev)), np.setdiff1d(i8, f64))
    same(lazycl.union1d(lz(np.int32(4), dev), [[1, 4], [7, 1]]),
         np.union1d(np.int32(4), [[1, 4], [7, 1]]))


# ---- lexsort --------------------------------------------------------------------------------

def test_lexsort(dev):
    rng = np.random.default_rng(3)
    k1 = rng.integers(0, 3, 60).astype(np.int8)
    k2 = data("float32", (60,), seed=4)
    k3 = rng.integers(0, 2, 60).astype(bool)
    keys = [k1, k2, k3]
    same(lazycl.lexsort([lz(k, dev) for k in keys]), np.lexsort(keys))
    same(lazycl.lexsort([lz(k1, dev)]), np.lexsort([k1]))
    same(lazycl.lexsort((lz(k1, dev)[::-1], k2[::-1])), np.lexsort((k1[::-1], k2[::-1])))
    two = np.stack([k1, k1[::-1]]).astype(np.int64)           # an array's rows are the keys
    same(lazycl.lexsort(lz(two, dev)), np.lexsort(two))
    m1, m2 = k1.reshape(6, 10), k2.reshape(6, 10)
    for axis in (0, 1, -1, -2):
        same(lazycl.lexsort([lz(m1, dev), lz(m2, dev)], axis=axis),
             np.lexsort([m1, m2], axis=axis))
    same(lazycl.lexsort(lz(np.array([3, 1, 2]), dev)), np.lexsort(np.array([3, 1, 2])))
    same(lazycl.lexsort([lz(np.zeros(0), dev)]), np.lexsort([np.zeros(0)]))
    with pytest.raises(TypeError, match="need sequence of keys with len > 0 in lexsort"):
        lazycl.lexsort([])
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        lazycl.lexsort([lz(k1, dev), lz(k2[:5], dev)])
    with pytest.raises(np.exceptions.AxisError):
        lazycl.lexsort([lz(m1, dev)], axis=2)
    with pytest.raises(TypeError, match="'NoneType' object cannot be interpreted as an integer"):
        lazycl.lexsort([lz(m1, dev)], axis=None)


# ---- NumPy's functions stay lazy ----------------------------------------------------------------

def test_numpy_functions_stay_lazy(dev):
    h = data("float64", (42,), seed=9)             # the layouts and dtype of the sweeps above
    s = np.sort(h)
    x, xs = lz(h, dev), lz(s, dev)
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # no HostFallbackWarning
        checks = [
            (np.unique(x, return_counts=True), np.unique(h, return_counts=True)),
            (np.unique_all(x)[0], np.unique_all(h)[0]),
            (np.unique_counts(x).counts, np.unique_counts(h).counts),
            (np.unique_inverse(x).values, np.unique_inverse(h).values),
            (np.unique_values(x), np.sort(np.unique_values(h))),
            (np.searchsorted(xs, x, side="right"), np.searchsorted(s, h, side="right")),
            (np.digitize(x, xs[::5]), np.digitize(h, s[::5])),
            (np.isin(x, xs[:3]), np.isin(h, s[:3])),
            (np.intersect1d(x, xs[:9]), np.intersect1d(h, s[:9])),
            (np.union1d(x, xs), np.union1d(h, s)),
            (np.setdiff1d(x, xs[:9]), np.setdiff1d(h, s[:9])),
            (np.lexsort((x, xs)), np.lexsort((h, s))),   # a tuple: NumPy dispatches on it
        ]
    for got, want in checks:
        for g, w in zip(as_tuple(got), as_tuple(want)):
            assert isinstance(g, lazycl.Array)
            same(g, w)
