"""sort and argsort against NumPy: every dtype, NaN, +-inf and -0.0, every axis, empty and 0-d,
non-contiguous and negative strides, stability on heavily repeated keys, descending, the key
computed inside the sort (kernel and buffer counts), in-place x.sort(), determinism."""
import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, CORE_DTYPES, core, lz, make


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


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))   # int32 and uint64 too in test-full
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
        check_row_sorts(lz(h, dev), h, f"n={n}")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_long_rows_counts_in_segments(dev, dtype):
    """GPU tiles: the tile counts' scan takes at most 256 segments of tiles a row, so rows of
    more than 256 tiles (4096 keys of 4 bytes, 2048 of 8) put 2 or more tiles in a segment.
    515 tiles: segments of 3 and a shorter last one, a partial last tile; sort and argsort,
    both orders, special values among random ones (every digit value in every tile)."""
    LN = 4096 if dtype == "float32" else 2048
    n = 514 * LN + 5
    h = special(dtype, (n,), seed=11)
    check_row_sorts(lz(h, dev), h, f"n={n}")


def check_row_sorts(x, h, msg=""):
    """argsort of the 1-d x (NumPy h) in both orders, and its sort bit for bit."""
    np.testing.assert_array_equal(np.asarray(lazycl.argsort(x)), np.argsort(h, kind="stable"),
                                  err_msg=msg)
    np.testing.assert_array_equal(np.asarray(lazycl.argsort(x, descending=True)),
                                  ref_desc_argsort(h, 0), err_msg=msg)
    got = np.asarray(lazycl.sort(x))
    np.testing.assert_array_equal(got.view(np.uint8), np.sort(h, kind="stable").view(np.uint8),
                                  err_msg=msg)


@pytest.mark.parametrize("dtype,passes", [("int8", 1), ("bool", 1), ("uint16", 2), ("int32", 3),
                                           ("float32", 3), ("float64", 6), ("int64", 6)])
def test_long_row_digits(dev, dtype, passes):
    """CPU devices: a long row's radix passes (codegen/sort.c) take 11-bit digits, the last
    narrower (16-bit keys: 11 + 5; 32-bit: 11 + 11 + 10; 64-bit: five of 11 and 9), a key of
    8 bits or fewer one pass of its own width: 3 launches a digit (count, scan, move).
    Differential over both orders, with special values."""
    if not cpu_schedule(dev):
        pytest.skip("CPU schedules (GPU tiles take 8-bit digits: test_schedule_boundaries)")
    h = special(dtype, (70001,), seed=passes)
    x = lz(h, dev)
    x.compute()
    lazycl.reset_stats()
    i = lazycl.argsort(x)
    i.compute()
    assert lazycl.stats()["launches"] == 3 * passes
    check_row_sorts(x, h, dtype)


