"""DLPack: __dlpack__, __dlpack_device__ and from_dlpack, against NumPy (and PyTorch CPU when
installed), on every device. Zero-copy is proven by equal data pointers and by writes through
one side showing in the other."""
import gc
import time
import weakref

import numpy as np
import pytest

import lazycl as lc
from conftest import ALL_DTYPES, DEVICES, WIDTH_DTYPES, assert_same, core, make

_c = lc._lazycl


def ptr(capsule):
    """The address of element 0 in an unconsumed capsule, and its flags."""
    return _c._dlpack_pointer(capsule)


def np_ptr(a):
    return a.__array_interface__["data"][0]


def lc_ptr(x):
    """Where x's element 0 is in host memory (a zero-copy export of it)."""
    return ptr(x.__dlpack__(max_version=(1, 0)))[0]


class Legacy:
    """A consumer's view of a producer older than DLPack 1.0: __dlpack__() without keywords."""

    def __init__(self, x):
        self.x = x

    def __dlpack__(self, stream=None):
        return self.x.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def shares_host_memory(dev):
    """Every CPU device lazycl finds here computes in host memory (runtime/hostmem.c's
    probe); a GPU does not."""
    return "cpu" in dev.filter_string


@pytest.fixture(params=DEVICES, ids=[d.filter_string for d in DEVICES])
def dev(request):
    return request.param


# ---- export: np.from_dlpack(lazycl array) --------------------------------------------

LAYOUTS = {
    "contiguous": lambda x: x,
    "0-d": lambda x: x[1, 2, ...],
    "empty": lambda x: x[2:2],
    "strided": lambda x: x[::2, 1::3],
    "negative": lambda x: x[::-1, ::-2],
    "transpose": lambda x: x.T,
}


def is_copied(x):
    """Whether x's export (copy=None) is a copy: DLPack 1.0's IS_COPIED flag."""
    return bool(ptr(x.__dlpack__(max_version=(1, 0)))[1] & 2)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_export_to_numpy(dev, dtype, layout):
    """DLPack's contract, the same on every device: the capsule's strides describe its own
    memory, and the consumer honours them. A shared export (a device that computes in host
    memory) carries the view's strides; a copy (a GPU with copy=None, or copy=True anywhere)
    is memory of its own, flagged IS_COPIED, in a layout of the producer's choosing (lazycl's
    is C-contiguous), and the consumer may write it."""
    a = make(dtype, (5, 7), seed=3)
    x = LAYOUTS[layout](lc.asarray(a, device=dev))
    ref = LAYOUTS[layout](a)
    copied = is_copied(x)
    assert copied == (not shares_host_memory(dev))
    y = np.from_dlpack(x)
    assert y.dtype == ref.dtype and y.shape == ref.shape
    np.testing.assert_array_equal(y, ref)
    yc = np.from_dlpack(x, copy=True)
    assert yc.dtype == ref.dtype and yc.shape == ref.shape
    np.testing.assert_array_equal(yc, ref)
    for z in ([y, yc] if copied else [yc]):
        assert z.flags.c_contiguous and z.flags.writeable
    if not copied:
        assert y.strides == ref.strides
    if shares_host_memory(dev) and ref.size:
        assert np_ptr(yc) != lc_ptr(x)
        # The same memory: NumPy's pointer is the exported one, and a write shows.
        assert np_ptr(y) == lc_ptr(x)
        assert y.flags.writeable
        idx = (0,) * y.ndim
        new = (not ref[idx]) if dtype == "bool" else 1
        y[idx] = new
        ref[idx] = new
        assert_same(x, ref)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_export_bool_and_versions(dev, dtype):
    a = make(dtype, (4, 3), seed=1)
    x = lc.asarray(a, device=dev)
    assert 'capsule object "dltensor_versioned"' in repr(x.__dlpack__(max_version=(1, 0)))
    assert 'capsule object "dltensor_versioned"' in repr(x.__dlpack__(max_version=(2, 0)))
    assert 'capsule object "dltensor"' in repr(x.__dlpack__())
    assert 'capsule object "dltensor"' in repr(x.__dlpack__(max_version=(0, 8)))
    # The legacy capsule (bool as kDLBool, which NumPy takes in both).
    y = np.from_dlpack(Legacy(x))
    np.testing.assert_array_equal(y, a)
    assert y.dtype == a.dtype


