"""sort and argsort against NumPy: every dtype, NaN, +-inf and -0.0, every axis, empty and 0-d,
non-contiguous and negative strides, stability on heavily repeated keys, descending, the key
computed inside the sort (kernel and buffer counts), in-place x.sort(), determinism."""
import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, lz, make


def special(dtype, shape, seed=0):
    """Data with repeats and, for floats, NaN, +-inf and -0.0 among ordinary values."""
    h = make(dtype, shape, seed=seed, lo=-6, hi=6) if np.dtype(dtype).kind != "b" else \
        make(dtype, shape, seed=seed)
    if np.dtype(dtype).kind == "f" and h.size:
        flat = h.reshape(-1)
        rng = np.random.default_rng(seed + 1)
        for v in (np.nan, np.inf, -np.inf, -0.0, 0.0):
            flat[rng.integers(0, flat.size, max(1, flat.size // 20))] = v
    return h


def ref_desc_argsort(h, axis):
    """A stable descending argsort with NaN last (the array API's descending=True)."""
    f = h.astype(np.float64) if h.dtype.kind != "f" else h
    return np.argsort(-f, axis=axis, kind="stable")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_and_argsort_match_numpy(dev, dtype):
    h = special(dtype, (5, 2111), seed=3)
    x = lz(h, dev)
    for axis in (0, 1, -1, None):
        want = np.sort(h, axis=axis, kind="stable")     # -0.0 and 0.0 in their order
        got = np.asarray(lazycl.sort(x, axis=axis))
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype
        if h.dtype.kind == "f":
            assert np.array_equal(np.signbit(got), np.signbit(want))   # -0.0 kept as it was
        ia = np.asarray(lazycl.argsort(x, axis=axis))
        np.testing.assert_array_equal(ia, np.argsort(h, axis=axis, kind="stable"))
        assert ia.dtype == np.int64
    # the array API's descending: NaN last, equal elements in their order
    for axis in (0, 1):
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x, axis=axis, descending=True)),
                                      ref_desc_argsort(h, axis))
        np.testing.assert_array_equal(
            np.asarray(lazycl.sort(x, axis=axis, descending=True)),
            np.take_along_axis(h, ref_desc_argsort(h, axis), axis))


@pytest.mark.parametrize("dtype", ["float32", "int16", "float64", "uint64"])
def test_schedule_boundaries(dev, dtype):
    """Row lengths on both sides of each schedule's limits: one GPU tile (4096 keys of 4 bytes
    or less, 2048 of 8), one segment of the tile counts' scan (16 tiles), the CPU chunks
    (1024); sort and argsort, both orders, special values."""
    for n in (1023, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 65536, 70001):
        h = special(dtype, (n,), seed=n)
        x = lz(h, dev)
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x)), np.argsort(h, kind="stable"),
                                      err_msg=f"n={n}")
        got = np.asarray(lazycl.sort(x))
        want = np.sort(h, kind="stable")
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=f"n={n}")
        d = ref_desc_argsort(h, 0)
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x, descending=True)), d)


def test_stability_on_repeated_keys(dev):
    rng = np.random.default_rng(5)
    for dtype in ("int8", "float32", "int64"):
        h = rng.integers(0, 3, 50000).astype(dtype)
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(lz(h, dev))),
                                      np.argsort(h, kind="stable"))
    h = np.zeros(10000, np.float64)
    h[::2] = -0.0                           # -0.0 and 0.0 are equal: indices stay in order
    np.testing.assert_array_equal(np.asarray(lazycl.argsort(lz(h, dev))), np.arange(10000))


def test_shapes_and_layouts(dev):
    h = special("float32", (3, 4, 50), seed=9)
    x = lz(h, dev)
    for axis in (0, 1, 2):
        np.testing.assert_array_equal(np.asarray(lazycl.sort(x, axis=axis)), np.sort(h, axis=axis))
    # non-contiguous, negative strides, broadcast views
    np.testing.assert_array_equal(np.asarray(lazycl.sort(x[:, ::-2, 3:])),
                                  np.sort(h[:, ::-2, 3:]))
    np.testing.assert_array_equal(np.asarray(lazycl.argsort(x.T, axis=0)),
                                  np.argsort(h.T, axis=0, kind="stable"))
    b = lazycl.broadcast_to(lz(np.array([3.0, 1.0, 2.0]), dev), (4, 3))
    np.testing.assert_array_equal(np.asarray(lazycl.sort(b)), np.sort(np.broadcast_to([3.0, 1, 2], (4, 3))))
    # empty, one element, 0-d
    for shape in [(0,), (3, 0), (0, 5), (1,), (4, 1)]:
        e = np.ones(shape, np.float32)
        np.testing.assert_array_equal(np.asarray(lazycl.sort(lz(e, dev))), np.sort(e))
        got = np.asarray(lazycl.argsort(lz(e, dev)))
        assert got.shape == shape and got.dtype == np.int64
        np.testing.assert_array_equal(got, np.argsort(e))
    z = lz(np.float32(3), dev)
    np.testing.assert_array_equal(np.asarray(lazycl.sort(z, axis=None)), np.sort(np.float32(3), axis=None))
    with pytest.raises(np.exceptions.AxisError):
        lazycl.sort(z)
    with pytest.raises(np.exceptions.AxisError):
        lazycl.argsort(x, axis=3)
    with pytest.raises(ValueError, match="sort kind"):
        lazycl.sort(x, kind="bogo")
    with pytest.raises(ValueError, match="no fields"):
        lazycl.sort(x, order="a")


