"""The array API standard's functions that NumPy spells differently (python/lazycl/_arrayapi.py
and the fixes the conformance suite found), checked against NumPy 2, which implements the
standard in its main namespace."""
import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, FLOAT_DTYPES, INT_DTYPES, WIDTH_DTYPES, assert_same, core, lz, make

ALL_WITH_COMPLEX = ALL_DTYPES + ["complex64", "complex128"]


# ---- data type functions -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOAT_DTYPES + ["complex64", "complex128"])
def test_finfo(dtype):
    ref = np.finfo(dtype)
    for arg in (getattr(lazycl, dtype), np.dtype(dtype), lazycl.zeros(2, dtype=dtype)):
        got = lazycl.finfo(arg)
        for field in ("bits", "eps", "max", "min", "smallest_normal"):
            assert getattr(got, field) == getattr(ref, field), field
            assert type(getattr(got, field)) is (int if field == "bits" else float), field
        assert got.dtype == ref.dtype and isinstance(got.dtype, np.dtype)
    with pytest.raises(ValueError):
        lazycl.finfo(lazycl.int32)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_iinfo(dtype):
    ref = np.iinfo(dtype)
    for arg in (getattr(lazycl, dtype), lazycl.zeros(2, dtype=dtype)):
        got = lazycl.iinfo(arg)
        assert (got.bits, got.min, got.max) == (ref.bits, ref.min, ref.max)
        assert all(type(v) is int for v in (got.bits, got.min, got.max))
        assert got.dtype == np.dtype(dtype)
    with pytest.raises(ValueError):
        lazycl.iinfo(lazycl.float32)


@pytest.mark.parametrize("casting", ["no", "safe", "same_kind", "unsafe"])
def test_can_cast(casting):
    for a in ALL_WITH_COMPLEX:
        x = lazycl.zeros(1, dtype=a)
        for b in ALL_WITH_COMPLEX:
            want = np.can_cast(a, b, casting=casting)
            assert lazycl.can_cast(getattr(lazycl, a), b, casting=casting) is want
            assert lazycl.can_cast(x, np.dtype(b), casting=casting) is want
    with pytest.raises(TypeError):
        lazycl.can_cast(1, lazycl.int8)


def test_result_type():
    for a in ALL_WITH_COMPLEX:
        x = lazycl.zeros(1, dtype=a)
        for b in ALL_WITH_COMPLEX:
            assert lazycl.result_type(x, b) == np.result_type(a, b)
            assert lazycl.result_type(a, lazycl.zeros(2, dtype=b)) == np.result_type(a, b)
        for scalar in (True, 1, 1.5, 1j):
            assert lazycl.result_type(x, scalar) == np.result_type(np.zeros(1, a), scalar)
    assert lazycl.result_type(lazycl.int8, lazycl.uint8, lazycl.float32) == np.float32
    with pytest.raises(ValueError, match="at least one array or dtype"):
        lazycl.result_type()


def test_isdtype():
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric", ("integral", "real floating"), lazycl.float32]
    for a in ALL_WITH_COMPLEX:
        for k in kinds:
            got = lazycl.isdtype(np.dtype(a), k)
            assert type(got) is bool and got == np.isdtype(np.dtype(a), k), (a, k)
    with pytest.raises(ValueError):
        lazycl.isdtype(lazycl.int8, "quaternion")


# ---- manipulation -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_concat(dtype, dev):
    a, b = make(dtype, (2, 3), 1), make(dtype, (4, 3), 2)
    assert_same(lazycl.concat([lz(a, dev), lz(b, dev)]), np.concat([a, b]))
    assert_same(lazycl.concat((lz(a, dev), lz(b.T.copy(), dev).T), axis=None),
                np.concat((a, b), axis=None))
    c = make(dtype, (2, 5), 3)[:, ::-2]                 # negative strides
    assert_same(lazycl.concat([lz(a, dev), lazycl.asarray(c, device=dev)], axis=-1),
                np.concat([a, c], axis=-1))
    assert_same(lazycl.concat([lz(a[:0], dev), lz(a, dev)], axis=0), np.concat([a[:0], a]))
    with pytest.raises(ValueError):
        lazycl.concat([lz(a, dev), lz(b, dev)], axis=1)


@pytest.mark.parametrize("shape,axis", [((3,), 0), ((2, 3), 0), ((2, 3), 1), ((2, 3, 4), -1),
                                        ((0, 3), 1), ((4, 0), 0)])
def test_unstack(shape, axis, dev):
    a = make("float32", shape, 4)
    got = lazycl.unstack(lz(a, dev), axis=axis)
    want = np.unstack(a, axis=axis)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)
    with pytest.raises(ValueError):
        lazycl.unstack(lazycl.asarray(1.0))
    with pytest.raises(np.exceptions.AxisError):
        lazycl.unstack(lz(a, dev), axis=len(shape))