def test_export_pending_is_computed(dev):
    base = lc.arange(12, dtype="float32", device=dev)
    x = (base * 2 + 1).reshape(3, 4)
    assert x.pending
    y = np.from_dlpack(x)
    np.testing.assert_array_equal(y, (np.arange(12, dtype=np.float32) * 2 + 1).reshape(3, 4))
    if shares_host_memory(dev):
        assert not x.pending
        assert np_ptr(y) == lc_ptr(x)


def test_export_constant_and_views_share(dev):
    """A constant gets memory at export, and a view of it taken before sees later writes."""
    x = lc.zeros((4, 4), dtype="int32", device=dev)
    v = x[1]
    y = np.from_dlpack(x)
    x[1, 2] = 7
    assert v.numpy().tolist() == [0, 0, 7, 0]
    if shares_host_memory(dev):
        assert y[1, 2] == 7


def test_export_readonly(dev):
    x = lc.asarray(np.arange(3.0), device=dev)
    b = lc.broadcast_to(x, (2, 3))
    cap = b.__dlpack__(max_version=(1, 0))
    y = np.from_dlpack(b)
    np.testing.assert_array_equal(y, np.broadcast_to(np.arange(3.0), (2, 3)))
    # Shared memory is flagged READ_ONLY; a copy (a GPU's export) is the consumer's own.
    flags = ptr(cap)[1]
    assert bool(flags & 2) == (not shares_host_memory(dev))
    assert bool(flags & 1) != bool(flags & 2) and y.flags.writeable == bool(flags & 2)
    yc = np.from_dlpack(b, copy=True)
    assert yc.flags.writeable and yc.strides == (24, 8)
    np.testing.assert_array_equal(yc, y)
    if shares_host_memory(dev):
        addr, flags = ptr(cap)
        assert flags & 1 and not flags & 2     # READ_ONLY, not IS_COPIED
        assert addr == lc_ptr(x) and y.strides == (0, 8)
        # A legacy capsule cannot say read-only: a copy, or BufferError for copy=False.
        with pytest.raises(BufferError, match="read-only array without a copy in a legacy"):
            b.__dlpack__(copy=False)
        legacy = b.__dlpack__()
        assert ptr(legacy)[0] != addr
    np.testing.assert_array_equal(np.from_dlpack(Legacy(b)), y)


@pytest.mark.parametrize("copy", [None, True, False])
def test_export_copy_keyword(dev, copy):
    a = make("float32", (6, 5), seed=2)
    x = lc.asarray(a, device=dev)[:, 1:]
    if copy is False and not shares_host_memory(dev):
        with pytest.raises(BufferError, match="copy=False"):
            x.__dlpack__(max_version=(1, 0), copy=False)
        return
    cap = x.__dlpack__(max_version=(1, 0), copy=copy)
    addr, flags = ptr(cap)
    copied = copy is True or not shares_host_memory(dev)
    assert bool(flags & 2) == copied                  # IS_COPIED
    if shares_host_memory(dev):
        assert (addr == lc_ptr(x)) == (not copied)
    y = np.from_dlpack(x, copy=copy)
    np.testing.assert_array_equal(y, a[:, 1:])
    if copy is True:
        y[0, 0] = 99
        assert x.numpy()[0, 0] == a[0, 1]