def test_stability_on_repeated_keys(dev):
    rng = np.random.default_rng(5)
    for dtype in ("int8", "float32", "int64"):
        h = rng.integers(0, 3, 50000).astype(dtype)
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(lz(h, dev))),
                                      np.argsort(h, kind="stable"))
    h = np.zeros(10000, np.float64)
    h[::2] = -0.0                           # -0.0 and 0.0 are equal: indices stay in order
    np.testing.assert_array_equal(np.asarray(lazycl.argsort(lz(h, dev))), np.arange(10000))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_bits_survive(dev, dtype):
    """A float sort carries no payload unless a row holds a value its key folds away: -0.0,
    or a NaN of other bits than np.nan's (negative, with a payload). Rows with np.nan and
    +0.0 only give np.nan's bits back; rows with the others give each value's own bits, in
    their order (stable); long rows (chunks, write-combined moves) and short ones, both
    orders, a key computed in the sort."""
    u = np.uint64 if dtype == "float64" else np.uint32
    nb = np.float64(np.nan).view(np.uint64) if dtype == "float64" else \
        np.float32(np.nan).view(np.uint32)
    odd = [(nb | u(5)).view(dtype), (nb | (u(1) << u(8 * np.dtype(dtype).itemsize - 1))).view(dtype),
           np.array(-0.0, dtype)]
    for n in (300, 9000, 70001):
        rng = np.random.default_rng(n)
        plain = rng.standard_normal(n).astype(dtype)
        plain[rng.integers(0, n, n // 50)] = np.nan
        plain[rng.integers(0, n, n // 50)] = 0.0
        mixed = plain.copy()
        for v in odd:
            mixed[rng.integers(0, n, max(1, n // 100))] = v
        for h in (plain, mixed):
            x = lz(h, dev)
            want = np.sort(h, kind="stable")
            np.testing.assert_array_equal(np.asarray(lazycl.sort(x)).view(u), want.view(u),
                                          err_msg=f"n={n}")
            d = ref_desc_argsort(h, 0)
            np.testing.assert_array_equal(np.asarray(lazycl.sort(x, descending=True)).view(u),
                                          h[d].view(u), err_msg=f"n={n} descending")
            # a key computed in the sort: its NaNs' bits are the device's (a GPU's arithmetic
            # may make every NaN its own), so the reference is the same expression's values
            y = np.asarray(x * 1)
            np.testing.assert_array_equal(np.asarray(lazycl.sort(x * 1)).view(u),
                                          np.sort(y, kind="stable").view(u))


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
    """sort(x * x) of a long row reads x in the sort's first pass: no buffer for x * x, 3
    launches per digit, 11-bit on CPUs (5 per 8-bit digit in GPU tiles: count, three for the
    scan, move), and only the sort's scratch and its output are allocated. (On PoCL a value
    sort of at most 65536 elements is one launch: the row is longer here; the argsort takes
    the passes from 8193.)"""
    h = make("float32", (20000,), seed=4)
    x = lz(h, dev)
    x.compute()
    gpu = x.device.schedule == "gpu"
    launches = 5 * 4 if gpu else 3 * 3
    hl = make("float32", (70000,), seed=5)
    xl = lz(hl, dev)
    xl.compute()
    lazycl.reset_stats()
    r = lazycl.sort(xl * xl + 1)
    r.compute()
    s = lazycl.stats()
    assert s["launches"] == launches
    assert s["buffers_allocated"] + s["pool_hits"] == 2          # the output and the scratch
    np.testing.assert_array_equal(np.asarray(r), np.sort(hl * hl + 1))
    lazycl.reset_stats()
    i = lazycl.argsort(lazycl.abs(x - 0.5))
    i.compute()
    assert lazycl.stats()["launches"] == launches
    np.testing.assert_array_equal(np.asarray(i), np.argsort(np.abs(h - np.float32(0.5)), kind="stable"))
    # an 8-bit key: one digit
    lazycl.reset_stats()
    lazycl.argsort(lz(h, dev) > 0).compute()
    assert lazycl.stats()["launches"] == (5 if gpu else 3)


#: The CPU targets' sort_row_max (codegen/target.c): rows up to this long are sorted by one
#: work-item each, in one launch (codegen/sort_row.c).
ROW_MAX = 8192


def cpu_schedule(dev):
    return lazycl.asarray(np.zeros(1), device=dev).device.schedule != "gpu"


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, CORE_DTYPES + ["int32", "uint64"]))
def test_short_rows_match_numpy(dev, dtype):
    """Rows of 1, 2, 3, 17, 1000 elements and both sides of the CPU's one-launch limit, with
    NaN, +-inf, -0.0 and many ties: sort (bits, so -0.0 stays where it was), stable argsort,
    descending, a pending key, negative strides."""
    for n in (1, 2, 3, 17, 1000, ROW_MAX, ROW_MAX + 1):
        rows = 3 if n <= 1000 else 1
        h = special(dtype, (rows, n), seed=n)
        x = lz(h, dev)
        msg = f"n={n}"
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x, axis=1)),
                                      np.argsort(h, axis=1, kind="stable"), err_msg=msg)
        want = np.sort(h, axis=1, kind="stable")
        np.testing.assert_array_equal(np.asarray(lazycl.sort(x, axis=1)).view(np.uint8),
                                      want.view(np.uint8), err_msg=msg)
        d = ref_desc_argsort(h, 1)
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x, axis=1, descending=True)), d,
                                      err_msg=msg)
        np.testing.assert_array_equal(
            np.asarray(lazycl.sort(x, axis=1, descending=True)).view(np.uint8),
            np.take_along_axis(h, d, 1).view(np.uint8), err_msg=msg)
        # a pending key (computed inside the sort) over a reversed, strided view
        if dtype != "bool":
            v = h[::-1, ::-2]
            k = v * 3 if dtype != "uint8" else v // 2
            np.testing.assert_array_equal(
                np.asarray(lazycl.argsort(x[::-1, ::-2] * 3 if dtype != "uint8" else x[::-1, ::-2] // 2, axis=1)),
                np.argsort(k, axis=1, kind="stable"), err_msg=msg)
    # along axis 0 of a column (the sparse PCA loop's argsort(a, axis=0))
    h = special(dtype, (1000, 1), seed=7)
    np.testing.assert_array_equal(np.asarray(lazycl.argsort(lz(h, dev), axis=0)),
                                  np.argsort(h, axis=0, kind="stable"))


def test_stability_of_short_rows(dev):
    """Heavy ties in short rows: argsort is NumPy's stable one (ints, floats with -0.0/0.0
    and NaNs, descending too)."""
    rng = np.random.default_rng(11)
    for dtype in ("int8", "uint16", "int64", "float32", "float64"):
        h = rng.integers(0, 3, (40, 333)).astype(dtype)
        if h.dtype.kind == "f":
            h[h == 0] = -0.0
            h[:, ::5] = 0.0
            h[:, ::7] = np.nan
        x = lz(h, dev)
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x, axis=1)),
                                      np.argsort(h, axis=1, kind="stable"), err_msg=dtype)
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x, axis=1, descending=True)),
                                      ref_desc_argsort(h, 1), err_msg=dtype)