# ---- cumulative functions -------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_cumulative(fn, dtype, dev):
    for shape, axis in (((5,), None), ((3, 4), 0), ((3, 4), -1), ((0,), None), ((2, 0), 1)):
        a = make(dtype, shape, 5, lo=-3, hi=3)
        for init in (False, True):
            ref = getattr(np, fn)(a, axis=axis, include_initial=init)
            got = getattr(lazycl, fn)(lz(a, dev), axis=axis, include_initial=init)
            assert_same(got, ref, rtol=1e-5 if dtype == "float32" else 0)
    a = make(dtype, (3, 4), 6, lo=-3, hi=3)
    assert_same(getattr(lazycl, fn)(lz(a, dev)[:, ::-1], axis=1, dtype="float64"),
                getattr(np, fn)(a[:, ::-1], axis=1, dtype="float64"), rtol=1e-12)
    with pytest.raises(ValueError):
        getattr(lazycl, fn)(lz(a, dev))                 # 2-d needs an axis


# ---- keywords the conformance suite found missing ---------------------------------------------

@pytest.mark.parametrize("dtype", core(ALL_WITH_COMPLEX, WIDTH_DTYPES + ["complex64"]))
def test_asarray_copy(dtype, dev):
    a = make(dtype if dtype[0] != "c" else "float32", (3, 4), 7).astype(dtype)
    x = lz(a, dev)
    assert lazycl.asarray(x, copy=False) is x
    assert lazycl.asarray(x, dtype=dtype, device=dev, copy=False) is x
    c = lazycl.asarray(x, copy=True)
    v = lazycl.asarray(x, copy=None)
    assert c is not x and v is x
    old = a[1, 2]
    x[1, 2] = 0 if old else 1                           # a write to x after the copy
    assert c[1, 2].numpy() == old                      # the copy keeps the old value
    assert_same(c, a)
    if lazycl._lazycl._host_shares(dev)[0]:
        assert lazycl.asarray(a, device=dev, copy=False).shape == a.shape  # shares a's memory
    else:
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            lazycl.asarray(a, device=dev, copy=False)   # host data moves to the device
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        lazycl.asarray(1, copy=False)
    other = {"float64": "float32", "complex64": "complex128",
             "complex128": "complex64"}.get(dtype, "float64")
    if other not in ("float64", "complex128") or dev.fp64:
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            lazycl.asarray(x, dtype=other, copy=False)  # a cast is a copy
        assert_same(lazycl.asarray(x, dtype=other, copy=True), np.asarray(x.numpy(), other))
    assert_same(lazycl.asarray(a, copy=True, device=dev), a)


