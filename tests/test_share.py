"""NumPy's sharing rules on devices that compute in host memory: lc.asarray(a) shares a NumPy
array's memory, np.asarray(y) is a view of y's buffer (docs/api.md, "Memory shared with
NumPy"). Everything is checked against NumPy doing the same through a NumPy view.

On a device that does not compute in host memory (a GPU), both copy: the tests check that too.
"""
import gc

import numpy as np
import pytest

import lazycl as lc
from lazycl import _lazycl as _c

from conftest import DEVICES, WIDTH_DTYPES, assert_same, make


def shares_in(dev):
    return _c._host_shares(dev)[0]


def shares_out(dev):
    return _c._host_shares(dev)[1]


@pytest.fixture(params=DEVICES, ids=[d.filter_string for d in DEVICES])
def dev(request):
    return request.param


# ---- in: lc.asarray ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", WIDTH_DTYPES + ["int8", "float64", "complex64"])
def test_asarray_shares_by_dtype(dev, dtype):
    if dtype in ("float64", "complex128") and not dev.fp64:
        pytest.skip("no fp64 on this device")
    a = make(dtype, (5, 7), seed=3)
    x = lc.asarray(a, device=dev)
    y = x[1:4, ::2] if dtype == "bool" else x[1:4, ::2] * 2
    ref_before = a[1:4, ::2] if dtype == "bool" else a[1:4, ::2] * 2
    a[2, 2] = a[0, 0]          # a NumPy write before the force ...
    ref_after = a[1:4, ::2] if dtype == "bool" else a[1:4, ::2] * 2
    got = y.numpy()
    if shares_in(dev):
        assert_same(got, ref_after)   # ... shows in the result, as with Dask's from_array
        assert np.shares_memory(np.asarray(x), a) == shares_out(dev)
    else:
        assert_same(got, ref_before)


@pytest.mark.parametrize("layout", ["contiguous", "reversed", "strided", "transposed", "0-d"])
def test_asarray_layouts_share(dev, layout):
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = {"contiguous": base, "reversed": base[::-1, ::-2], "strided": base[1:, 1::3],
         "transposed": base.T, "0-d": base[2:3, 3:4].reshape(())}[layout]
    x = lc.asarray(a, device=dev)
    assert x.shape == a.shape
    assert_same(x.numpy(), a)
    a[...] = -a - 1            # NumPy writes through its own view
    if shares_in(dev):
        assert_same(x.numpy(), a)
    else:
        assert_same(x.numpy(), -a - 1)


def test_lazycl_write_shows_in_numpy(dev):
    a = np.arange(10, dtype=np.int64)
    ref = a.copy()
    x = lc.asarray(a, device=dev)
    y = x + 1                   # a pending reader: it keeps the values before the write
    x[2:5] = 0
    x[7] = 9                    # a one-element write: not recorded, written at once
    x[::3] += 100
    ref_x = ref.copy()
    ref_x[2:5] = 0
    ref_x[7] = 9
    ref_x[::3] += 100
    assert_same(x.numpy(), ref_x)
    assert_same(y.numpy(), ref + 1)
    if shares_in(dev):
        assert_same(a, ref_x)   # the writes went to a's memory, as through a NumPy view
    else:
        assert_same(a, ref)


def test_copy_true_never_shares(dev):
    a = np.arange(6.0, dtype=np.float32)
    x = lc.asarray(a, device=dev, copy=True)
    a[0] = 50
    x[1] = 60
    assert_same(x.numpy(), np.array([0, 60, 2, 3, 4, 5], np.float32))
    assert a[1] == 1


