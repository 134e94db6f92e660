"""Misuse raises NumPy's exception types at build time, and the engine keeps working after each."""
import numpy as np
import pytest

import lazycl

from conftest import DEVICE_FILTERS, assert_same, make

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25
    from numpy import AxisError

I8 = make("int8", (3, 4), 1)
F4 = make("float32", (3, 4), 2)
BO = make("bool", (3, 4), 3)


def _arrays():
    return lazycl.asarray(I8), lazycl.asarray(F4), lazycl.asarray(BO)


# Each case: a function of (int8, float32, bool) arrays, run on NumPy and on lazycl.
CASES = {
    "broadcast_mismatch": lambda i, f, b: i + f[:, :3],
    "broadcast_mismatch_3d": lambda i, f, b: f.reshape(3, 4, 1) * f.reshape(1, 2, 6),
    "bool_subtract": lambda i, f, b: b - b,
    "bool_negative": lambda i, f, b: -b,
    "bool_subtract_scalar": lambda i, f, b: b - True,
    "bool_positive": lambda i, f, b: np.positive(b),
    "sign_bool": lambda i, f, b: np.sign(b),
    "invert_float": lambda i, f, b: ~f,
    "and_float": lambda i, f, b: f & i,
    "or_float_scalar": lambda i, f, b: i | 1.5,
    "xor_float": lambda i, f, b: np.bitwise_xor(f, f),
    "shift_float": lambda i, f, b: f << i,
    "shift_float_right": lambda i, f, b: i >> f,
    "shift_int64_uint64": lambda i, f, b: i.astype(np.int64) << i.astype(np.uint64),
    "neg_int_power": lambda i, f, b: i ** -1,
    "neg_int_power_func": lambda i, f, b: np.power(i, -2),
    "int_overflow_scalar": lambda i, f, b: i + 300,
    "int_overflow_scalar_neg": lambda i, f, b: i * -200,
    "too_many_indices": lambda i, f, b: f[0, 0, 0],
    "index_out_of_bounds": lambda i, f, b: f[3],
    "index_out_of_bounds_neg": lambda i, f, b: f[:, -5],
    "bad_index_type": lambda i, f, b: f["a"],
    "reshape_mismatch": lambda i, f, b: f.reshape(5, 3),
    "reshape_two_unknown": lambda i, f, b: f.reshape(-1, -1),
    "transpose_bad_axes": lambda i, f, b: f.transpose(0, 5),
    "transpose_func_bad_axes": lambda i, f, b: np.transpose(f, (0, 5)),
    "transpose_repeated": lambda i, f, b: f.transpose(1, 1),
    "transpose_wrong_len": lambda i, f, b: f.transpose(1, 0, 2),
    "squeeze_not_one": lambda i, f, b: np.squeeze(f, axis=0),
    "expand_dims_bad": lambda i, f, b: np.expand_dims(f, 5),
    "truth_value": lambda i, f, b: bool(f),
    "float_of_array": lambda i, f, b: float(f),
    "index_of_float": lambda i, f, b: list(range(10))[f[0, 0]],
    "len_0d": lambda i, f, b: len(f[0, 0]),
    "iter_0d": lambda i, f, b: iter(f[0, 0]).__next__(),
    "astype_string": lambda i, f, b: f.astype("not-a-dtype"),
    "where_mismatch": lambda i, f, b: np.where(b, f, f[:2]),
    "hash": lambda i, f, b: hash(f),
}

def _numpy_exc(name):
    """The type NumPy raises, or its nearest public base (UFuncTypeError -> TypeError)."""
    with pytest.raises(Exception) as info:
        CASES[name](I8, F4, BO)
    for t in type(info.value).__mro__:
        if t.__module__ in ("builtins", "numpy.exceptions"):
            return t
    raise AssertionError(type(info.value))


@pytest.mark.parametrize("name", list(CASES))
def test_error_type_matches_numpy(name):
    exc = _numpy_exc(name)
    if name == "hash":
        exc = TypeError
    i, f, b = _arrays()
    with pytest.raises(exc):
        CASES[name](i, f, b)
    # Nothing was left half-built: the engine still computes.
    assert_same((f * 2 + i).astype(np.float64), (F4 * 2 + I8).astype(np.float64))


