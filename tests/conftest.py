"""Shared pytest helpers: the devices to run on, dtypes, deterministic test data, comparisons."""
import numpy as np
import pytest

import lazycl

DEVICES = lazycl.devices()
#: "platform:type" filter strings, one per listed device ('pocl:cpu', 'intel:cpu', ...).
DEVICE_FILTERS = [":".join(d.filter_string.split(":")[:2]) for d in DEVICES]

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOAT_DTYPES = ["float32", "float64"]
ALL_DTYPES = ["bool"] + INT_DTYPES + FLOAT_DTYPES


def make(dtype, shape, seed=0, lo=None, hi=None):
    """Deterministic data of `dtype` and `shape`: small signed values, floats with fractions."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    shape = tuple(shape) if not isinstance(shape, int) else (shape,)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo = max(info.min, -100 if lo is None else lo)
        hi = min(info.max, 100 if hi is None else hi)
        return rng.integers(lo, hi, shape, endpoint=True).astype(dtype)
    lo = -4.0 if lo is None else lo
    hi = 4.0 if hi is None else hi
    return rng.uniform(lo, hi, shape).astype(dtype)


def assert_same(got, ref, rtol=0.0, atol=0.0, dtype=None):
    """`got` (a lazycl array or NumPy array) equals `ref` in shape, dtype (or `dtype`) and
    values: exactly unless a tolerance is given; NaNs must match NaNs."""
    if isinstance(got, lazycl.Array):
        got = got.numpy()
    ref = np.asarray(ref)
    want = np.dtype(dtype) if dtype is not None else ref.dtype
    assert got.dtype == want, f"dtype {got.dtype}, expected {want}"
    assert got.shape == ref.shape, f"shape {got.shape}, expected {ref.shape}"
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(got, ref.astype(want))
    else:
        np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=rtol,
                                   atol=atol, equal_nan=True)


def pytest_collection_modifyitems(items):
    """A test module may list KNOWN_BUGS = [(test name or name[param], reason)]: those tests
    are strict xfails, so they fail loudly once the bug is fixed."""
    for item in items:
        for pattern, reason in getattr(item.module, "KNOWN_BUGS", ()):
            if item.name == pattern or (pattern.endswith("]") is False and
                                        item.name.split("[")[0] == pattern):
                item.add_marker(pytest.mark.xfail(strict=True, reason=reason))


@pytest.fixture(params=DEVICE_FILTERS)
def device(request):
    """Each listed device in turn, as a filter string."""
    return request.param


@pytest.fixture(params=DEVICES, ids=[d.filter_string for d in DEVICES])
def dev(request):
    """Each listed device in turn, as a lazycl.Device (a test module may define its own)."""
    return request.param


def lz(a, dev):
    """a on device dev."""
    return lazycl.asarray(a, device=dev)
