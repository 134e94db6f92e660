"""Scatter-adds of many elements into a float target too big for a work-group's local memory
(bincount with weights into 65536 bins, np.add.at into a long strided view): on GPUs they go
by ranges of the target's places (codegen/store_ranges.c: each tile of elements ordered by
range, then each range summed in local memory), the value's producers computed in the first
of the store's two launches. Against NumPy on every device: float32 values widened to
float64, ranges cut short at the target's end, negative and out-of-range indices, places the
adds never reach keeping their bits, and the launches counted."""

import numpy as np
import pytest

import lazycl
from conftest import lz

#: At least 2^22 elements and 64 per place of the target take the ranges on GPUs.
N = 1 << 22


@pytest.mark.parametrize("wdtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_bincount_by_ranges(dev, wdtype):
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 65536, N)
    w = rng.random(N).astype(wdtype)
    i, x = lz(idx, dev), lz(w, dev)
    # whole ranges of 2048 bins; then a last range of 609 bins (60001 = 29 * 2048 + 609), the
    # indices reaching into it
    for ml, top in ((65536, 65536), (60001, 60001)):
        ih = idx if top == 65536 else rng.integers(0, top, N)
        ii = i if top == 65536 else lz(ih, dev)
        ii.compute()
        lazycl.reset_stats()
        got = lazycl.bincount(ii, weights=x * 2, minlength=ml)
        got.compute()
        # the bins' fill, then the store: by ranges (GPUs: x * 2 computed in its first
        # launch; one atomic per element would be one launch), or private copies and their
        # sum (CPUs)
        assert lazycl.stats()["launches"] == 3, ml
        ref = np.bincount(ih, weights=(w * wdtype(2)).astype(np.float64), minlength=ml)
        g = np.asarray(got)
        assert g.dtype == np.float64 and g.shape == (ml,)
        np.testing.assert_allclose(g, ref, rtol=1e-12)


def test_add_at_by_ranges(dev):
    """np.add.at into every other place of a strided float32 view of 30000 places (negative
    indices from the end): the other places keep their -0.0, the places outside the view their
    NaN; an index out of range is an IndexError and writes nothing."""
    rng = np.random.default_rng(5)
    idx = 2 * rng.integers(-7500, 7500, N)          # even places of the view only
    vals = (rng.random(N) * 4).astype(np.float32)
    h = np.full(60010, np.nan, np.float32)
    h[5:60005:2] = 0.0
    h[7:60005:4] = -0.0                              # the view's odd places, never added to
    x = lz(h, dev)
    view, hview = x[5:60005:2], h[5:60005:2]
    lazycl.reset_stats()
    np.add.at(view, lz(idx, dev), lz(vals, dev))
    x.compute()
    # the index check, then the store: by ranges (GPUs; atomics would be one launch), or
    # private copies and their sum (CPUs)
    assert lazycl.stats()["launches"] == 3
    np.add.at(hview, idx, vals)
    r = np.asarray(x)
    np.testing.assert_allclose(r, h, rtol=1e-4)
    assert np.array_equal(np.signbit(r), np.signbit(h))
    assert np.array_equal(np.isnan(r), np.isnan(h))
    bad = idx.copy()
    bad[N // 3] = 30000
    with pytest.raises(IndexError, match="30000"):
        np.add.at(view, lz(bad, dev), lz(vals, dev))
    np.testing.assert_array_equal(np.asarray(x), r)     # nothing written
