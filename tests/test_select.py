"""top_k, partition, argpartition, median, nanmedian, quantile, percentile against NumPy (and
torch.topk's conventions): dtypes, axes, keepdims, NaN, empty slices, errors, fused keys."""
import numpy as np
import pytest

import lazycl
from conftest import core, lz, make


@pytest.mark.parametrize("dtype", ["int16", "int64", "uint32", "float32", "float64"])
def test_top_k(dev, dtype):
    h = make(dtype, (6, 300), seed=1, lo=-50, hi=50)
    x = lz(h, dev)
    for k in (0, 1, 16, 300):
        v, i = lazycl.top_k(x, k)
        want = np.sort(h, axis=-1, kind="stable")[:, ::-1][:, :k]
        np.testing.assert_array_equal(np.asarray(v), want)
        np.testing.assert_array_equal(np.take_along_axis(h, np.asarray(i), -1), want)
        assert np.asarray(i).dtype == np.int64 and np.asarray(v).shape == (6, k)
        v, i = lazycl.top_k(x, k, largest=False)
        np.testing.assert_array_equal(np.asarray(v), np.sort(h, axis=-1)[:, :k])
    v, i = lazycl.top_k(x, 5, axis=0)
    np.testing.assert_array_equal(np.asarray(v), np.sort(h, axis=0)[::-1][:5])
    with pytest.raises(ValueError, match="k"):
        lazycl.top_k(x, 301)


def test_top_k_nan_ranks_largest_and_fused_key(dev):
    h = make("float32", (4000,), seed=2)
    h[[3, 100]] = np.nan
    x = lz(h, dev)
    v, i = lazycl.top_k(x, 3)
    got = np.asarray(v)
    assert np.isnan(got[:2]).all() and got[2] == np.nanmax(h)
    # top_k(abs(a), k): the key inside the sort, the values read back by index
    a = lz(make("float32", (5000,), seed=3), dev)
    a.compute()
    lazycl.reset_stats()
    v, i = lazycl.top_k(lazycl.abs(a - 0.25), 16)
    lazycl.compute(v, i)
    s = lazycl.stats()
    # the selection (chunks of the row, then their merge: 2 launches) with abs(a - 0.25)
    # computed inside it, and the values gathered with abs(a - 0.25) recomputed at the
    # indices (1); buffers: the selection's scratch and indices, the gather's error flag, the
    # values (no buffer for abs(a - 0.25))
    assert s["launches"] == 3
    assert s["buffers_allocated"] + s["pool_hits"] <= 4
    ha = np.abs(np.asarray(a) - np.float32(0.25))
    np.testing.assert_array_equal(np.asarray(v), np.sort(ha)[::-1][:16])


def test_partition_and_argpartition(dev):
    h = make("float64", (5, 200), seed=4)
    x = lz(h, dev)
    for axis, kths in ((0, (0, 3, -1, [1, 4])), (1, (0, 7, -1, [3, 50, 199])),
                       (None, (0, 7, -1, [3, 50, 999]))):
        for kth in kths:
            p = np.asarray(lazycl.partition(x, kth, axis=axis))
            ref = np.partition(h, kth, axis=axis)
            ks = np.atleast_1d(kth)
            ax = -1 if axis is None else axis
            ref_flat = ref if axis is not None else ref
            np.testing.assert_array_equal(np.take(p, ks, axis=ax), np.take(ref_flat, ks, axis=ax))
            ai = np.asarray(lazycl.argpartition(x, kth, axis=axis))
            src = h if axis is not None else h.reshape(-1)
            np.testing.assert_array_equal(np.take_along_axis(src, ai, ax), p)
    assert isinstance(np.partition(x, 3), lazycl.Array)
    with pytest.raises(ValueError, match=r"kth\(=200\) out of bounds \(200\)"):
        lazycl.partition(x, 200)
    with pytest.raises(ValueError, match="introselect"):
        lazycl.partition(x, 1, kind="quick")
    with pytest.raises(TypeError, match="integer"):
        lazycl.partition(x, 1.5)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64"])
def test_median_quantile_percentile(dev, dtype):
    h = make(dtype, (4, 5, 31), seed=5)
    x = lz(h, dev)
    # float32 interpolations near 0 differ from NumPy (which keeps gamma in float64) by an ulp
    # of the data (values up to 4)
    tol = dict(rtol=1e-6, atol=2e-6) if dtype == "float32" else dict(rtol=1e-12, atol=1e-14)
    for axis in (None, 0, 2, (0, 2), -1):
        for keepdims in (False, True):
            got = lazycl.median(x, axis=axis, keepdims=keepdims)
            want = np.median(h, axis=axis, keepdims=keepdims)
            assert np.asarray(got).dtype == want.dtype
            np.testing.assert_allclose(np.asarray(got), want, **tol)
        for q in (0.0, 0.3, 0.5, 1.0, [0.1, 0.9], [[0.25], [0.75]]):
            np.testing.assert_allclose(np.asarray(lazycl.quantile(x, q, axis=axis)),
                                       np.quantile(h, q, axis=axis), **tol)
        np.testing.assert_allclose(np.asarray(lazycl.percentile(x, [5, 50, 95], axis=axis,
                                                                keepdims=True)),
                                   np.percentile(h, [5, 50, 95], axis=axis, keepdims=True), **tol)
    assert isinstance(np.median(x), lazycl.Array)
    assert isinstance(np.percentile(x, 30), lazycl.Array)