def test_short_row_sort_is_one_launch(dev):
    """CPU devices: a row of at most ROW_MAX elements is sorted in one launch, its pending key
    computed inside it (no buffer for the key: the output and the scratch only); so are many
    rows (each one work-item); a longer single row takes the radix passes."""
    if not cpu_schedule(dev):
        pytest.skip("CPU schedules (the GPU tile schedule: test_short_rows_in_one_launch)")
    h = make("float64", (1000,), seed=8)
    x = lz(h, dev)
    x.compute()
    lazycl.argsort(x).compute()                 # compile first
    for key, ref in ((lambda t: t, h), (lambda t: t * t + 1, h * h + 1)):
        lazycl.reset_stats()
        i = lazycl.argsort(key(x))
        i.compute()
        s = lazycl.stats()
        assert s["launches"] == 1, s
        # the output and the scratch (a plan found in the plan cache may keep its scratch)
        assert 1 <= s["buffers_allocated"] + s["pool_hits"] <= 2, s
        np.testing.assert_array_equal(np.asarray(i), np.argsort(ref, kind="stable"))
    # many short rows, a pending descending key: one launch
    hm = make("int16", (500, 64), seed=9)
    xm = lz(hm, dev)
    xm.compute()
    lazycl.reset_stats()
    r = lazycl.sort(xm - 3, axis=1, descending=True)
    r.compute()
    assert lazycl.stats()["launches"] == 1
    np.testing.assert_array_equal(np.asarray(r), -np.sort(-(hm - 3), axis=1))
    # the limit: ROW_MAX is one launch, ROW_MAX + 1 six 11-bit digits of three launches
    for n, launches in ((ROW_MAX, 1), (ROW_MAX + 1, 18)):
        hn = make("float64", (n,), seed=n)
        xn = lz(hn, dev)
        xn.compute()
        lazycl.reset_stats()
        lazycl.argsort(xn).compute()
        assert lazycl.stats()["launches"] == launches, n


