"""Writes into lazycl arrays against NumPy doing the same writes: x[key] = v for every key kind,
in-place operators, fill, copyto, put, putmask, place, put_along_axis, ufunc.at, bincount; mask
reads, nonzero and friends; NumPy's aliasing (views see a write, arrays built before keep the old
values); kernel counts (a write is one store kernel with its value computed inside)."""
import numpy as np
import pytest

import lazycl
from conftest import WIDTH_DTYPES, core, lz

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint8, np.int16, np.bool_]


def same(x, h):
    r = np.asarray(x)
    assert r.dtype == h.dtype and r.shape == h.shape
    np.testing.assert_array_equal(r, h)


def base(dtype, shape=(4, 5)):
    h = (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)
    return h


KEYS = [
    (1,), (slice(1, 3),), (slice(None, None, -2),), (Ellipsis, 2), (slice(None), slice(4, 0, -3)),
    (-1, slice(None)), (None, 2), (), (np.array([0, 3, 2]),), ([3, -2],),
    (np.array([[0], [3]]), np.array([1, 4])), (slice(1, None), [0, 4]), (2, np.array([0, 3, 1])),
]


@pytest.mark.parametrize("dtype", core(DTYPES, WIDTH_DTYPES), ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("key", KEYS, ids=str)
def test_setitem_keys(dev, dtype, key):
    h = base(dtype)
    x = lz(h, dev)
    t = h[key]
    v = (np.arange(t.size) % 3 + 1).astype(dtype).reshape(t.shape)
    h[key] = v
    x[key] = v
    same(x, h)
    x[key] = 3           # a scalar broadcast
    h[key] = 3
    same(x, h)


@pytest.mark.parametrize("dtype", core(DTYPES, WIDTH_DTYPES), ids=lambda d: np.dtype(d).name)
def test_setitem_masks(dev, dtype):
    h = base(dtype)
    x = lz(h, dev)
    m = (np.arange(20).reshape(4, 5) % 3) == 0
    x[m] = 1
    h[m] = 1
    same(x, h)
    v = (np.arange(m.sum()) + 2).astype(dtype)
    x[lz(m, dev)] = lz(v, dev)         # one value per True, read at the running count
    h[m] = v
    same(x, h)
    rows = np.array([True, False, True, True])
    x[rows] = 0                        # a mask over the leading dim
    h[rows] = 0
    same(x, h)
    x[rows, 1:3] = 5                   # a mask among other keys
    h[rows, 1:3] = 5
    same(x, h)


def test_mask_of_the_array_itself(dev):
    h = np.linspace(0, 1, 30, dtype=np.float32).reshape(5, 6)
    x = lz(h, dev)
    x[x <= 0.1] = 1.0                  # npbench correlation's `stddev[stddev <= 0.1] = 1.0`
    h[h <= 0.1] = 1.0
    same(x, h)


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (2, 3, 4)], ids=str)
def test_shapes(dev, shape):
    h = np.zeros(shape, np.float32)
    x = lz(h, dev)
    x[...] = 2.5
    h[...] = 2.5
    same(x, h)
    x += 1
    h += 1
    same(x, h)
    if h.size:
        x[(0,) * h.ndim] = 7
        h[(0,) * h.ndim] = 7
        same(x, h)


def test_noncontiguous_and_negative_strides(dev):
    big = np.arange(60, dtype=np.float32).reshape(6, 10)
    h = big[::2, ::-3]
    x = lz(big, dev)[::2, ::-3]
    x[1:, :2] = -1
    h = h.copy()
    h[1:, :2] = -1
    same(x, h)
    x.T[0] = 9                         # through a transposed view
    h.T[0] = 9
    same(x, h)