def test_numpy_functions_stay_lazy(dev):
    h = special("float64", (300,), seed=1)
    x = lz(h, dev)
    r = np.sort(x)
    assert isinstance(r, lazycl.Array)
    np.testing.assert_array_equal(np.asarray(r), np.sort(h))
    r = np.argsort(x, kind="stable")
    assert isinstance(r, lazycl.Array)
    np.testing.assert_array_equal(np.asarray(r), np.argsort(h, kind="stable"))
    np.testing.assert_array_equal(np.asarray(x.argsort()), np.argsort(h, kind="stable"))


def test_sort_in_place(dev):
    h = special("int32", (4, 100), seed=2)
    x = lz(h.copy(), dev)
    v = x[1]                          # a view sees the sorted data
    before = x + 0                    # an older result keeps the old values
    x.sort(axis=1)
    np.testing.assert_array_equal(np.asarray(x), np.sort(h, axis=1))
    np.testing.assert_array_equal(np.asarray(v), np.sort(h[1]))
    np.testing.assert_array_equal(np.asarray(before), h)
    x.sort(axis=0)
    np.testing.assert_array_equal(np.asarray(x), np.sort(np.sort(h, axis=1), axis=0))
    with pytest.raises(ValueError, match="read-only"):
        lazycl.broadcast_to(lz(np.arange(3), dev), (2, 3)).sort()


def test_key_computed_in_the_sort(dev):
    """sort(x * x) reads x in the sort's first pass: no buffer for x * x, 3 launches per
    8-bit digit (5 in GPU tiles: count, three for the scan, move), and only the sort's
    scratch and its output are allocated."""
    h = make("float32", (5000,), seed=4)
    x = lz(h, dev)
    x.compute()
    per_digit = 5 if x.device.schedule == "gpu" else 3
    lazycl.reset_stats()
    r = lazycl.sort(x * x + 1)
    r.compute()
    s = lazycl.stats()
    assert s["launches"] == per_digit * 4
    assert s["buffers_allocated"] + s["pool_hits"] == 2          # the output and the scratch
    np.testing.assert_array_equal(np.asarray(r), np.sort(h * h + 1))
    lazycl.reset_stats()
    i = lazycl.argsort(lazycl.abs(x - 0.5))
    i.compute()
    assert lazycl.stats()["launches"] == per_digit * 4
    np.testing.assert_array_equal(np.asarray(i), np.argsort(np.abs(h - np.float32(0.5)), kind="stable"))
    # an 8-bit key: one digit
    lazycl.reset_stats()
    lazycl.argsort(lz(h, dev) > 0).compute()
    assert lazycl.stats()["launches"] == per_digit


def test_short_rows_in_one_launch(dev):
    """GPU tiles: rows that fit one tile (4096 32-bit keys, 2048 64-bit) are sorted whole
    in one launch, the key computed in it; longer rows take the passes."""
    if lazycl.asarray(np.zeros(1), device=dev).device.schedule != "gpu":
        pytest.skip("GPU-shaped kernels only (run by test_gpu_schedules.py on CPU devices)")
    for dt, n in (("float32", 4096), ("float64", 2048), ("int16", 4096), ("int64", 2048)):
        h = make(dt, (37, n), seed=5)
        x = lz(h, dev)
        x.compute()
        lazycl.reset_stats()
        a = lazycl.argsort(-x, axis=1)
        v = lazycl.sort(x * 2, axis=1, descending=True)
        a.compute()
        v.compute()
        assert lazycl.stats()["launches"] == 2, dt
        np.testing.assert_array_equal(np.asarray(a), np.argsort(-h, axis=1, kind="stable"))
        h2 = h * 2
        want = np.take_along_axis(h2, np.argsort(-h2, axis=1, kind="stable"), 1)
        np.testing.assert_array_equal(np.asarray(v), want)
    lazycl.reset_stats()
    lazycl.sort(lz(make("float32", (3, 4097), seed=6), dev), axis=1).compute()
    assert lazycl.stats()["launches"] == 5 * 4


def test_determinism(dev):
    h = np.random.default_rng(3).integers(0, 10, 200000).astype(np.float32)
    x = lz(h, dev)
    a = np.asarray(lazycl.argsort(x))
    b = np.asarray(lazycl.argsort(x))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, np.argsort(h, kind="stable"))