def test_export_dl_device_and_errors(dev):
    x = lc.asarray(np.arange(4), device=dev)
    assert x.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), np.arange(4))
    x.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    with pytest.raises(BufferError, match="unsupported device requested"):
        x.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError, match="unsupported device requested"):
        x.__dlpack__(dl_device=(1, 1))
    with pytest.raises(BufferError, match="unsupported device requested"):
        x.__dlpack__(dl_device=(4, 0))            # kDLOpenCL: no consumer could use a cl_mem
    with pytest.raises(TypeError, match="dl_device must be a tuple"):
        x.__dlpack__(dl_device=5)
    with pytest.raises(TypeError, match="max_version must be None or a tuple with two elements"):
        x.__dlpack__(max_version=3)
    with pytest.raises(RuntimeError, match="stream=None"):
        x.__dlpack__(stream=1)
    with pytest.raises(TypeError):
        x.__dlpack__(1)                           # keywords only


# ---- writes and lifetime of exports ------------------------------------------------------

def test_export_shares_writes_both_ways(dev):
    if not shares_host_memory(dev):
        pytest.skip("the device's memory is not host memory: exports are copies")
    a = np.arange(10, dtype=np.int64)
    x = lc.asarray(a, device=dev, copy=True)
    y = np.from_dlpack(x)
    before = x + 1                     # a pending reader of the old values
    x[3] = 100                         # in place: y sees it at once
    assert y[3] == 100
    assert np_ptr(y) == lc_ptr(x)      # not copied away from the consumer
    a1 = a + 1
    assert_same(before, a1)            # the reader kept the values of before the write
    x += 1
    assert y[3] == 101 and y[0] == 1
    y[5] = -5                          # the consumer's write, seen by lazycl's next reads
    assert int(x[5]) == -5 and int(x.sum()) == int(y.sum())


def test_export_lifetime(dev):
    if not shares_host_memory(dev):
        pytest.skip("the device's memory is not host memory: exports are copies")
    n = 1 << 16
    a = np.arange(n, dtype=np.float32)
    x = lc.asarray(a, device=dev)
    y = np.from_dlpack(x)
    addr = np_ptr(y)
    del x
    gc.collect()
    in_use = lc.stats()["bytes_in_use"]
    # The buffer stays alive and out of the pool: new arrays of its size get others.
    others = [lc.full(n, float(i), dtype="float32", device=dev).compute() for i in range(6)]
    assert all(lc_ptr(o) != addr for o in others)
    np.testing.assert_array_equal(y, a)
    del others
    gc.collect()
    assert lc.stats()["bytes_in_use"] <= in_use
    del y                              # the deleter unpins: the buffer goes back
    gc.collect()
    assert lc.stats()["bytes_in_use"] <= in_use - 4 * n


def test_unconsumed_capsule_frees(dev):
    x = lc.asarray(np.ones(1 << 15, dtype=np.float64), device=dev).compute()
    gc.collect()
    cap = x.__dlpack__(max_version=(1, 0))
    legacy = x.__dlpack__()
    del x
    gc.collect()
    held = lc.stats()["bytes_in_use"]
    del cap, legacy                    # never consumed: their destructors call the deleters
    gc.collect()
    if shares_host_memory(dev):
        assert lc.stats()["bytes_in_use"] <= held - 8 * (1 << 15)


# ---- import: lc.from_dlpack(NumPy array) -----------------------------------------------

IMPORTS = {
    "contiguous": lambda a: a,
    "0-d": lambda a: a[2, 3, ...],
    "empty": lambda a: a[:0],
    "offset": lambda a: a[1:, 1:],
    "strided": lambda a: a[::2, ::3],
    "negative": lambda a: a[::-1, ::-2],
    "transpose": lambda a: a.T,
}