def test_casts_and_errors(dev):
    x = lz(np.zeros(4, np.int32), dev)
    x[0] = 2.7                         # assignment casts unsafely, as NumPy
    x[1] = True
    same(x, np.array([2, 1, 0, 0], np.int32))
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        lz(np.zeros(3, np.int8), dev)[0] = 300
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\) "
                       r"into shape \(2,\)"):
        x[:2] = [1, 2, 3]
    with pytest.raises(TypeError, match="same_kind"):
        x += 1.5
    with pytest.raises(ValueError, match="non-broadcastable output"):
        x += np.ones((2, 4), np.int32)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 4"):
        x[[0, 9]] = 1
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 4"):
        x[lz(np.array([7, 0]), dev)] = 1   # checked on the device, before anything is written
    same(x, np.array([2, 1, 0, 0], np.int32))
    b = lazycl.broadcast_to(lz(np.arange(3, dtype=np.float32), dev), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        b[0] = 1
    same(x + 1, np.array([3, 2, 1, 1], np.int32))     # still usable


def test_views_of_read_only_arrays(dev):
    """A view of a read-only array is read-only; a reshape NumPy copies is a writable copy."""
    h = np.arange(3, dtype=np.float32)
    hb = np.broadcast_to(h, (3, 3))
    b = lazycl.broadcast_to(lz(h, dev), (3, 3))
    hm = np.arange(9.0).reshape(3, 3)
    m = lz(hm, dev)
    d = lazycl.diagonal(m)
    cases = [(lambda a: a[0], "b[0]"), (lambda a: a.T, "b.T"), (lambda a: a[::-1, 1:], "slice"),
             (lambda a: a.reshape(3, 3), "reshape view"), (lambda a: a.reshape(9), "reshape copy"),
             (lambda a: a.reshape(9)[2:], "slice of a copy")]
    for f, what in cases:
        want = f(hb).flags.writeable
        v = f(b)
        if want:
            v[(0,) * v.ndim] = 7
            assert float(v[(0,) * v.ndim]) == 7, what
        else:
            with pytest.raises(ValueError, match="read-only"):
                v[(0,) * v.ndim] = 7
    same(b, hb)                                       # the source never changed
    for f in (lambda a: a[:1], lambda a: a.reshape(3, 1), lambda a: a[::-1]):
        assert not f(np.diagonal(hm)).flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            f(d)[0] = 5
    with pytest.raises(ValueError, match="output array is read-only"):
        v = b.T
        v += 1
    same(m, hm)


def test_repeated_indices(dev):
    x = lz(np.zeros(5, np.float32), dev)
    x[[1, 1, 3]] = [4, 4, 6]           # one of the repeated values wins (the same here)
    same(x, np.array([0, 4, 0, 6, 0], np.float32))
    x[[1, 1]] += 1                     # NumPy: a repeated index is incremented once
    same(x, np.array([0, 5, 0, 6, 0], np.float32))
    np.add.at(x, [1, 1, 4], 1)         # ufunc.at: every repetition counts
    same(x, np.array([0, 7, 0, 6, 1], np.float32))


# ---- observable semantics ---------------------------------------------------------------

def test_views_see_the_write_and_older_arrays_do_not(dev):
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = lz(h, dev)
    row, col, flat = x[1], x[:, 2], x.reshape(-1)
    before = x * 2                     # built before the write: keeps the old values
    copied = x.copy()
    x[1, 2] = 100
    h2 = h.copy()
    h2[1, 2] = 100
    same(row, h2[1])
    same(col, h2[:, 2])
    same(flat, h2.reshape(-1))
    same(before, h * 2)
    same(copied, h)
    row[0] = -5                        # a write through a view is seen by the base
    h2[1, 0] = -5
    same(x, h2)


def test_big_buffer_computes_its_small_readers_instead_of_copying(dev):
    """A write into a big array that pending arrays still read computes those readers first
    (their values are from before the write, as in NumPy) rather than copying the array; a
    small array is copied as before. Either way the readers keep the old values."""
    for n, copies in ((512, False), (8, True)):
        h = np.arange(n * n, dtype=np.float64).reshape(n, n) / n
        x = lz(h, dev).compute()
        d = lazycl.dot(x[1, :3], x[2, :3])   # pending, reads x
        s = x[:, 0].sum()                    # pending, reads x
        lazycl.reset_stats()
        base = lazycl.stats()["bytes_in_use"]
        x[2, 0] -= d
        st = lazycl.stats()
        h2 = h.copy()
        hd = np.dot(h[1, :3], h[2, :3])
        h2[2, 0] -= hd
        # Was an x-sized buffer taken (the copy)?
        assert (st["peak_bytes"] - base >= h.nbytes) == copies, (n, st)
        same(d, np.asarray(hd))
        same(s, np.asarray(h[:, 0].sum()))
        same(x, h2)


def test_views_of_pending_arrays(dev):
    h = np.arange(6, dtype=np.float32)
    x = lz(h, dev) + 1                 # pending
    v = x[2:]
    later = x * 10
    x[3] = 0
    hx = h + 1
    h_later = hx * 10
    hx[3] = 0
    same(x, hx)
    same(v, hx[2:])
    same(later, h_later)


@pytest.mark.parametrize("make", ["zeros", "full", "arange", "arange_f", "reshaped"])
def test_views_of_constants_and_aranges(dev, make):
    """A constant or an arange has no memory until it is written; views taken before the
    first write (through the base or through another view) still see it."""
    def src(m, **kw):
        return {"zeros": lambda: m.zeros(12, dtype=np.int32, **kw),
                "full": lambda: m.full((3, 4), 7.5, **kw),
                "arange": lambda: m.arange(3, 27, 2, **kw),
                "arange_f": lambda: m.arange(12, dtype=np.float32, **kw),
                "reshaped": lambda: m.arange(24, dtype=np.int64, **kw).reshape(2, 3, 4)[1]}[make]()
    h, x = src(np), src(lazycl, device=dev)
    hv = [h.reshape(-1)[1:7], h.reshape(-1)[::-3], h.reshape(-1)[-1:]]
    xv = [x.reshape(-1)[1:7], x.reshape(-1)[::-3], x.reshape(-1)[-1:]]
    hb, xb = h.reshape(-1) * 2, x.reshape(-1) * 2     # built before: keep the old values
    other, ho = lazycl.zeros(12, dtype=x.dtype, device=dev), np.zeros(12, h.dtype)
    xv[0][2] = 100                     # the write goes through a view
    hv[0][2] = 100
    x.reshape(-1)[-1] = -1             # and through the base
    h.reshape(-1)[-1] = -1
    same(x, h)
    for a, b in zip(xv, hv):
        same(a, b)
    same(xb, hb)
    same(other, ho)                    # an equal constant made apart is another array


def test_write_in_place_costs_the_slice(dev):
    n = 1 << 16
    x = lz(np.zeros(n, np.float32), dev)
    x.compute()
    lazycl.reset_stats()
    held = lazycl.stats()["bytes_in_use"]   # x and whatever earlier tests left alive
    x[10:20] = 1                       # nothing else needs the old data: in place
    s = lazycl.stats()
    assert s["launches"] == 1
    assert s["bytes_to_device"] < 1024              # the value 1 only
    assert s["peak_bytes"] - held < 1024             # no second copy of x
    y = x + 0                          # a reader of the old data: the write copies first
    x[0] = 5
    assert float(y[0]) == 0 and float(x[0]) == 5


def test_inplace_and_stencil_are_one_kernel(dev):
    h = np.random.default_rng(0).random((40, 50)).astype(np.float32)
    a, b = lz(h, dev), lz(np.zeros_like(h), dev)
    lazycl.reset_stats()
    b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1]
                           + a[:-2, 1:-1])
    assert lazycl.stats()["launches"] == 1            # jacobi's step: one store kernel
    hb = np.zeros_like(h)
    hb[1:-1, 1:-1] = 0.2 * (h[1:-1, 1:-1] + h[1:-1, :-2] + h[1:-1, 2:] + h[2:, 1:-1]
                            + h[:-2, 1:-1])
    np.testing.assert_allclose(np.asarray(b), hb, rtol=1e-6)
    lazycl.reset_stats()
    a *= 2
    a += b
    assert lazycl.stats()["launches"] == 2
    np.testing.assert_allclose(np.asarray(a), h * 2 + hb, rtol=1e-6)