def test_nan_handling(dev):
    h = make("float64", (6, 40), seed=6)
    h[1, 3] = np.nan
    h[2, :] = np.nan
    h[4, ::2] = np.nan
    x = lz(h, dev)
    np.testing.assert_allclose(np.asarray(lazycl.median(x, axis=1)), np.median(h, axis=1))
    with pytest.warns(RuntimeWarning):
        want = np.nanmedian(h, axis=1)
    np.testing.assert_allclose(np.asarray(lazycl.nanmedian(x, axis=1)), want)
    np.testing.assert_allclose(np.asarray(lazycl.quantile(x, 0.4, axis=1)),
                               np.quantile(h, 0.4, axis=1))


def test_errors_and_edges(dev):
    x = lz(np.arange(10.0), dev)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        lazycl.percentile(x, 101)
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        lazycl.quantile(x, -0.1)
    with pytest.raises(ValueError, match="not a valid method"):
        lazycl.quantile(x, 0.5, method="foo")
    with pytest.raises(NotImplementedError, match="linear"):
        lazycl.quantile(x, 0.5, method="lower")
    with pytest.raises(np.exceptions.AxisError):
        lazycl.median(x, axis=1)
    with pytest.raises(ValueError, match="duplicate"):
        lazycl.median(lz(np.ones((2, 2)), dev), axis=(0, 0))
    with pytest.warns(RuntimeWarning):
        r = lazycl.median(lz(np.zeros(0), dev))
    assert np.isnan(np.asarray(r))
    np.testing.assert_array_equal(np.asarray(lazycl.median(lz(np.array([3.0]), dev))), 3.0)


def _full_top(h, k, largest):
    """top_k by the full stable sort (NaN last): the reference of the selection path."""
    order = np.argsort(h, kind="stable")
    idx = order[::-1][:k] if largest else order[:k]
    return h[idx], idx


# normal, few_values and nan_heavy in `make test-full` (the other four hold their edges).
@pytest.mark.parametrize("case", core(["normal", "nan_inf", "ties", "int64_wide", "few_values",
                                       "nan_heavy", "pending_key"],
                                      ["nan_inf", "ties", "int64_wide", "pending_key"]))
def test_top_k_by_selection_matches_the_full_sort(dev, case):
    """Long 1-d top_k selects (histograms narrow a threshold, only the elements past it are
    sorted) and must give the full sort's answer: ties, NaN, +-inf, both ends, every k."""
    n = 1 << 17
    rng = np.random.default_rng(11)
    if case in ("normal", "pending_key"):
        h = rng.standard_normal(n).astype(np.float32)
    elif case == "nan_inf":
        h = rng.standard_normal(n).astype(np.float64)
        h[rng.choice(n, 50, replace=False)] = np.nan
        h[rng.choice(n, 30, replace=False)] = np.inf
        h[rng.choice(n, 30, replace=False)] = -np.inf
    elif case == "ties":
        h = rng.integers(0, 1000, n).astype(np.int32)
    elif case == "int64_wide":
        h = rng.integers(-(1 << 62), 1 << 62, n, dtype=np.int64)
        h[:100] = h[100:200] + 1                      # neighbours 1 apart, beyond float64
    elif case == "few_values":
        h = rng.integers(0, 3, n).astype(np.float32)   # no narrowing: the full sort
    else:
        h = rng.standard_normal(n).astype(np.float32)
        h[rng.choice(n, 400, replace=False)] = np.nan
    x = lz(h, dev)
    for k in (1, 16, 100, 500):
        for largest in (True, False):
            if case == "pending_key":
                v, i = lazycl.top_k(lazycl.abs(x - 0.25), k, largest=largest)
                ev, ei = _full_top(np.abs(h - np.float32(0.25)), k, largest)
            else:
                v, i = lazycl.top_k(x, k, largest=largest)
                ev, ei = _full_top(h, k, largest)
            np.testing.assert_array_equal(np.asarray(i), ei, err_msg=f"{case} k={k} {largest}")
            np.testing.assert_array_equal(np.asarray(v), ev)