@pytest.mark.parametrize("name", ["transpose_bad_axes", "transpose_func_bad_axes",
                                  "expand_dims_bad"])
def test_axis_errors_are_axis_error(name):
    assert issubclass(_numpy_exc(name), AxisError)
    with pytest.raises(AxisError):
        CASES[name](*_arrays())


def test_error_messages_like_numpy():
    i, f, b = _arrays()
    with pytest.raises(ValueError, match=r"operands could not be broadcast together"):
        f + f[:, :2]
    with pytest.raises(TypeError, match=r"boolean subtract"):
        b - b
    with pytest.raises(ValueError, match=r"Integers to negative integer powers"):
        i ** -1
    with pytest.raises(ValueError, match=r"cannot reshape array of size 12 into shape"):
        f.reshape(5, 3)
    with pytest.raises(IndexError, match=r"too many indices"):
        f[0, 0, 0]
    with pytest.raises(IndexError, match=r"out of bounds"):
        f[7]
    with pytest.raises(OverflowError, match=r"out of bounds for int8"):
        i + 300


def test_bad_dtype_names():
    for bad in ("float16", "complex256", "U4", "object", "nonsense"):
        with pytest.raises(TypeError):
            lazycl.zeros(3, dtype=bad)
        with pytest.raises(TypeError):
            lazycl.asarray(np.arange(3)).astype(bad)
        with pytest.raises(TypeError):
            lazycl.asarray([1, 2], dtype=bad)


def test_writes_and_out():
    f = lazycl.asarray(F4)
    f[0] = 1
    h = F4.copy()
    h[0] = 1
    np.testing.assert_array_equal(np.asarray(f), h)
    out = np.empty((3, 4), np.float32)
    assert np.add(f, f, out=out) is out                # a NumPy out= gets the result
    np.testing.assert_array_equal(out, h + h)
    with pytest.raises(TypeError, match="same_kind"):
        np.add(f, f, out=lazycl.zeros((3, 4), dtype=np.int32))


def test_many_errors_then_work():
    i, f, b = _arrays()
    for _ in range(50):
        for name in ("broadcast_mismatch", "bool_subtract", "neg_int_power", "too_many_indices"):
            with pytest.raises((ValueError, TypeError, IndexError)):
                CASES[name](i, f, b)
    assert_same(lazycl.sqrt(f * f), np.sqrt(F4 * F4), 3e-7)


# ---- mixing devices --------------------------------------------------------------------

two_devices = pytest.mark.skipif(len(set(DEVICE_FILTERS)) < 2,
                                 reason="needs two OpenCL devices (e.g. pocl:cpu and intel:cpu)")


@two_devices
def test_mixing_devices_raises_placement_error():
    d0, d1 = DEVICE_FILTERS[0], DEVICE_FILTERS[1]
    a = lazycl.asarray(F4, device=d0)
    b = lazycl.asarray(F4, device=d1)
    assert issubclass(lazycl.PlacementError, ValueError)
    for f in (lambda: a + b, lambda: b * a, lambda: lazycl.maximum(a, b),
              lambda: lazycl.where(a > 0, a, b), lambda: lazycl.where(b > 0, a, 1.0),
              lambda: (a + 1) - (b * 2), lambda: lazycl.asarray(a, device=d1)):
        with pytest.raises(lazycl.PlacementError):
            f()
    # Both devices keep working, and to_device is the explicit copy.
    assert_same(a + 1, F4 + 1)
    assert_same(b + 1, F4 + 1)
    c = (a * 2).to_device(d1)
    assert c.device == lazycl.Device(d1)
    assert_same(c + b, F4 * 2 + F4)


@two_devices
def test_placement_error_names_both_devices():
    d0, d1 = DEVICE_FILTERS[0], DEVICE_FILTERS[1]
    a = lazycl.asarray(F4, device=d0)
    b = lazycl.asarray(F4, device=d1)
    with pytest.raises(lazycl.PlacementError) as info:
        a + b
    msg = str(info.value)
    assert d0.split(":")[0] in msg and d1.split(":")[0] in msg