@pytest.mark.parametrize("layout", list(IMPORTS))
@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_import_from_numpy(dev, dtype, layout):
    base = make(dtype, (6, 8), seed=5)
    a = IMPORTS[layout](base)
    x = lc.from_dlpack(a, device=dev)
    assert x.device == dev
    assert_same(x, a)
    if shares_host_memory(dev) and a.size:
        assert lc_ptr(x) == np_ptr(a)            # lazycl computes in NumPy's memory
        assert np.shares_memory(np.from_dlpack(x), base)
        assert_same(lc.copy(x), a)               # a kernel reads it where it lies
    else:
        assert not a.size or lc_ptr(x) != np_ptr(a)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_import_kernels_at_odd_offsets(dev, dtype):
    """Memory that starts one element past NumPy's allocation, read by maps, reductions,
    scans and sorts."""
    a = make(dtype, 4097, seed=9)[1:]
    x = lc.from_dlpack(a, device=dev)
    if shares_host_memory(dev):
        assert lc_ptr(x) == np_ptr(a)
    assert_same(x * 3 - 1, a * 3 - 1)
    if dtype == "float32":   # a scan adds in another order than NumPy's running sum
        assert_same(lc.cumsum(x), np.cumsum(a.astype(np.float64)).astype(np.float32),
                    rtol=1e-5, atol=1e-3)
    else:
        assert_same(lc.cumsum(x), np.cumsum(a))
    assert_same(lc.sort(x), np.sort(a))
    assert_same(x.max(), a.max())


def test_import_writes_both_ways(dev):
    a = np.zeros(8, dtype=np.int32)
    x = lc.from_dlpack(a, device=dev)
    if not shares_host_memory(dev):
        assert x.numpy().tolist() == [0] * 8
        return
    reader = x + 1
    x[2] = 5                               # lazycl writes into NumPy's memory
    assert a[2] == 5
    assert reader.numpy().tolist() == [1] * 8
    a[4] = 9                               # NumPy's write, seen by lazycl's next read
    assert x.numpy().tolist() == [0, 0, 5, 0, 9, 0, 0, 0]


def test_import_readonly(dev):
    a = np.broadcast_to(np.arange(4.0), (3, 4))
    x = lc.from_dlpack(a, device=dev)
    assert_same(x, a)
    if shares_host_memory(dev):
        assert lc_ptr(x) == np_ptr(a)
        with pytest.raises(ValueError, match="read-only"):
            x[0, 0] = 1.0
    # A legacy capsule cannot say whether it may be written: read-only, as NumPy's import.
    w = np.arange(4.0)
    xl = lc.from_dlpack(Legacy(w), device=dev)
    assert_same(xl, w)
    if shares_host_memory(dev):
        with pytest.raises(ValueError, match="read-only"):
            xl[0] = 1.0
    # A copy is its own memory and may be written.
    xc = lc.from_dlpack(a, device=dev, copy=True)
    xc[0, 0] = 7.0
    assert a[0, 0] == 0.0 and float(xc[0, 0]) == 7.0


@pytest.mark.parametrize("copy", [None, True, False])
def test_import_copy_keyword(dev, copy):
    a = make("int64", (5, 4), seed=4)
    if copy is False and not shares_host_memory(dev):
        with pytest.raises(lc.DLPackCopyError, match="copy=False"):
            lc.from_dlpack(a, device=dev, copy=False)
        return
    x = lc.from_dlpack(a, device=dev, copy=copy)
    assert_same(x, a)
    if shares_host_memory(dev):
        assert (lc_ptr(x) == np_ptr(a)) == (copy is not True)


def test_import_lifetime(dev):
    a = np.arange(1 << 14, dtype=np.float64)
    ref = a.copy()
    alive = weakref.ref(a)
    x = lc.from_dlpack(a, device=dev)
    del a
    gc.collect()
    assert_same(x, ref)                        # the producer's memory is still there
    if shares_host_memory(dev):
        assert alive() is not None             # held by the capsule's tensor
    del x
    gc.collect()
    # The driver lets go of the buffer (possibly on its own thread); the deleter then runs
    # under the GIL.
    for _ in range(200):
        _c._dlpack_drain()
        if alive() is None:
            break
        time.sleep(0.01)
    assert alive() is None


