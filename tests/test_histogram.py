"""histogram, histogram2d and histogramdd against NumPy: dtypes, layouts, bins as a count or
as edges, range, weights, density, values exactly on edges, NaN, NumPy's errors; and kernel
counts (the bin of each element is computed inside the one count kernel)."""

import numpy as np
import pytest

import lazycl
from conftest import core, lz

DTYPES = [np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint64]


def same(got, ref, rtol=0.0):
    g = np.asarray(got)
    assert g.dtype == ref.dtype, (g.dtype, ref.dtype)
    assert g.shape == ref.shape, (g.shape, ref.shape)
    if rtol:
        np.testing.assert_allclose(g, ref, rtol=rtol)
    else:
        np.testing.assert_array_equal(g, ref)


def check(dev, h, rtol=0.0, **kw):
    """lazycl's histogram of h equals NumPy's (counts, dtype, edges)."""
    ref_kw = {k: (np.asarray(v) if isinstance(v, lazycl.Array) else v) for k, v in kw.items()}
    r, re = np.histogram(h, **ref_kw)
    g, ge = lazycl.histogram(lz(h, dev), **kw)
    assert isinstance(g, lazycl.Array) and isinstance(ge, lazycl.Array)
    same(g, r, rtol)
    same(ge, re)


def data(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 3).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(dtype)


BINS = [dict(), dict(bins=1), dict(bins=7), dict(bins=64), dict(bins=7, range=(-2, 5)),
        dict(bins=5, range=(0.25, 0.75)), dict(bins=[-3, -1, 0, 0.5, 4]),
        dict(bins=np.array([-10, 0, 10], np.int64)), dict(bins=np.linspace(-5, 5, 50))]


@pytest.mark.parametrize("dtype", core(DTYPES), ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("kw", BINS, ids=lambda k: ",".join(f"{a}={np.size(b)}" for a, b in
                                                           k.items()) or "default")
def test_histogram(dev, dtype, kw):
    check(dev, data(dtype, 1000), **kw)


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=lambda d: np.dtype(d).name)
def test_histogram_layouts(dev, dtype):
    h = data(dtype, (30, 40))
    x = lz(h, dev)
    for view, ref in [(x, h), (x[::3, 1::2], h[::3, 1::2]), (x[::-1, ::-2], h[::-1, ::-2]),
                      (x.T, h.T), (x[3, 4], h[3, 4]), (x[:0], h[:0]), (x * 2 + 1, h * 2 + 1)]:
        for kw in (dict(bins=6), dict(bins=[-20, -3, 0, 3, 20]), dict(bins=4, range=(0, 9))):
            r, re = np.histogram(ref, **kw)
            g, ge = np.histogram(view, **kw)        # np.histogram on lazycl stays lazycl
            assert isinstance(g, lazycl.Array)
            same(g, r)
            same(ge, re)


def test_values_on_edges(dev):
    # Every edge NumPy makes is also a value: where each lands is NumPy's correction step.
    for lo, hi, n, dt in [(0, 1, 10, np.float64), (0, 1, 10, np.float32),
                          (-3, 7, 7, np.float64), (0.1, 0.7, 6, np.float32),
                          (0, 5, 3, np.float32), (1e-3, 1e3, 97, np.float64)]:
        e = np.linspace(dt(lo), dt(hi), n + 1)
        h = np.concatenate([e, np.nextafter(e, np.inf), np.nextafter(e, -np.inf)]).astype(dt)
        check(dev, h, bins=n)
        check(dev, h, bins=n, range=(lo, hi))
        check(dev, h, bins=e)
    h = np.arange(-5, 20)                       # integers on integer edges
    check(dev, h, bins=5)
    check(dev, h, bins=[0, 5, 10, 15])
    check(dev, h, bins=np.array([0, 5, 5, 10, 15, 15]))        # repeated edges
    check(dev, h.astype(np.float64) * 0.1, bins=30)            # gh-8123's 0.1 steps
    check(dev, np.full(9, 4.0), bins=4)                        # one value: [3.5, 4.5]