def test_overlapping_right_hand_side(dev):
    h = np.arange(10, dtype=np.int64)
    x = lz(h, dev)
    x[1:] = x[:-1]
    h[1:] = h[:-1].copy()
    same(x, h)
    x[::-1] = x + 1
    h[::-1] = h + 1
    same(x, h)


# ---- NumPy's writers ------------------------------------------------------------------

def test_numpy_writers(dev):
    h = np.arange(12, dtype=np.float64).reshape(3, 4)
    cases = [
        lambda a, m: m.copyto(a, 7, where=a > 5),
        lambda a, m: m.put(a, [0, -1, 5], [1, 2]),
        lambda a, m: m.put(a, [13, -20], [4], mode="clip"),
        lambda a, m: m.put(a, [13, 2], [4, 5], mode="wrap"),
        lambda a, m: m.putmask(a, a > 4, [10, 20, 30]),
        lambda a, m: m.place(a, a < 3, [8, 9]),
        lambda a, m: m.put_along_axis(a, np.array([[0], [3], [1]]), -1, axis=1),
        lambda a, m: a.fill(3),
        lambda a, m: np.multiply.at(a, (np.array([0, 0]), np.array([1, 1])), 3),
        lambda a, m: np.maximum.at(a, [0, 2], 50),
        lambda a, m: np.minimum.at(a, [[0, 1], [1, 1]], -4),
        lambda a, m: np.subtract.at(a, [2, 2, 2], 1),
        lambda a, m: np.add(a, 1, out=a),
    ]
    for i, f in enumerate(cases):
        hh = h.copy()
        x = lz(h, dev)
        f(hh, np)
        f(x, lazycl if i < 7 else np)
        same(x, hh)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float32,
                                   np.float64], ids=lambda d: np.dtype(d).name)