def test_import_errors(dev):
    with pytest.raises(BufferError, match="DLPack dtype float16"):
        lc.from_dlpack(np.zeros(3, np.float16), device=dev)
    assert lc.from_dlpack(np.zeros(3, np.complex64), device=dev).dtype == np.complex64
    with pytest.raises(AttributeError):
        lc.from_dlpack([1, 2, 3], device=dev)

    class NotACapsule:
        def __dlpack__(self, **kw):
            return 5

    with pytest.raises(TypeError, match="not a DLPack capsule"):
        lc.from_dlpack(NotACapsule(), device=dev)

    class Consumed:
        def __init__(self):
            self.cap = np.arange(3).__dlpack__(max_version=(1, 0))

        def __dlpack__(self, **kw):
            return self.cap

    c = Consumed()
    lc.from_dlpack(c, device=dev)
    if shares_host_memory(dev):
        with pytest.raises(ValueError, match="already consumed"):
            lc.from_dlpack(c, device=dev)

    class OnGPU:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, stream=None):
            raise AssertionError("not called")

    with pytest.raises(BufferError, match="host memory only"):
        lc.from_dlpack(OnGPU(), device=dev)
    # Unaligned memory (a view one byte into a buffer) is copied, or refused with copy=False.
    raw = np.frombuffer(bytearray(64), dtype=np.int32, offset=1, count=8)
    assert_same(lc.from_dlpack(raw, device=dev), raw)
    with pytest.raises(lc.DLPackCopyError, match="copy=False") as info:
        lc.from_dlpack(raw, device=dev, copy=False)
    assert isinstance(info.value, BufferError) and isinstance(info.value, ValueError)


def test_numpy_of_imported_view_stays_a_view(dev):
    """Reading a view (x.numpy()) leaves it a view: of NumPy's memory after an import, and
    of its base array (a write into the base shows in it)."""
    base = np.arange(24.0).reshape(4, 6)
    x = lc.from_dlpack(base[1:, ::2], device=dev)
    assert_same(x, base[1:, ::2])
    if shares_host_memory(dev):
        assert lc_ptr(x) == np_ptr(base[1:, ::2])
    y = lc.asarray(np.arange(10.0), device=dev)
    v = y[::2]
    assert v.numpy().tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    y[0] = 100.0
    assert v.numpy()[0] == 100.0


# ---- lazycl to lazycl ------------------------------------------------------------------

def test_from_dlpack_lazycl(dev):
    x = lc.asarray(np.arange(6.0).reshape(2, 3), device=dev)
    v = lc.from_dlpack(x)
    assert v.device == x.device
    x[0, 0] = 9.0
    assert float(v[0, 0]) == 9.0               # a view: the same memory
    c = lc.from_dlpack(x, copy=True)
    x[0, 1] = 8.0
    assert float(c[0, 1]) == 1.0
    for other in DEVICES:
        if other == dev:
            continue
        y = lc.from_dlpack(x, device=other)
        assert y.device == other
        assert_same(y, x.numpy())
        with pytest.raises(lc.DLPackCopyError, match="copy=False"):
            lc.from_dlpack(x, device=other, copy=False)


# ---- PyTorch CPU --------------------------------------------------------------------------

def test_torch_round_trip(dev):
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    x = lc.from_dlpack(t, device=dev)
    assert_same(x, t.numpy())
    u = torch.from_dlpack(x)
    assert torch.equal(u, t)
    if shares_host_memory(dev):
        assert lc_ptr(x) == t.data_ptr() == u.data_ptr()
        x[0, 0] = 5.0
        assert float(t[0, 0]) == 5.0
    tb = torch.tensor([True, False, True])
    assert_same(lc.from_dlpack(tb, device=dev), np.array([True, False, True]))
    assert torch.equal(torch.from_dlpack(lc.asarray(np.array([True, False]), device=dev)),
                       torch.tensor([True, False]))