def test_many_edges_binary_search(dev):
    h = data(np.float64, 3000, seed=5)
    e = np.sort(np.concatenate([np.linspace(-9, 9, 200), h[:50]]))   # data on edges too
    check(dev, h, bins=e)
    check(dev, h.astype(np.float32), bins=e)
    check(dev, data(np.int32, 3000), bins=np.arange(-60, 61, 3))


@pytest.mark.parametrize("wdtype", core([np.float64, np.float32, np.int32, np.uint8, np.bool_],
                                        [np.float64, np.int32]), ids=lambda d: np.dtype(d).name)
def test_weights(dev, wdtype):
    h = data(np.float64, 800, seed=1)
    w = data(wdtype, 800, seed=2) if wdtype != np.bool_ else h > 0
    # NumPy sums float32 edge-path weights by a float32 cumsum and differences of it; lazycl
    # adds them in float64 (closer): equal to a float32 ulp or two.
    tol = 1e-4 if wdtype == np.float32 else 1e-12 if np.dtype(wdtype).kind == "f" else 0.0
    check(dev, h, rtol=tol, bins=9, weights=w)
    check(dev, h, rtol=tol, bins=9, weights=lz(w, dev), range=(-1, 2))
    if wdtype == np.bool_:
        # NumPy cannot add the cumulative sums into a bool histogram.
        with pytest.raises(TypeError):
            lazycl.histogram(lz(h, dev), bins=[-1, 0, 1], weights=lz(w, dev))
        with pytest.raises(TypeError):
            np.histogram(h, bins=[-1, 0, 1], weights=w)
    else:
        check(dev, h, rtol=tol, bins=[-5, -1, 0, 2, 6], weights=w)
    with pytest.raises(ValueError, match="same shape"):
        lazycl.histogram(lz(h, dev), weights=lz(w[:-1], dev))


def test_density(dev):
    h = data(np.float32, 500, seed=3)
    check(dev, h, rtol=1e-12, bins=8, density=True)
    check(dev, h, rtol=1e-12, bins=[-4, -1, 0, 0.5, 4], density=True)
    check(dev, h, rtol=1e-6, bins=8, density=True, weights=np.abs(h))
    check(dev, data(np.int32, 500), rtol=1e-12, bins=[-50, 0, 7, 50], density=True)


def test_bool_input_warns(dev):
    h = np.array([True, False, True, True])
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        r = np.histogram(h, bins=3)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        g = lazycl.histogram(lz(h, dev), bins=3)
    same(g[0], r[0])
    same(g[1], r[1])


def test_nan_and_inf(dev):
    h = np.array([1.0, np.nan, 2.5, np.inf, -np.inf, 3.0])
    with pytest.raises(ValueError, match=r"autodetected range of \[nan, nan\] is not finite"):
        lazycl.histogram(lz(h, dev))
    with pytest.raises(ValueError, match="autodetected range"):
        np.histogram(h)
    check(dev, h, bins=4, range=(0, 3))                  # NaN and infinities are outside
    check(dev, h, bins=[0, 1, 2, 3])
    check(dev, h, bins=[-np.inf, 0, np.inf])             # infinities on the outer edges
    check(dev, np.array([1.0, np.inf]).astype(np.float32), bins=[0, 1, 2])
    with pytest.raises(ValueError, match=r"autodetected range of \[1.0, inf\] is not finite"):
        lazycl.histogram(lz(np.array([1.0, np.inf]), dev))