def test_add_at_dtypes(dev, dtype):
    rng = np.random.default_rng(1)
    idx = rng.integers(0, 17, 500)
    h = np.zeros(17, dtype)
    x = lz(h, dev)
    vals = (rng.integers(0, 3, 500)).astype(dtype)
    np.add.at(h, idx, vals)
    np.add.at(x, lz(idx, dev), lz(vals, dev))
    same(x, h)


def test_bincount(dev):
    rng = np.random.default_rng(2)
    idx = rng.integers(0, 300, 5000)
    w = rng.random(5000)
    same(lazycl.bincount(lz(idx, dev)), np.bincount(idx))
    same(lazycl.bincount(lz(idx, dev), minlength=400), np.bincount(idx, minlength=400))
    np.testing.assert_allclose(np.asarray(lazycl.bincount(lz(idx, dev), weights=lz(w, dev))),
                               np.bincount(idx, w), rtol=1e-12)
    same(lazycl.bincount(lz(np.zeros(0, np.int64), dev), minlength=3), np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="negative"):
        lazycl.bincount(lz(np.array([1, -1]), dev))
    # With a minlength the count runs first into minlength bins; an index past it, or a
    # negative one (never wrapped), sends it to the sized path.
    for ml in (1, 299, 300, 1000):
        for dt in (np.int32, np.uint16, np.int64):
            same(lazycl.bincount(lz(idx.astype(dt), dev), minlength=ml),
                 np.bincount(idx.astype(dt), minlength=ml))
        np.testing.assert_allclose(
            np.asarray(lazycl.bincount(lz(idx, dev), weights=lz(w, dev), minlength=ml)),
            np.bincount(idx, w, minlength=ml), rtol=1e-12)
    for bad in ([1, -1], [-5, 1], [-1000, 2]):
        with pytest.raises(ValueError, match="negative"):
            lazycl.bincount(lz(np.array(bad), dev), minlength=3)
    with pytest.raises(ValueError, match="'minlength' must not be negative"):
        lazycl.bincount(lz(idx, dev), minlength=-1)
    same(lazycl.bincount(lz(np.array([2, 0, 2]), dev), minlength=3), np.array([1, 0, 2]))  # still usable
    # uint64 bins past 2**63 - 1 are negative after NumPy's cast to intp, with or without a
    # minlength (never counted into a wrapped bin); below it they count as any index.
    u = idx.astype(np.uint64)
    same(lazycl.bincount(lz(u, dev), minlength=350), np.bincount(u, minlength=350))
    for ml in (0, 3):
        with pytest.raises(ValueError, match="negative"):
            lazycl.bincount(lz(np.array([1, 2 ** 64 - 1], np.uint64), dev), minlength=ml)


