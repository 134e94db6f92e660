"""cov, corrcoef and the statistics of python/lazycl/_stats.py against NumPy."""
import warnings

import numpy as np
import pytest

import lazycl as lc

from conftest import assert_same, lz

RNG = np.random.default_rng(7)
M = RNG.standard_normal((4, 30))
FW = RNG.integers(0, 4, 30)
AW = RNG.random(30)

COV_CASES = [
    {}, {"rowvar": False}, {"bias": True}, {"ddof": 0}, {"ddof": 3}, {"bias": True, "ddof": 2},
    {"fweights": FW}, {"aweights": AW}, {"fweights": FW, "aweights": AW},
    {"fweights": FW, "aweights": AW, "ddof": 0}, {"aweights": AW, "bias": True},
]


def _close(got, ref, dtype):
    tol = 2e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    if np.dtype(dtype).kind == "c":               # assert_same compares real values
        got = got.numpy()
        assert got.dtype == np.asarray(ref).dtype and got.shape == np.shape(ref)
        np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)
        return
    assert_same(got, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("kw", COV_CASES, ids=[",".join(k) or "plain" for k in COV_CASES])
def test_cov_matches_numpy(dev, kw):
    m = M.T.copy() if kw.get("rowvar", True) is False else M
    _close(lc.cov(lz(m, dev), **kw), np.cov(m, **kw), np.float64)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex128"])
def test_cov_and_corrcoef_dtypes(dtype):
    m = (M * 10).astype(dtype) if dtype != "complex128" else M[:2] + 1j * M[2:]
    for f in ("cov", "corrcoef"):
        ref = getattr(np, f)(m)
        got = getattr(lc, f)(lc.asarray(m))
        assert got.dtype == ref.dtype
        _close(got, ref, ref.dtype)
    ref = np.cov(m, dtype=np.float32 if dtype != "complex128" else np.complex64)
    _close(lc.cov(lc.asarray(m), dtype=ref.dtype), ref, ref.dtype)


def test_cov_y_and_one_d():
    x, y = M[0], M[1]
    for kw in ({}, {"rowvar": False}):
        _close(lc.cov(lc.asarray(x), lc.asarray(y), **kw), np.cov(x, y, **kw), np.float64)
        _close(lc.corrcoef(lc.asarray(x), lc.asarray(y), **kw), np.corrcoef(x, y, **kw),
               np.float64)
    # y of several variables, and observations in the columns.
    _close(lc.cov(lc.asarray(M), lc.asarray(M[:2] * 3)), np.cov(M, M[:2] * 3), np.float64)
    _close(lc.cov(lc.asarray(M.T), lc.asarray(M[:2].T), rowvar=False),
           np.cov(M.T, M[:2].T, rowvar=False), np.float64)
    # One variable: a 0-d result; corrcoef is c / c.
    got = lc.cov(lc.asarray(x))
    assert got.shape == () and float(got) == pytest.approx(float(np.cov(x)), rel=1e-12)
    assert float(lc.corrcoef(lc.asarray(x))) == 1.0
    # A NumPy m with lazycl weights, and a list.
    _close(lc.cov(M, fweights=lc.asarray(FW)), np.cov(M, fweights=FW), np.float64)
    _close(lc.cov([[1, 2, 4], [0, 1, 3]]), np.cov([[1, 2, 4], [0, 1, 3]]), np.float64)
    assert lc.cov(np.zeros((0, 3))).shape == (0, 0)


def test_corrcoef_matches_numpy_and_clips():
    for kw in ({}, {"rowvar": False}):
        m = M if not kw else M.T
        got = lc.corrcoef(lc.asarray(m), **kw)
        _close(got, np.corrcoef(m, **kw), np.float64)
    # Perfectly (anti)correlated rows: rounding may leave |r| a hair above 1 before the clip.
    t = np.linspace(0, 1, 97) * 0.1 + 1 / 3
    m = np.stack([t, -3 * t, 7 * t + 1])
    got = lc.corrcoef(lc.asarray(m)).numpy()
    assert np.all(np.abs(got) <= 1)
    np.testing.assert_allclose(got, np.corrcoef(m), atol=1e-12)
    z = M[:2] + 1j * M[2:]
    got = lc.corrcoef(lc.asarray(z)).numpy()
    assert np.all(np.abs(got.real) <= 1) and np.all(np.abs(got.imag) <= 1)
    np.testing.assert_allclose(got, np.corrcoef(z), atol=1e-12)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_cov_degenerate_warns_like_numpy():
    m = M[:, :3]
    with warnings.catch_warnings(record=True) as ref_w:
        warnings.simplefilter("always")
        ref = np.cov(m, ddof=3)
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = lc.cov(lc.asarray(m), ddof=3).numpy()
    assert [str(w.message) for w in got_w] == [str(w.message) for w in ref_w]
    assert all(w.category is RuntimeWarning for w in got_w)
    np.testing.assert_array_equal(got, ref)       # inf, -inf, NaN where NumPy has them
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = lc.cov(lc.asarray(m), fweights=[1, 0, 0])
    np.testing.assert_array_equal(r.numpy(), np.cov(m, fweights=[1, 0, 0]))


def test_cov_errors_like_numpy():
    x = lc.asarray(M)
    cases = [
        (ValueError, "ddof must be integer", lambda: lc.cov(x, ddof=1.5)),
        (ValueError, "m has more than 2", lambda: lc.cov(lc.zeros((2, 2, 2)))),
        (ValueError, "y has more than 2", lambda: lc.cov(x, lc.zeros((2, 2, 2)))),
        (TypeError, "fweights must be integer", lambda: lc.cov(x, fweights=AW)),
        (ValueError, "fweights cannot be negative", lambda: lc.cov(x, fweights=-FW)),
        (RuntimeError, "incompatible numbers of samples and aweights",
         lambda: lc.cov(x, aweights=AW[:5])),
        (RuntimeError, "multidimensional fweights", lambda: lc.cov(x, fweights=np.ones((30, 1)))),
        (ZeroDivisionError, "Weights sum to zero", lambda: lc.cov(x, aweights=np.zeros(30))),
    ]
    for exc, msg, call in cases:
        with pytest.raises(exc, match=msg):
            call()


def test_numpy_cov_dispatches_lazily_and_fuses():
    x = lc.asarray(M)
    with warnings.catch_warnings():
        warnings.simplefilter("error", lc.HostFallbackWarning)
        c = np.cov(x)
        r = np.corrcoef(x, rowvar=True)
    assert isinstance(c, lc.ndarray) and isinstance(r, lc.ndarray)
    assert c.pending and r.pending
    lc.reset_stats()
    c.compute()
    assert lc.stats()["launches"] <= 2              # the means, then one product
    lc.reset_stats()
    r.compute()
    assert lc.stats()["launches"] <= 3              # ... and the scaling with its clip
    _close(r, np.corrcoef(M), np.float64)


# ---- average, ptp, the nan statistics ----------------------------------------------------------

X = RNG.standard_normal((3, 4, 5))
XN = X.copy()
XN[0, 1, :] = np.nan
XN[2, 0, 3] = np.nan

STATS = [
    ("average", (X,), {}), ("average", (X,), {"axis": 1}),
    ("average", (X,), {"axis": 2, "weights": np.arange(5.0) + 1}),
    ("average", (X,), {"axis": (0, 2), "weights": RNG.random((3, 5)), "keepdims": True}),
    ("average", (np.arange(12).reshape(3, 4),), {"axis": 0, "weights": np.arange(3) + 1}),
    ("ptp", (X,), {}), ("ptp", (X,), {"axis": 1, "keepdims": True}),
    ("ptp", (np.array([[-128, 127]], dtype=np.int8),), {"axis": 1}),
    ("nanvar", (XN,), {}), ("nanvar", (XN,), {"axis": 2, "ddof": 1}),
    ("nanstd", (XN,), {"axis": 1, "keepdims": True}), ("nanvar", (XN.astype(np.float32),), {}),
    ("nanprod", (XN,), {"axis": 0}), ("nancumsum", (XN,), {"axis": 2}),
    ("nancumprod", (XN,), {}), ("nanvar", (np.arange(6).reshape(2, 3),), {"axis": 1}),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")     # NumPy's, for an all-NaN slice
@pytest.mark.parametrize("name,args,kw", STATS,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(STATS)])
def test_statistics_match_numpy(name, args, kw):
    ref = getattr(np, name)(*args, **kw)
    got = getattr(lc, name)(*[lc.asarray(a) for a in args], **kw)
    _close(got, ref, np.asarray(ref).dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error", lc.HostFallbackWarning)
        via_numpy = getattr(np, name)(*[lc.asarray(a) for a in args], **kw)
    assert isinstance(via_numpy, lc.ndarray)


def test_average_returned_and_errors():
    w = np.arange(4.0) + 1
    a, s = lc.average(lc.asarray(X), axis=1, weights=w, returned=True)
    ra, rs = np.average(X, axis=1, weights=w, returned=True)
    _close(a, ra, np.float64)
    _close(s, rs, np.float64)
    a, s = lc.average(lc.asarray(X), axis=0, returned=True)
    ra, rs = np.average(X, axis=0, returned=True)
    _close(a, ra, np.float64)
    _close(s, rs, np.float64)
    with pytest.raises(TypeError, match="Axis must be specified"):
        lc.average(lc.asarray(X), weights=w)
    with pytest.raises(ValueError, match="Shape of weights"):
        lc.average(lc.asarray(X), axis=0, weights=w)
    with pytest.raises(ZeroDivisionError):
        lc.average(lc.asarray(X), axis=1, weights=np.zeros(4))
    # An all-NaN slice: NaN, as NumPy's.
    got = lc.nanvar(lc.asarray(XN), axis=2).numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = np.nanvar(XN, axis=2)
    np.testing.assert_allclose(got, ref, rtol=1e-12, equal_nan=True)