ERRORS = [
    (dict(bins=2.5), TypeError, "must be an integer"),
    (dict(bins=0), ValueError, "must be positive"),
    (dict(bins=[[1, 2]]), ValueError, "must be 1d"),
    (dict(bins=[0, 2, 1]), ValueError, "increase monotonically"),
    (dict(range=(3, 1)), ValueError, "max must be larger than min"),
    (dict(range=(0, np.inf)), ValueError, "not finite"),
    (dict(range=(0, np.nan)), ValueError, "not finite"),
    (dict(bins=100, range=(1, 1 + 1e-14)), ValueError, "Too many bins"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors(dev, i):
    kw, exc, msg = ERRORS[i]
    h = np.arange(5.0)
    with pytest.raises(exc, match=msg):
        np.histogram(h, **kw)
    with pytest.raises(exc, match=msg):
        lazycl.histogram(lz(h, dev), **kw)


def test_edges_given_as_lazycl(dev):
    h = data(np.float64, 300)
    e = np.array([-4.0, -1, 0, 1, 4])
    g, ge = lazycl.histogram(lz(h, dev), bins=lz(e, dev))
    same(g, np.histogram(h, bins=e)[0])
    same(ge, e)
    with pytest.raises(ValueError, match="monotonically"):
        lazycl.histogram(lz(h, dev), bins=lz(e[::-1].copy(), dev))
    empty_edges = lazycl.histogram(lz(h, dev), bins=[])
    same(empty_edges[0], np.histogram(h, bins=[])[0])
    same(lazycl.histogram(lz(h, dev), bins=[2])[0], np.histogram(h, bins=[2])[0])


def test_histogram_kernels(dev):
    """A fused expression as input: its bins are computed inside the count kernel, never
    written to memory."""
    h = np.random.default_rng(7).random(50000).astype(np.float32)
    x = lz(h, dev)
    x.compute()
    ref = h * np.float32(2) + np.float32(1)
    # CPUs count into private copies and then sum them: one launch more
    extra = int(dev.schedule != "gpu")
    cases = [(dict(bins=10, range=(0.5, 2.5)), 1),       # the count
             (dict(bins=10), 2),                          # min and max (one launch), the count
             (dict(bins=[0.5, 1, 1.5, 2, 3]), 1)]         # edges: a sum of comparisons
    for kw, launches in cases:
        lazycl.reset_stats()
        held = lazycl.stats()["bytes_in_use"]
        g, _ = lazycl.histogram(x * 2 + 1, **kw)
        s = lazycl.stats()
        assert s["launches"] == launches + extra, (kw, s["launches"])
        assert s["peak_bytes"] - held < h.size, s          # no buffer of a value per element
        lazycl.reset_stats()
        same(g, np.histogram(ref, **kw)[0])
        assert lazycl.stats()["launches"] == 1           # the int32 counts as int64


# ---- histogramdd, histogram2d -------------------------------------------------------------

def check_dd(dev, sample, lz_sample, rtol=0.0, **kw):
    ref_kw = {k: (np.asarray(v) if isinstance(v, lazycl.Array) else v) for k, v in kw.items()}
    r, re = np.histogramdd(sample, **ref_kw)
    g, ge = lazycl.histogramdd(lz_sample, **kw)
    same(g, r, rtol)
    assert len(ge) == len(re)
    for a, b in zip(ge, re):
        same(a, b)


@pytest.mark.parametrize("dtype", core([np.float64, np.float32, np.int32, np.uint8, np.bool_],
                                       [np.float64, np.uint8]), ids=lambda d: np.dtype(d).name)
def test_histogramdd(dev, dtype):
    h = data(dtype, (400, 3)) if dtype != np.bool_ else data(np.int8, (400, 3)) > 0
    x = lz(h, dev)
    check_dd(dev, h, x)
    check_dd(dev, h, x, bins=(3, 5, 40))
    check_dd(dev, h, x, bins=[3, [-5, 0, 1, 7], 4], range=[(-2, 2), None, None])
    check_dd(dev, h, x, bins=4, weights=np.linspace(0, 1, 400), rtol=1e-12)
    check_dd(dev, h, x, bins=(2, 3, 4), density=True, rtol=1e-12)
    check_dd(dev, h[::-2, ::2], x[::-2, ::2], bins=5)                   # strided, reversed
    check_dd(dev, list(h.T), [x[:, i] for i in range(3)], bins=3)       # a sequence of columns
    check_dd(dev, h[:, 0], x[:, 0], bins=6)                             # 1-d: one column
    check_dd(dev, h[:0], x[:0], bins=2)


def test_histogramdd_edges_and_nan(dev):
    e = np.linspace(0, 1, 6)
    h = np.stack([np.concatenate([e, e[::-1], [np.nan]]),
                  np.concatenate([e[::-1], e, [0.5]])], axis=1)
    check_dd(dev, h, lz(h, dev), bins=[e, e])
    check_dd(dev, h, lz(h, dev), bins=5, range=[(0, 1), (0, 1)])
    with pytest.raises(ValueError, match=r"autodetected range of \[nan, nan\]"):
        lazycl.histogramdd(lz(h, dev), bins=3)


DD_ERRORS = [
    (dict(bins=[2]), ValueError, "dimension of bins"),
    (dict(bins=2, range=[(0, 1)]), ValueError, "one entry per dimension"),
    (dict(bins=0), ValueError, r"`bins\[0\]` must be positive"),
    (dict(bins=2.5), TypeError, r"`bins\[0\]` must be an integer"),
    (dict(bins=[[1, 0], [0, 1]]), ValueError, "monotonically increasing"),
    (dict(bins=[[[1]], [0, 1]]), ValueError, "scalar or 1d array"),
    (dict(bins=2, weights=np.ones(2)), ValueError, "same length"),
    (dict(bins=2, range=[(1, 0), None]), ValueError, "max must be larger"),
]


@pytest.mark.parametrize("i", range(len(DD_ERRORS)))
def test_histogramdd_errors(dev, i):
    kw, exc, msg = DD_ERRORS[i]
    h = np.zeros((3, 2))
    with pytest.raises(exc, match=msg):
        np.histogramdd(h, **kw)
    with pytest.raises(exc, match=msg):
        lazycl.histogramdd(lz(h, dev), **kw)
    with pytest.raises(ValueError, match="too many values"):
        lazycl.histogramdd(lz(np.zeros((2, 3, 4)), dev))


def test_histogram2d(dev):
    rng = np.random.default_rng(4)
    a, b = rng.random(300), rng.random(300) * 3
    w = rng.random(300)
    for kw in (dict(), dict(bins=4), dict(bins=[3, 6]), dict(bins=[0, 0.5, 1, 3]),
               dict(bins=[[0, 0.5, 1], [0, 1, 2, 3]]), dict(bins=5, range=[[0, 1], [0, 1]]),
               dict(bins=6, density=True), dict(bins=3, weights=w)):
        ref_kw = dict(kw)
        r = np.histogram2d(a, b, **ref_kw)
        g = np.histogram2d(lz(a, dev), lz(b, dev), **{k: (lz(v, dev) if k == "weights" else v)
                                                      for k, v in kw.items()})
        assert len(g) == 3 and isinstance(g[0], lazycl.Array)
        same(g[0], r[0], 1e-12 if "density" in kw or "weights" in kw else 0.0)
        same(g[1], r[1])
        same(g[2], r[2])
    with pytest.raises(ValueError, match="same length"):
        lazycl.histogram2d(lz(a, dev), lz(b[:-1], dev))


def test_histogramdd_kernels(dev):
    h = np.random.default_rng(8).random((20000, 2))
    x = lz(h, dev)
    x.compute()
    lazycl.reset_stats()
    g, _ = lazycl.histogramdd(x * 2, bins=(8, 8), range=[(0, 2), (0, 2)])
    extra = int(dev.schedule != "gpu")
    assert lazycl.stats()["launches"] == 1 + extra   # both searches inside the count
    same(g, np.histogramdd(h * 2, bins=(8, 8), range=[(0, 2), (0, 2)])[0])
