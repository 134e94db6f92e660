"""Creation against NumPy: asarray of any NumPy layout, scalars and lists; zeros/ones/full/empty/
arange/linspace/eye and the *_like forms with device= and dtype=."""
import numpy as np
import pytest

import lazycl

from conftest import ALL_DTYPES, DEVICE_FILTERS, assert_same, core, make

KNOWN_BUGS = []

BASE = make("float64", (6, 8), 1)

LAYOUTS = {
    "contiguous": lambda: BASE.copy(),
    "fortran": lambda: np.asfortranarray(BASE),
    "strided": lambda: BASE[::2, 1::3],
    "transposed": lambda: BASE.T,
    "negative": lambda: BASE[::-1, ::-2],
    "big_endian_f4": lambda: BASE.astype(">f4"),
    "big_endian_i8": lambda: (BASE * 100).astype(">i8")[::-1],
    "read_only": lambda: _read_only(BASE),
    "broadcast": lambda: np.broadcast_to(BASE[:1], (3, 8)),
    "0d": lambda: np.array(2.5),
    "empty": lambda: np.zeros((0, 4)),
    "unaligned": lambda: _unaligned(),
}


def _read_only(a):
    a = a.copy()
    a.flags.writeable = False
    return a


def _unaligned():
    buf = np.zeros(8 * 5 + 1, np.uint8)
    a = buf[1:].view(np.float64)
    a[:] = np.arange(5) * 1.5
    assert not a.flags.aligned
    return a


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_asarray_layouts(layout):
    a = LAYOUTS[layout]()
    la = lazycl.asarray(a)
    ref = a.astype(a.dtype.newbyteorder("=")) if not a.dtype.isnative else a
    assert la.shape == a.shape
    assert_same(la, ref)
    assert_same(la + 0, ref + 0)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_asarray_dtypes(dtype):
    a = make(dtype, (3, 5), 2)
    assert_same(lazycl.asarray(a), a)
    assert_same(lazycl.asarray(a[:, ::-2]), a[:, ::-2])
    # asarray(dtype=) converts like NumPy.
    assert_same(lazycl.asarray(a, dtype=np.float64), np.asarray(a, dtype=np.float64))


@pytest.mark.parametrize("obj", [0, 1, -5, 2**40, 2**63 + 1, 1.5, True, False, np.float32(2.5),
                                 np.int8(-3), np.uint16(7), np.bool_(True),
                                 [1, 2, 3], [[1.5, 2], [3, 4]], [True, False], [], [[]],
                                 (1, 2.0), [[1, 2], [3, 4], [5, 6]]],
                         ids=repr)
def test_asarray_python_objects(obj):
    ref = np.asarray(obj)
    assert_same(lazycl.asarray(obj), ref)


def test_asarray_dtype_and_device_kwargs(device):
    la = lazycl.asarray([1, 2, 3], dtype=np.float32, device=device)
    assert la.device == lazycl.Device(device)
    assert_same(la, np.asarray([1, 2, 3], np.float32))
    assert_same(lazycl.asarray(3, dtype="int8", device=device), np.asarray(3, np.int8))
    # asarray of a lazycl array is itself (or a cast).
    assert lazycl.asarray(la) is la
    assert_same(lazycl.asarray(la, dtype=np.int64), np.asarray([1, 2, 3]))


@pytest.mark.parametrize("bad", [np.clongdouble, "U3", object, np.float16, "M8[s]"], ids=str)
def test_asarray_bad_dtype(bad):
    with pytest.raises(TypeError):
        lazycl.asarray(np.zeros(3, dtype=bad))
    with pytest.raises(TypeError):
        lazycl.asarray([1, 2], dtype=bad)
    with pytest.raises(TypeError):
        lazycl.zeros(3, dtype=bad)


def test_asarray_roundtrip_does_not_alias():
    # copy=True and .numpy() are copies; asarray's sharing is tests/test_share.py's.
    a = np.arange(6.0)
    la = lazycl.asarray(a, copy=True)
    a[0] = 100
    assert la.numpy()[0] == 0
    out = la.numpy()
    out[1] = -1
    assert la.numpy()[1] == 1


# ---- zeros / ones / full / empty ------------------------------------------------------------

@pytest.mark.parametrize("dtype", [None] + core(ALL_DTYPES))
@pytest.mark.parametrize("shape", [(), 0, 5, (3, 0), (2, 3), (1, 2, 3)], ids=str)
def test_zeros_ones_full(shape, dtype):
    assert_same(lazycl.zeros(shape, dtype=dtype), np.zeros(shape, dtype=dtype))
    assert_same(lazycl.ones(shape, dtype=dtype), np.ones(shape, dtype=dtype))
    e = lazycl.empty(shape, dtype=dtype)
    assert e.shape == np.empty(shape).shape and e.dtype == np.empty(shape, dtype=dtype).dtype
    fill = 7 if dtype != "bool" else True
    assert_same(lazycl.full(shape, fill, dtype=dtype), np.full(shape, fill, dtype=dtype))


@pytest.mark.parametrize("value", [3, -2, 2.5, True, np.float32(1.25), np.int16(9), 2**40],
                         ids=repr)
def test_full_default_dtype(value):
    assert_same(lazycl.full((2, 2), value), np.full((2, 2), value))