@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_scatter_add_into_few_places(dev, dtype):
    """Many adds into a small target: on CPUs the privatized schedule (a private copy per
    item, summed after). Places the adds do not reach keep their exact bits (-0.0, NaN),
    negative and out-of-range indices behave as NumPy's, and the sum is the same each run."""
    rng = np.random.default_rng(7)
    n = 20000
    idx = rng.integers(-8, 8, n)
    vals = (rng.random(n) * 4).astype(dtype)
    h = np.zeros(40, dtype)
    if h.dtype.kind == "f":
        h[1::2] = np.nan
        h[0::4] = -0.0
    x = lz(h, dev)
    view, hview = x[4:36:2], h[4:36:2]        # 16 places, the others between them untouched
    lazycl.reset_stats()
    np.add.at(view, lz(idx, dev), lz(vals, dev))
    # the index check, then the store: private copies and their sum (CPUs), or atomics
    private = dev.schedule != "gpu"
    assert lazycl.stats()["launches"] == (3 if private else 2)
    np.add.at(hview, idx, vals)
    r = np.asarray(x)
    if h.dtype.kind == "f":
        np.testing.assert_allclose(r, h, rtol=1e-5)
        assert np.array_equal(np.signbit(r), np.signbit(h))
    if h.dtype.kind == "f" and private:     # atomics add floats in the order items arrive
        again = lz(np.zeros(40, dtype), dev)
        np.add.at(again[4:36:2], lz(idx, dev), lz(vals, dev))
        twice = lz(np.zeros(40, dtype), dev)
        np.add.at(twice[4:36:2], lz(idx, dev), lz(vals, dev))
        assert np.array_equal(np.asarray(again), np.asarray(twice))   # deterministic
    if h.dtype.kind != "f":
        same(x, h)
    bad = idx.copy()
    bad[n // 2] = 16
    with pytest.raises(IndexError, match="16"):
        np.add.at(view, lz(bad, dev), lz(vals, dev))
    np.testing.assert_array_equal(np.asarray(x), r)     # nothing written


FILL_DIAGONAL = [
    ((4, 4), {}), ((3, 5), {}), ((5, 3), {}), ((7, 3), {"wrap": True}), ((7, 3), {"wrap": False}),
    ((3, 3, 3), {}), ((2, 2, 2, 2), {}), ((1, 1), {}), ((0, 3), {}), ((4, 0), {"wrap": True}),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", range(len(FILL_DIAGONAL)))
def test_fill_diagonal(dev, dtype, case):
    shape, kw = FILL_DIAGONAL[case]
    for val in (9, [1, 2], np.array([[3], [4], [5]]), [], 2.7, True):
        h = base(dtype, shape)
        x = lz(h, dev)
        np.fill_diagonal(h, val, **kw)
        assert np.fill_diagonal(x, val, **kw) is None
        same(x, h)
    h = base(dtype, shape)
    x = lz(h, dev)
    v = (np.arange(5) + 2).astype(dtype)
    np.fill_diagonal(h, v, **kw)
    lazycl.fill_diagonal(x, lz(v, dev), **kw)            # a lazycl value, cycled
    same(x, h)


def test_fill_diagonal_views_and_errors(dev):
    h = np.arange(48, dtype=np.float64).reshape(6, 8)
    x = lz(h, dev)
    before = x + 0                                      # built before: keeps the old values
    row = x[1]
    sub = x[1:, ::-2]                                   # a strided, reversed view is written
    np.fill_diagonal(sub, -1.0)
    hs = h.copy()
    np.fill_diagonal(hs[1:, ::-2], -1.0)
    same(x, hs)                                         # the base sees the write
    same(row, hs[1])                                    # and so do its other views
    same(before, h)
    np.fill_diagonal(x.T, [5, 6], wrap=True)
    np.fill_diagonal(hs.T, [5, 6], wrap=True)
    same(x, hs)
    y = lz(np.zeros((3, 3), np.float32), dev) * 2       # pending: computed, then written
    np.fill_diagonal(y, 1)
    same(y, np.eye(3, dtype=np.float32))
    with pytest.raises(ValueError, match="at least 2-d"):
        np.fill_diagonal(lz(np.zeros(3), dev), 1)
    with pytest.raises(ValueError, match="equal length"):
        np.fill_diagonal(lz(np.zeros((2, 3, 3)), dev), 1)
    with pytest.raises(OverflowError):
        np.fill_diagonal(lz(np.zeros((3, 3), np.uint8), dev), -1)
    with pytest.raises(ValueError, match="read-only"):
        np.fill_diagonal(lazycl.broadcast_to(lz(np.zeros(3), dev), (3, 3)), 1)
    hn = np.zeros((3, 3))                               # a NumPy destination, lazycl value
    np.fill_diagonal(hn, lz(np.array([1.0, 2.0, 3.0]), dev))
    same(hn, np.diag([1.0, 2.0, 3.0]))


def test_fill_diagonal_kernels(dev):
    x = lz(np.zeros((300, 300), np.float32), dev)
    x.compute()
    lazycl.reset_stats()
    np.fill_diagonal(x, 1)
    s = lazycl.stats()
    assert s["launches"] == 1                           # one store of 300 places
    assert s["bytes_to_device"] < 300 * 8 + 64          # the positions and the value
    same(lazycl.trace(x), np.float32(300))


# ---- data-dependent shapes ----------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_], ids=lambda d: np.dtype(d).name)
def test_compactions(dev, dtype):
    rng = np.random.default_rng(3)
    h = (rng.random((6, 7)) * 3).astype(dtype)
    x = lz(h, dev)
    m = h > 1 if dtype != np.bool_ else h
    same(x[lz(m, dev)], h[m])
    same((x * 2)[x > 1], (h * 2)[h > 1])                # pending source and mask
    same(x[m[:, 0]], h[m[:, 0]])                        # rows
    for a, b in zip(lazycl.nonzero(x), np.nonzero(h)):
        same(a, b)
    same(lazycl.argwhere(x), np.argwhere(h))
    same(lazycl.flatnonzero(x), np.flatnonzero(h))
    same(lazycl.extract(x > 1, x), np.extract(h > 1, h))
    same(lazycl.compress([True, False, True], x, axis=1), np.compress([True, False, True], h,
                                                                      axis=1))
    same(x[np.zeros((6, 7), bool)], h[np.zeros((6, 7), bool)])    # nothing kept


def test_compaction_kernels(dev):
    h = np.random.default_rng(4).random(10000).astype(np.float32)
    x = lz(h, dev)
    x.compute()
    lazycl.reset_stats()
    r = x[x > 0.5]
    r.compute()
    s = lazycl.stats()
    # The running count (a scan: 1 or 3 launches) and one store that recomputes the mask.
    assert s["launches"] <= 4
    same(r, h[h > 0.5])


# CPUs compact the flat mask in chunks (python/lazycl/_write.py's _Chunks): P rows of c elements
# and a tail of fewer than P, each chunk counted in one pass, then stored in row order with its
# running count computed in the store (fusion.h's LC_FUSE_SCAN_STORE). The sizes cross the
# chunk boundaries: under P * 256 (the plain scan and store), exactly P chunks, a tail of 1 and
# of P - 1, and odd sizes.
def _chunks(dev):
    return max(16, 2 * int(dev.compute_units))


def _sizes(P):
    return [P * 256 - 1, P * 256, P * 256 + 1, P * 300 + P - 1, 100003]


@pytest.mark.parametrize("which", ["random", "none", "all", "first_half", "last_half",
                                   "alternate", "one", "last"])
def test_chunked_compaction_masks(dev, which):
    P = _chunks(dev)
    for n in _sizes(P):
        rng = np.random.default_rng(n)
        h = rng.random(n).astype(np.float32)
        m = {"random": h > 0.5, "none": np.zeros(n, bool), "all": np.ones(n, bool),
             "first_half": np.arange(n) < n // 2, "last_half": np.arange(n) >= n // 2,
             "alternate": np.arange(n) % 2 == 1, "one": np.arange(n) == n // 3,
             "last": np.arange(n) == n - 1}[which]
        x = lz(h, dev)
        same(x[lz(m, dev)], h[m])
        same(lazycl.flatnonzero(lz(m, dev)), np.flatnonzero(m))


@pytest.mark.parametrize("dtype", core(DTYPES + [np.int8, np.uint16, np.uint64, np.complex64,
                                                 np.complex128], WIDTH_DTYPES),
                         ids=lambda d: np.dtype(d).name)
def test_chunked_compaction_dtypes(dev, dtype):
    if np.dtype(dtype) == np.float64 and not dev.fp64:
        pytest.skip("no fp64")
    P = _chunks(dev)
    n = P * 300 + 5
    h = (np.random.default_rng(1).random(n) * 100).astype(dtype)
    if np.dtype(dtype).kind == "c":
        h = h + 1j * h[::-1]
    m = np.random.default_rng(2).random(n) < 0.3
    x = lz(h, dev)
    same(x[lz(m, dev)], h[m])
    same(x[x != 0], h[h != 0])                          # the mask from the source itself


def test_chunked_compaction_views(dev):
    P = _chunks(dev)
    h = np.random.default_rng(5).random((P * 20, 97)).astype(np.float32)
    x = lz(h, dev)
    same(x[x > 0.5], h[h > 0.5])                                  # 2-d mask, flat order
    same(x.T[x.T > 0.5], h.T[h.T > 0.5])                          # transposed
    same(x[::-1, ::2][x[::-1, ::2] > 0.25], h[::-1, ::2][h[::-1, ::2] > 0.25])
    same(x[:, 3][x[:, 0] > 0.5], h[:, 3][h[:, 0] > 0.5])          # strided, another column
    same(x[x[:, 0] > 0.5], h[h[:, 0] > 0.5])                      # rows: the plain path
    for a, b in zip(lazycl.nonzero(x > 0.7), np.nonzero(h > 0.7)):
        same(a, b)
    same(lazycl.argwhere(x.T > 0.9), np.argwhere(h.T > 0.9))
    same(lazycl.extract(x > 0.5, x * 2), np.extract(h > 0.5, h * 2))


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax", "cummin"])
@pytest.mark.parametrize("dtype", core([np.float32, np.float64, np.int32, np.int64, np.uint8],
                                       [np.float32, np.int64]), ids=lambda d: np.dtype(d).name)
def test_scan_written_by_a_store(dev, op, dtype):
    """A scan that only a store reads, at the places it writes, is computed in the store's
    kernel (fusion.h's LC_FUSE_SCAN_STORE): a row per item, or a long row's chunks (CPUs, three
    launches) or, for integer scans, tiles in one pass (GPUs); where no schedule takes it (a GPU's
    few long rows of a float scan) the scan is written first."""
    if np.dtype(dtype) == np.float64 and not dev.fp64:
        pytest.skip("no fp64")
    for shape, axis in [((10,), 0), ((20000,), 0), ((64, 500), 1), ((500, 7), 0),
                        ((4, 5, 300), 2)]:
        h = (np.random.default_rng(len(shape)).random(shape) * 3 + 0.5).astype(dtype)
        if op == "cumprod":
            h = np.where(np.random.default_rng(9).random(shape) < 0.002, 2, 1).astype(dtype)
        x = lz(h, dev)
        o = lz(np.zeros(shape, np.float64), dev)
        scan = {"cumsum": np.cumsum, "cumprod": np.cumprod, "cummax": np.maximum.accumulate,
                "cummin": np.minimum.accumulate}[op]
        # Floats against float64 (lazycl sums in double; NumPy's float32 cumsum drifts), cast
        # back to the scan's dtype.
        wide = h.astype(np.float64) if np.dtype(dtype).kind == "f" else h
        ref = scan(wide, axis=axis).astype(scan(h[:1], axis=0).dtype) + 1
        o[...] = getattr(lazycl, op)(x, axis=axis) + 1
        check = (lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-5)) \
            if np.dtype(dtype).kind == "f" else np.testing.assert_array_equal
        check(np.asarray(o), ref)
        # The value read elsewhere than where it is written (reversed): the scan written first
        # (a float sum in a GPU's tiles rounds otherwise than NumPy's running sum: float64's
        # last bits differed, make test-full).
        o[...] = (getattr(lazycl, op)(x, axis=axis) + 1)[..., ::-1]
        check(np.asarray(o), np.asarray(ref[..., ::-1], np.float64))


def test_scan_written_by_a_store_kernels(dev):
    h = np.random.default_rng(3).random((64, 500)).astype(np.float32)
    x, o = lz(h, dev), lz(np.zeros((64, 500), np.float32), dev)
    x.compute()
    o.compute()
    o[...] = lazycl.cumsum(x * 2, axis=1) + 1
    o.compute()
    lazycl.reset_stats()
    o[...] = lazycl.cumsum(x * 2, axis=1) + 1
    o.compute()
    s = lazycl.stats()
    assert s["launches"] == 1                             # a row per item, the scan computed there
    assert s["buffers_allocated"] + s["pool_hits"] == 0   # nothing written but o
    np.testing.assert_allclose(np.asarray(o), np.cumsum(h * 2, axis=1) + 1, rtol=1e-5)


def test_chunked_compaction_kernels(dev):
    """x[x > 0.5] on CPUs: one launch counts the chunks, one stores them (the running count
    computed in the store, nothing but the result written); with a tail, one more of each. On
    GPUs one store computes the running count in its pass (tiles), writes, and writes the count
    (read to the host after): the result, the count and the tiles' states."""
    gpu = dev.schedule == "gpu"
    P = _chunks(dev)
    for n, launches in [(P * 1000, 1 if gpu else 2), (P * 1000 + 7, 1 if gpu else 4)]:
        h = np.random.default_rng(n).random(n).astype(np.float32)
        x = lz(h, dev)
        x.compute()
        (x * 2 + 1)[x > 0.5].compute()                   # compiled before counting
        lazycl.reset_stats()
        r = (x * 2 + 1)[x > 0.5]
        r.compute()
        s = lazycl.stats()
        assert s["launches"] == launches
        # The result, and per part (the chunks, the tail) its counts and their copies on the
        # device (first slots, counts), or on GPUs the count and the tiles' tree: nothing the
        # size of the mask.
        assert s["buffers_allocated"] + s["pool_hits"] <= (3 if gpu else 1 + 3 * (launches // 2))
        same(r, (h * 2 + 1)[h > 0.5])


def test_chunked_compaction_inexact_masks(dev):
    """The chunk count and the store each compute the mask by different code: a mask whose
    value could differ in the last bit between the two (transcendental math, normal random
    numbers) is computed once first, so the result's length and its elements agree (GPUs: the
    one-pass store's tile loads and its stores)."""
    n = _chunks(dev) * 1000
    h = np.random.default_rng(5).standard_normal(n).astype(np.float32)
    x = lz(h, dev).compute()
    assert lazycl._lazycl._exact(x > 0.5) and not lazycl._lazycl._exact(lazycl.sin(x) > 0.5)
    c = 1 if dev.schedule == "gpu" else 2           # the store (GPUs), the count and the store
    for mask, launches in [(lambda a: a > 0.5, c), (lambda a: lazycl.sin(a) > 0.5, c + 1),
                           (lambda a: lazycl.exp(a) * 2 > 3, c + 1)]:
        mask(x).compute()
        x[mask(x)].compute()                           # compiled before counting
        lazycl.reset_stats()
        r = x[mask(x)]
        r.compute()
        assert lazycl.stats()["launches"] == launches
        m = np.asarray(mask(x))
        same(r, h[m])
    z = lazycl.random.default_rng(3).standard_normal(n, dtype=np.float32)
    assert not lazycl._lazycl._exact(z > 0.5)
    zh = np.asarray(z)
    same(z[z > 0.5], zh[zh > 0.5])


# GPUs compact a long flat mask in one store that writes its count too (_compact.py's
# _compact_counting; fusion.h's LC_FUSE_SCAN_TOTAL) into a buffer of the mask's size: the
# result is its first n elements, or a copy of them when n is under a quarter of it. Sizes
# across the GPU tiles (4096 elements: 256 items of 16; 8192 where the flags go by quads: 256
# items of 8 quads) and masks across that threshold; on CPUs the same calls take the chunks.
@pytest.mark.parametrize("dtype", core([np.float32, np.float64, np.int8, np.int64, np.uint16,
                                        np.bool_, np.complex64], [np.float32, np.int64]),
                         ids=lambda d: np.dtype(d).name)
def test_counting_compaction(dev, dtype):
    if np.dtype(dtype) in (np.float64, np.complex64) and not dev.fp64:
        pytest.skip("no fp64")
    gpu = dev.schedule == "gpu"
    for N in [8192, 8193, 4096 * 3, 4096 * 3 + 1, 8192 * 2 + 5, 100003]:
        rng = np.random.default_rng(N)
        h = (rng.random(N) * 100).astype(dtype)
        x = lz(h, dev).compute()
        ks = [0, 1, N // 4 - 1, -(-N // 4), N // 2, N - 1, N]
        for k in ks:
            m = np.zeros(N, bool)
            m[rng.permutation(N)[:k]] = True
            mm = lz(m, dev).compute()
            x[mm].compute()                              # compiled before counting
            lazycl.reset_stats()
            r = x[mm]
            r.compute()
            if gpu:
                # The store (and the copy of a result under a quarter of the buffer, but empty).
                assert lazycl.stats()["launches"] == (1 if 4 * k >= N or not k else 2), (N, k)
            same(r, h[m])
    m = np.ones(N, bool)
    m[::3] = False                                        # 2/3 kept: the buffer's first n
    same(x[lz(m, dev)] * 2, h[m] * 2)
    same(lazycl.flatnonzero(lz(m, dev)), np.flatnonzero(m))


def test_counting_compaction_memory(dev):
    """A result under a quarter of its buffer is a copy: the buffer of the mask's size is not
    kept alive by it."""
    import gc
    N = 100003
    h = np.random.default_rng(1).random(N).astype(np.float32)
    x = lz(h, dev).compute()
    m = lz(h < 0.1, dev).compute()
    gc.collect()
    before = lazycl.stats()["bytes_in_use"]
    r = x[m].compute()
    gc.collect()
    assert lazycl.stats()["bytes_in_use"] - before < N * 4 // 2
    same(r, h[h < 0.1])
    r[0] = -1                                             # its own buffer: writable
    assert float(r[0]) == -1 and float(x[0]) == h[0]
    m2 = lz(h < 0.9, dev).compute()
    r2 = x[m2]
    r2[1] = -2                                            # a view of its buffer: writes stay there
    assert float(r2[1]) == -2
    same(x, h)


def test_counting_compaction_buffer_bound():
    """The one-pass store's buffer of the mask's size is taken only where it fits one
    allocation and an eighth of the device's memory; else the count comes first."""
    from lazycl import _compact
    GiB = 1 << 30
    assert _compact._buffer_fits(GiB, 4 * GiB, 80 * GiB)
    assert not _compact._buffer_fits(8 * GiB, 4 * GiB, 80 * GiB)       # over one allocation
    assert not _compact._buffer_fits(11 * GiB, 64 * GiB, 80 * GiB)     # over an eighth
    assert _compact._buffer_fits(10 * GiB, 64 * GiB, 80 * GiB)