def test_reshape_copy(dev):
    a = make("int32", (3, 4), 8)
    x = lz(a, dev)
    c = lazycl.reshape(x, shape=(4, 3), copy=True)
    x[0, 0] = 1000
    assert_same(c, a.reshape(4, 3))
    b = a.copy()
    b[0, 0] = 1000
    assert_same(lazycl.reshape(x, (12,)), b.reshape(12))
    with pytest.raises(NotImplementedError):
        lazycl.reshape(x, (12,), copy=False)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_diff_prepend_append(dtype, dev):
    a = make(dtype, (3, 5), 9)[:, ::-1]                 # negative strides
    x = lz(a, dev)
    for kw in ({"prepend": a[:, :1], "append": a[:, 1:3]}, {"prepend": 1}, {"append": 0, "n": 2},
               {"prepend": a[:, :2], "axis": 1, "n": 3}, {"prepend": a[:1], "axis": 0},
               {"n": 0}):
        lkw = {k: (lz(v, dev) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        assert_same(lazycl.diff(x, **lkw), np.diff(a, **kw))
    with pytest.raises(ValueError):
        lazycl.diff(x, prepend=np.zeros((2, 1), a.dtype))   # mismatched shape
    with pytest.raises(ValueError):
        lazycl.diff(lazycl.asarray(1.0))


@pytest.mark.parametrize("src,dst", [(0, -1), ((0, 1), (-1, 0)), ((), ()), ([2, 0], [0, 1]),
                                     ((3, 1, 0), (0, 1, 2))])
def test_moveaxis_sequences(src, dst, dev):
    a = make("float32", (2, 3, 4, 5), 10)
    assert_same(lazycl.moveaxis(lz(a, dev), src, dst), np.moveaxis(a, src, dst))


def test_moveaxis_errors():
    x = lazycl.zeros((2, 3))
    with pytest.raises(ValueError, match="same number of elements"):
        lazycl.moveaxis(x, (0, 1), (0,))
    with pytest.raises(ValueError, match="repeated axis"):
        lazycl.moveaxis(x, (0, 0), (0, 1))
    with pytest.raises(np.exceptions.AxisError):
        lazycl.moveaxis(x, 2, 0)


# ---- 0-d masks: x[True], x[False], x[lazycl.asarray(True)] ------------------------------------

@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_scalar_mask_getitem(dtype, dev):
    for shape in ((), (3,), (2, 0), (2, 3)):
        a = make(dtype, shape, 11)
        for k in (True, False, np.True_, np.False_, np.array(True), np.array(False)):
            x = lz(a, dev)
            key = lz(k, dev) if isinstance(k, np.ndarray) else k
            got = x[key]
            assert_same(got, a[k])
            if got.size:                                # a copy, as NumPy's advanced indexing
                got[(0,) * got.ndim] = a.flat[0] if a.size > 1 else 0
                assert_same(x, a)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_scalar_mask_setitem(dtype, dev):
    for shape in ((), (3,), (2, 3)):
        a = make(dtype, shape, 12)
        for k in (True, False, np.True_, np.array(True), np.array(False)):
            for v in (make(dtype, (), 13)[()], make(dtype, (1,), 14),
                      make(dtype, shape[-1:], 15)):
                ref, x = a.copy(), lz(a, dev)
                ref[k] = v
                x[lz(k, dev) if isinstance(k, np.ndarray) else k] = v
                assert_same(x, ref)
        with pytest.raises(ValueError, match="could not broadcast"):
            lz(a, dev)[True] = make(dtype, (4,), 16)


MIXED_SCALAR_MASKS = [(0, True), (True, 0), (0, False), (Ellipsis, True), (1, slice(None), True),
                      (np.True_, 1), (True, True), (slice(None), False, 2), (None, 0, True),
                      (np.array([True, False, True]), True), (slice(1, None), np.array(True)),
                      (-1, slice(None, None, -2), False)]


@pytest.mark.parametrize("key", MIXED_SCALAR_MASKS, ids=str)
def test_scalar_mask_among_other_keys(key, dev):
    # NumPy: a 0-d mask among other keys adds an axis of length 1 or 0, indexed as an advanced
    # index (x[0, True] is (1, 4); non-adjacent advanced indices put their dims first).
    a = make("float32", (3, 4), 17)
    k = tuple(lz(v, dev) if isinstance(v, np.ndarray) and v.ndim == 0 else v for v in key)
    assert_same(lz(a, dev)[k], a[key])
    ref, x = a.copy(), lz(a, dev)
    ref[key] = -1
    x[k] = -1
    assert_same(x, ref)


# ---- more the suite found with 25 examples ----------------------------------------------------

@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_eye_far_diagonals(dtype, dev):
    for n, m in ((0, None), (3, None), (2, 5), (4, 1)):
        for k in (0, 1, -1, 4, -4, 2**63, -2**63 - 1, 2**70, -2**70):
            assert_same(lazycl.eye(n, m, k=k, dtype=dtype, device=dev),
                        np.eye(n, m, k=k, dtype=dtype))
    with pytest.raises(TypeError):
        lazycl.eye(2, k=1.5)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float32", "float64"])
def test_take_along_axis_default_axis(dtype, dev):
    a = make(dtype, (3, 4), 17)[:, ::-1]
    i = np.array([[0, 3, -1], [1, 1, 2], [2, 0, -4]])
    assert_same(lazycl.take_along_axis(lz(a, dev), lz(i, dev)), np.take_along_axis(a, i))
    assert_same(lazycl.take_along_axis(lz(a, dev), lz(i[:2, :1], dev), axis=0),
                np.take_along_axis(a, i[:2, :1], axis=0))


@pytest.mark.parametrize("fn", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_logaddexp_python_scalars_keep_dtype(fn, dtype, dev):
    """NEP 50: a Python scalar takes the array's float dtype, on either side (found by the
    array API suite with 100 examples: float32 with a scalar gave float64)."""
    a = np.array([1.0, -np.inf, np.inf, 0.5, np.nan], dtype)
    x = lz(a, dev)
    for s in (1.0, -np.inf, 2, np.inf):
        with np.errstate(invalid="ignore"):
            assert_same(getattr(lazycl, fn)(x, s), getattr(np, fn)(a, s), rtol=1e-6)
            assert_same(getattr(lazycl, fn)(s, x), getattr(np, fn)(s, a), rtol=1e-6)


def test_keywords_honoured():
    """ravel's order, astype's device and to_device's stream are honoured or refused, never
    ignored."""
    x = np.arange(6).reshape(2, 3)
    a = lazycl.asarray(x)
    for order in ("C", "F", "A", "K"):
        np.testing.assert_array_equal(lazycl.ravel(a, order=order).numpy(),
                                      np.ravel(x, order=order))
    np.testing.assert_array_equal(a.flatten("F").numpy(), x.flatten("F"))
    np.testing.assert_array_equal(np.ravel(a, order="F").numpy(), np.ravel(x, order="F"))
    with pytest.raises(ValueError):
        lazycl.ravel(a, order="X")
    other = [d for d in lazycl.devices() if d != a.device]
    if other:
        b = lazycl.astype(a, np.float32, device=other[0])
        assert b.device == other[0] and b.dtype == np.float32
    with pytest.raises(ValueError, match="stream"):
        a.to_device(a.device, stream=1)