def test_copy_false(dev):
    a = np.arange(6, dtype=np.int32)
    if shares_in(dev):
        x = lc.asarray(a, device=dev, copy=False)
        a[0] = 7
        assert x.numpy()[0] == 7
    else:
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            lc.asarray(a, device=dev, copy=False)
    # A new dtype, or another byte order, needs a copy: ValueError, as NumPy's.
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        lc.asarray(a, dtype=np.int64, device=dev, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        lc.asarray(a.astype(">i4"), device=dev, copy=False)
    # An empty array has nothing to copy.
    assert lc.asarray(np.zeros((0, 3), np.float32), device=dev, copy=False).shape == (0, 3)
    # An unsupported dtype stays the TypeError it always was.
    with pytest.raises(TypeError, match="does not support dtype"):
        lc.asarray(np.zeros(3, np.float16), device=dev, copy=False)


def test_copies_where_sharing_cannot(dev):
    a = np.arange(8, dtype=np.float32)
    raw = np.zeros(8 * 4 + 1, np.uint8)[1:].view(np.float32)     # not 4-byte aligned
    raw[:] = a
    swapped = a.astype(">f4")
    for src in (raw, swapped):
        x = lc.asarray(src, device=dev)
        src[0] = 99
        assert x.numpy()[0] == 0          # a copy: NumPy's later write does not show
    x = lc.asarray(a, dtype=np.float64 if dev.fp64 else np.int32, device=dev)
    a[1] = 99
    assert x.numpy()[1] == 1


def test_readonly_numpy_gives_readonly_array(dev):
    a = np.arange(5.0, dtype=np.float32)
    a.flags.writeable = False
    x = lc.asarray(a, device=dev)
    if shares_in(dev):
        with pytest.raises(ValueError, match="read-only"):
            x[0] = 1
        assert not np.asarray(x).flags.writeable
    assert_same((x * 2).numpy(), a * 2)


def test_numpy_memory_outlives_its_name(dev):
    a = np.arange(1000, dtype=np.float32)
    x = lc.asarray(a, device=dev)
    del a
    gc.collect()
    junk = [np.full(1000, 7, np.float32) for _ in range(50)]   # reuse freed memory
    assert_same((x + 1).numpy(), np.arange(1000, dtype=np.float32) + 1)
    del junk, x
    gc.collect()
    _c._dlpack_drain()


def test_asarray_uploads_nothing(dev):
    a = np.ones(1 << 16, np.float32)
    before = lc.stats()["bytes_to_device"]
    x = lc.asarray(a, device=dev)
    moved = lc.stats()["bytes_to_device"] - before
    assert moved == (0 if shares_in(dev) else a.nbytes)
    assert float(x.sum()) == a.size


# ---- out: np.asarray ---------------------------------------------------------------------

def test_numpy_view_shares_both_ways(dev):
    x = lc.asarray(np.arange(12, dtype=np.float32), device=dev, copy=True)
    y = (x * 2).reshape(3, 4)
    v = np.asarray(y)
    assert_same(v, np.arange(12, dtype=np.float32).reshape(3, 4) * 2)
    if not shares_out(dev):
        assert v.flags.owndata or v.base is not None
        v[0, 0] = 55
        assert y.numpy()[0, 0] == 0
        return
    assert np.asarray(y).__array_interface__["data"][0] == v.__array_interface__["data"][0]
    v[0, 1] = 55                       # NumPy's write shows in y
    assert y.numpy()[0, 1] == 55
    y[2, 3] = -1                       # lazycl's write shows in the view
    assert v[2, 3] == -1
    y[1] += 1                          # a general write, too
    assert_same(v[1], np.array([9, 11, 13, 15], np.float32))


def test_numpy_view_keeps_buffer_alive(dev):
    y = (lc.asarray(np.arange(4096, dtype=np.int64), device=dev, copy=True) * 3).compute()
    v = np.asarray(y)
    del y
    gc.collect()
    # New arrays of the same size come from the pool: none may take the view's buffer.
    others = [(lc.asarray(np.full(4096, k, np.int64), device=dev, copy=True) + 0).compute()
              for k in range(8)]
    assert_same(v, np.arange(4096, dtype=np.int64) * 3)
    del others


def test_numpy_view_of_strided_and_pending(dev):
    a = make("float32", (6, 8), seed=1)
    x = lc.asarray(a, device=dev, copy=True)
    s = x[::-2, 1::3]                  # a strided view of a realized array
    v = np.asarray(s)
    assert_same(v, a[::-2, 1::3])
    if shares_out(dev):
        v[0, 0] = 1000                 # NumPy's write lands in x's memory, at its place
        assert x.numpy()[5, 1] == 1000
    p = x.T + 1                        # pending: computed first
    assert_same(np.asarray(p), a.T + 1 if not shares_out(dev) else x.numpy().T + 1)


def test_numpy_view_sees_recorded_writes(dev):
    x = lc.asarray(np.zeros(16, np.float32), device=dev, copy=True).compute()
    x[3] = 5.0                         # recorded (issue 28's pokes), applied before the view
    v = np.asarray(x)
    assert v[3] == 5.0
    x[4] = 6.0                         # the buffer is shared now: written at once
    assert v[4] == 6.0 if shares_out(dev) else x.numpy()[4] == 6.0


def test_numpy_view_copy_and_dtype(dev):
    y = lc.asarray(np.arange(5, dtype=np.int32), device=dev, copy=True).compute()
    c = np.array(y, copy=True)
    c[0] = 9
    assert y.numpy()[0] == 0
    d = np.asarray(y, dtype=np.float32)
    assert d.dtype == np.float32 and d[1] == 1.0
    if shares_out(dev):
        assert np.asarray(y, copy=False)[4] == 4
    else:
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            np.asarray(y, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        y.__array__(dtype=np.float64, copy=False)


def test_round_trip_is_the_same_memory(dev):
    a = np.arange(100, dtype=np.float64 if dev.fp64 else np.float32)
    x = lc.asarray(a, device=dev)
    if shares_in(dev) and shares_out(dev):
        assert np.shares_memory(np.asarray(x), a)
    b = np.asarray(lc.sqrt(x))
    assert_same(b, np.sqrt(a), rtol=1e-6)


def test_empty_and_broadcast_views(dev):
    e = lc.zeros((0, 4), np.float32, device=dev)
    assert np.asarray(e).shape == (0, 4)
    b = lc.broadcast_to(lc.asarray(np.arange(3.0, dtype=np.float32), device=dev, copy=True),
                        (4, 3))
    v = np.asarray(b)
    assert_same(v, np.broadcast_to(np.arange(3.0, dtype=np.float32), (4, 3)))
    assert not v.flags.writeable or not shares_out(dev)


# ---- GPUs: pinned staging (runtime/staging.c) ------------------------------------------------

@pytest.mark.parametrize("n,offset", [(1, 0), (4 << 20, 0), ((4 << 20) + 3, 5),
                                      (9 * (4 << 20) + 1234, 64), (70 * (1 << 20) + 17, 1)])
def test_staged_roundtrip_chunks(dev, n, offset):
    # The chunking of staged transfers (chunks of 4 MiB over up to 8 threads, two slots
    # each), on any device: CPU devices never stage on their own, so this is its CI test.
    data = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
    assert_same(_c._stage_roundtrip(dev, data, offset), data)


def test_big_transfers_round_trip(dev):
    n = (6 << 20) + 7                     # past the 4 MiB where GPUs stage and pin
    a = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    x = lc.asarray(a, device=dev, copy=True)
    y = np.asarray(x * 2 + 1)
    assert_same(y, a * 2 + 1)
    if not shares_out(dev):
        # A GPU's big result lands in pinned memory that NumPy owns through its base.
        assert y.base is not None and y.flags.c_contiguous and y.flags.writeable
        y[0] = 7
        assert (x * 2 + 1).numpy()[0] == a[0] * 2 + 1
    w = np.zeros(n, np.float32)
    x2 = lc.asarray(w, device=dev, copy=True)
    x2[1::2] = lc.asarray(a[1::2], device=dev, copy=True)
    ref = np.zeros(n, np.float32)
    ref[1::2] = a[1::2]
    assert_same(x2.numpy(), ref)


def test_memory_nobody_else_holds_is_not_shared(dev):
    # lc.asarray(a.copy()): only lazycl holds the copy, so a one-element write may wait
    # (issue 28's recorded writes), and a write may copy the buffer for pending readers.
    x = lc.asarray(np.arange(8, dtype=np.float32) * 1, device=dev)
    before = lc.stats()["launches"]
    x[3] = -1.0
    x[4] = -2.0
    recorded = lc.stats()["launches"] == before
    assert_same(x.numpy(), np.array([0, 1, 2, -1, -2, 5, 6, 7], np.float32))
    a = np.arange(8, dtype=np.float32)
    y = lc.asarray(a, device=dev)
    before = lc.stats()["launches"]
    y[3] = -1.0                         # a is still held: the write shows in it at once
    if shares_in(dev):
        assert a[3] == -1.0
        assert lc.stats()["launches"] > before
        assert recorded


def _thp_mode():
    """Linux's transparent huge pages setting ("always", "madvise", "never"), or None."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return f.read().split("[")[1].split("]")[0]
    except (OSError, IndexError):
        return None


def _vma_of(addr):
    """The /proc/self/smaps fields of the mapping holding addr, as a dict."""
    fields, hit = {}, False
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split()[0]
            if "-" in head and ":" not in head:
                if hit:
                    break
                lo, hi = (int(v, 16) for v in head.split("-"))
                hit = lo <= addr < hi
            elif hit:
                k, _, v = line.partition(":")
                fields[k] = v.strip()
    return fields


@pytest.mark.parametrize("nbytes", [1 << 20, (8 << 20) + 4])
def test_big_buffers_in_huge_pages(dev, nbytes):
    """A buffer of 4 MiB or more on a device that computes in host memory is made over memory
    of lazycl's own, 2 MiB-aligned and offered to Linux's transparent huge pages (runtime/
    hostmem.c, lc_huge_buffer: gathers over the driver's 4 KiB pages missed the TLB); a
    smaller one is the driver's. The NumPy view is the buffer itself, so its address tells."""
    n = nbytes // 4
    y = (lc.asarray(np.arange(n, dtype=np.float32), device=dev, copy=True) * 2).compute()
    v = np.asarray(y)
    assert_same(v, np.arange(n, dtype=np.float32) * 2)
    if not shares_out(dev):
        return
    addr = v.__array_interface__["data"][0]
    big = nbytes >= (4 << 20)
    if big:
        assert addr % (2 << 20) == 0
    vma = _vma_of(addr)
    if big and _thp_mode() in ("always", "madvise") and "THPeligible" in vma:
        assert vma["THPeligible"] == "1"