def test_creation_on_device(device):
    d = lazycl.Device(device)
    for x in (lazycl.zeros(3, device=device), lazycl.ones((2, 2), np.int8, device=device),
              lazycl.full(4, 1.5, device=device), lazycl.arange(5, device=device),
              lazycl.linspace(0, 1, 5, device=device), lazycl.eye(3, device=device),
              lazycl.empty((1, 2), device=device)):
        assert x.device == d
    assert_same(lazycl.arange(5, device=device) * 2 + lazycl.ones(5, device=device),
                np.arange(5) * 2 + np.ones(5))


@pytest.mark.parametrize("fn", ["zeros_like", "ones_like", "empty_like", "full_like"])
@pytest.mark.parametrize("dtype", [None, "int8", "float32", "bool"])
def test_like(fn, dtype):
    a = make("int16", (3, 4), 3)
    la = lazycl.asarray(a)
    args = (5,) if fn == "full_like" else ()
    got = getattr(lazycl, fn)(la, *args, dtype=dtype)
    ref = getattr(np, fn)(a, *args, dtype=dtype)
    assert got.device == la.device
    if fn == "empty_like":
        assert got.shape == ref.shape and got.dtype == ref.dtype
    else:
        assert_same(got, ref)
    # NumPy's functions dispatch to lazycl (and stay lazy).
    w = getattr(np, fn)(la, *args, dtype=dtype)
    assert isinstance(w, lazycl.Array)
    assert w.shape == ref.shape and w.dtype == ref.dtype


def test_like_device(device):
    other = [f for f in DEVICE_FILTERS if f != device]
    la = lazycl.asarray(np.arange(3.0), device=device)
    assert lazycl.zeros_like(la).device == lazycl.Device(device)
    if other:
        z = lazycl.ones_like(la, device=other[0])
        assert z.device == lazycl.Device(other[0])
        assert_same(z, np.ones(3))


# ---- arange / linspace / eye ---------------------------------------------------------------

ARANGES = [(5,), (0,), (-3,), (2, 9), (9, 2), (2, 9, 3), (9, 2, -2), (0, 1, 0.1), (1.5, 4.0),
           (-1, 1, 0.25), (10, 0, -1.5), (0.0, 5), (3, 20, 7)]


@pytest.mark.parametrize("args", ARANGES, ids=str)
@pytest.mark.parametrize("dtype", [None, "int32", "uint8", "float32", "float64"])
def test_arange(args, dtype):
    if dtype in ("int32", "uint8") and any(isinstance(v, float) for v in args):
        pytest.skip("NumPy's arange of fractional steps in an int dtype is ill-defined")
    if dtype == "uint8" and any(v < 0 for v in args):
        pytest.skip("negative values do not fit uint8")
    ref = np.arange(*args, dtype=dtype)
    got = lazycl.arange(*args, dtype=dtype)
    assert got.shape == ref.shape
    if ref.dtype.kind == "f":
        assert_same(got, ref, rtol=1e-6, atol=1e-6)
    else:
        assert_same(got, ref)


def test_arange_step_zero():
    with pytest.raises(ZeroDivisionError):
        np.arange(0, 5, 0)
    with pytest.raises(ZeroDivisionError):
        lazycl.arange(0, 5, 0)


@pytest.mark.parametrize("args,kw", [((0, 1), {}), ((0, 1, 5), {}), ((-2, 3, 11), {}),
                                     ((1, 0, 4), {}), ((0, 1, 5), {"endpoint": False}),
                                     ((0, 10, 1), {}), ((0, 10, 0), {}), ((2, 7, 6), {}),
                                     ((0, 100, 7), {"dtype": np.int32}),
                                     ((-5, 5, 9), {"dtype": np.float32}),
                                     ((0, 1, 6), {"retstep": True}), ((3.0, 3.0, 4), {})],
                         ids=str)
def test_linspace(args, kw):
    ref = np.linspace(*args, **kw)
    got = lazycl.linspace(*args, **kw)
    if kw.get("retstep"):
        np.testing.assert_allclose(got[1], ref[1])
        got, ref = got[0], ref[0]
    assert got.shape == ref.shape
    if ref.dtype.kind == "f":
        assert_same(got, ref, rtol=1e-6, atol=1e-12)
        if ref.size:
            assert got.numpy()[0] == ref[0] and got.numpy()[-1] == ref[-1]
    else:
        assert_same(got, ref)


def test_linspace_negative_num():
    with pytest.raises(ValueError):
        np.linspace(0, 1, -1)
    with pytest.raises(ValueError):
        lazycl.linspace(0, 1, -1)


@pytest.mark.parametrize("args,kw", [((3,), {}), ((3, 5), {}), ((4,), {"k": 1}),
                                     ((4, 3), {"k": -2}), ((0,), {}), ((3,), {"dtype": "int8"}),
                                     ((2, 4), {"k": 5}), ((3,), {"dtype": bool})], ids=str)
def test_eye(args, kw):
    assert_same(lazycl.eye(*args, **kw), np.eye(*args, **kw))


def test_identity():
    assert_same(lazycl.identity(4), np.identity(4))
    assert_same(lazycl.identity(2, dtype=np.uint16), np.identity(2, dtype=np.uint16))


def test_creation_takes_no_memory_until_needed():
    lazycl.reset_stats()
    z = lazycl.zeros((1000, 1000))
    r = lazycl.arange(10**6)
    assert lazycl.stats()["buffers_allocated"] == 0
    assert z.shape == (1000, 1000) and r.shape == (10**6,)