#: PoCL's sort_net_max (codegen/target.c): value sorts of rows up to this long are
#: merge-sorted in vector registers (codegen/sort_net.c; Intel's CPU runtime too where it takes
#: intel_vec_len_hint, else the radix passes: the test holds for both), in blocks of 256 32-bit
#: keys or 128 64-bit ones; a float row holding -0.0 or an unusual NaN takes the radix passes
#: instead.
NET_MAX = 65536


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, CORE_DTYPES + ["int32", "uint64"]))
def test_rows_sorted_in_vector_registers(dev, dtype):
    """Value sorts of rows without -0.0 or NaN (the vector merge sort on PoCL) across its
    block and merge boundaries and its limit, ascending and descending, a key computed in the
    sort (W keys at a time where it is vector-safe), along axis 0 (strided outputs), more
    rows than the launch's items (each item sorts several), and rows with -0.0 or NaN among
    rows without (those rows alone take the radix passes)."""
    kind = np.dtype(dtype).kind
    for n in (1, 15, 16, 17, 127, 128, 129, 255, 256, 257, 511, 1000, 4096, 5000, NET_MAX,
              NET_MAX + 1):
        rows = 1 if n >= 4096 else 3
        h = make(dtype, (rows, n), seed=n) if kind == "b" else \
            make(dtype, (rows, n), seed=n, lo=-50, hi=50)
        x = lz(h, dev)
        msg = f"n={n}"
        np.testing.assert_array_equal(np.asarray(lazycl.sort(x, axis=1)), np.sort(h, axis=1),
                                      err_msg=msg)
        if n in (17, 257, 5000):
            np.testing.assert_array_equal(np.asarray(lazycl.sort(x, axis=1, descending=True)),
                                          np.sort(h, axis=1)[:, ::-1], err_msg=msg)
            np.testing.assert_array_equal(np.asarray(lazycl.sort(x, axis=0)), np.sort(h, axis=0),
                                          err_msg=msg)
            if kind == "f":
                np.testing.assert_array_equal(np.asarray(lazycl.sort(x * 3 + 1, axis=1)),
                                              np.sort(h * 3 + 1, axis=1), err_msg=msg)
    # more rows than items (24 x 64 on two cores), a row with -0.0 and one with NaN among them
    h = make(dtype, (2000, 33), seed=4) if kind == "b" else make(dtype, (2000, 33), seed=4,
                                                                  lo=-50, hi=50)
    if kind == "f":
        h[5, 3] = -0.0
        h[1999, 0] = np.nan
        h[1700, 7] = -np.inf
    got = np.asarray(lazycl.sort(lz(h, dev), axis=1))
    np.testing.assert_array_equal(got.view(np.uint8), np.sort(h, axis=1, kind="stable").view(np.uint8))


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


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "uint8"])
def test_radix_counts_every_key(dev, dtype):
    """Regression: on pthread-skylake-avx512 (PoCL 3.1, LLVM 15) the CPU radix sort's digit
    counts (h[key]++ in a loop) were vectorized into gathers and scatters that lost updates, so
    sorts of 9000+ float32/float64/int64 values returned zeros and foreign values, int64
    argsort returned garbage indices, and median was off. Uniform random data at the sizes
    that failed, sort and argsort, and a median over the sort."""
    rng = np.random.default_rng(0)
    for n in (9000, 65536):
        if np.dtype(dtype).kind == "f":
            h = rng.random(n).astype(dtype)
        else:
            info = np.iinfo(dtype)
            h = rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype)
        x = lz(h, dev)
        np.testing.assert_array_equal(np.asarray(lazycl.sort(x)), np.sort(h), err_msg=f"n={n}")
        np.testing.assert_array_equal(np.asarray(lazycl.argsort(x)), np.argsort(h, kind="stable"),
                                      err_msg=f"n={n}")
        if np.dtype(dtype).kind == "f":
            assert float(lazycl.median(x)) == float(np.median(h))
