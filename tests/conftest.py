"""Shared pytest helpers: the devices to run on, dtypes, deterministic test data, comparisons,
and the split between `make test` and `make test-full`.

`make test` runs a representative part of the exhaustive dtype x shape x axis matrices; `make
test-full` (LAZYCL_TEST_FULL=1) runs all of them. A parameter value given through `core()`, or
a test marked `@pytest.mark.full`, belongs to the full run only: without LAZYCL_TEST_FULL it is
deselected (pytest's summary counts it), never dropped. The child pytests of
test_gpu_schedules.py inherit the variable, so they make the same choice.

LAZYCL_TEST_SHARD=K/N runs the K-th of N shards (1 <= K <= N) of whatever else was selected:
a test belongs to shard crc32(node id) % N + 1, the same on every run and machine that
collects the same tests, so the N shards together run each test once
(benchmarks/gpu/run.sh's `tests K/N`)."""
import importlib.util
import os
import re
import sys
import zlib

# No GEMM autotune in the suite (and its child processes): which of the candidate kernels a
# large product runs would otherwise depend on timings. test_autotune.py's children turn it on,
# and check every candidate against NumPy.
os.environ.setdefault("LAZYCL_AUTOTUNE", "0")

import numpy as np
import pytest

import lazycl

DEVICES = lazycl.devices()
#: "platform:type" filter strings, one per listed device ('pocl:cpu', 'intel:cpu', ...).
DEVICE_FILTERS = [":".join(d.filter_string.split(":")[:2]) for d in DEVICES]

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOAT_DTYPES = ["float32", "float64"]
ALL_DTYPES = ["bool"] + INT_DTYPES + FLOAT_DTYPES
#: The part of ALL_DTYPES that `make test` runs where a test takes core(ALL_DTYPES): every kind
#: (bool, signed, unsigned, float), and the widths 8, 16, 32 (float32) and 64 bits.
CORE_DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64"]
#: One dtype per width (8, 16, 32, 64 bits), for kernels that only move elements (copies,
#: gathers, masks, index maps, DLPack): there the width is all the dtype changes.
WIDTH_DTYPES = ["bool", "uint16", "float32", "int64"]
#: On a CPU device other than the default one (a second CPU runtime: the same schedules,
#: another compiler), `make test` runs the cases of a test's dtype parameter in these dtypes
#: only (int64 left them on 2026-11-28, for the 25 minutes on a Zen 3 host). The default
#: device (LAZYCL_DEVICE) and any GPU get every case of `make test`.
OTHER_DEVICE_DTYPES = ["float32", "complex64"]
#: Under LAZYCL_SCHEDULE=gpu on a CPU device (test_gpu_schedules.py's child runs: GPU-shaped
#: kernels on PoCL, standing in for the GPU that CI lacks), `make test` runs the cases of a
#: test's dtype parameter in these dtypes only: a signed 8-byte integer, float32 and complex64.
#: The GPU machine's runs and `make test-full` take them all (bool, uint16 and float64 left
#: these on 2026-11-28 to keep `make test` within 25 minutes on a Zen 3 host,
#: docs/testing.md).
GPU_SCHEDULE_DTYPES = ["int64", "float32", "complex64"]
#: The names a test gives its device and dtype parameters.
_DEVICE_PARAMS = ("dev", "device")
_DTYPE_PARAMS = ("dtype", "dt", "xdtype", "wdtype", "src", "idt")

#: True under `make test-full` (LAZYCL_TEST_FULL set, and not "0").
FULL = os.environ.get("LAZYCL_TEST_FULL", "0") not in ("", "0")


def _shard():
    """(K, N) from LAZYCL_TEST_SHARD=K/N, or None."""
    v = os.environ.get("LAZYCL_TEST_SHARD", "")
    if not v:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", v)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise pytest.UsageError(f"LAZYCL_TEST_SHARD={v!r}: expected K/N with 1 <= K <= N")
    return int(m.group(1)), int(m.group(2))


def _key(v):
    """A dtype-like value by its name (np.float32 and "float32" alike), anything else as is."""
    if isinstance(v, (str, type, np.dtype)):
        try:
            return np.dtype(v).name
        except TypeError:
            pass
    return v


def core(values, keep=CORE_DTYPES):
    """values for pytest.mark.parametrize, those not in keep marked `full` (run by `make
    test-full` only); dtypes compare by name."""
    keep = [_key(k) for k in keep]
    return [v if _key(v) in keep else pytest.param(v, marks=pytest.mark.full) for v in values]


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


def _case(item, default=None):
    """item's parameters, and its device's "platform:type" (the device parameter's, else
    `default`'s; None without either)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    return params, _devname(next((params[p] for p in _DEVICE_PARAMS if p in params), default))


def _dtypes_outside(params, keep):
    """Whether some dtype parameter of a case is not in keep."""
    return any(_key(params[p]) not in keep for p in _DTYPE_PARAMS if p in params)


def _other_device_dtype(item):
    """Whether item runs on a CPU device other than the default one in a dtype outside
    OTHER_DEVICE_DTYPES (make test-full only)."""
    params, name = _case(item)
    if name is None or not name.endswith(":cpu") or name == _devname(lazycl.default_device()):
        return False
    return _dtypes_outside(params, OTHER_DEVICE_DTYPES)


def _gpu_schedule_dtype(item):
    """Whether item runs GPU-shaped kernels on a CPU device (LAZYCL_SCHEDULE=gpu) in a dtype
    outside GPU_SCHEDULE_DTYPES (make test-full only); a test without a device parameter runs
    on the default device."""
    if os.environ.get("LAZYCL_SCHEDULE") != "gpu":
        return False
    params, name = _case(item, lazycl.default_device())
    if name is None or not name.endswith(":cpu"):
        return False
    return _dtypes_outside(params, GPU_SCHEDULE_DTYPES)


def _devname(d):
    """A device parameter (a lazycl.Device or a filter string) as "platform:type", else None."""
    s = d if isinstance(d, str) else getattr(d, "filter_string", None)
    return ":".join(s.split(":")[:2]) if isinstance(s, str) else None


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "full: part of the exhaustive matrices, run by `make test-full` "
        "(LAZYCL_TEST_FULL=1) only")


def pytest_collection_modifyitems(config, items):
    """A test module may list KNOWN_BUGS = [(test name or name[param], reason)]: those tests
    are strict xfails, so they fail loudly once the bug is fixed. Tests marked `full` are
    deselected unless LAZYCL_TEST_FULL is set, and those of other shards under
    LAZYCL_TEST_SHARD."""
    for item in items:
        for pattern, reason in getattr(item.module, "KNOWN_BUGS", ()):
            if item.name == pattern or (pattern.endswith("]") is False and
                                        item.name.split("[")[0] == pattern):
                item.add_marker(pytest.mark.xfail(strict=True, reason=reason))
    shard = _shard()
    keep, left = [], []
    for item in items:
        out = not FULL and (item.get_closest_marker("full") is not None or
                            _other_device_dtype(item) or _gpu_schedule_dtype(item))
        if shard and not out:
            out = zlib.crc32(item.nodeid.encode()) % shard[1] != shard[0] - 1
        (left if out else keep).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = keep


@pytest.fixture(params=DEVICE_FILTERS)
def device(request):
    """Each listed device in turn, as a filter string."""
    return request.param


@pytest.fixture(params=DEVICES, ids=[d.filter_string for d in DEVICES])
def dev(request):
    """Each listed device in turn, as a lazycl.Device (a test module may define its own)."""
    return request.param


def lz(a, dev):
    """A copy of a on device dev: lazycl.asarray would share a NumPy array's memory on a CPU
    device, and a test's writes through it would change its own NumPy reference."""
    return lazycl.asarray(a, device=dev, copy=True)


#: The benchmark scripts' folder (benchmarks/), for the tests of the suite itself.
BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")


def load_bench(name):
    """benchmarks/<name>.py as a module; its own imports (timing, workloads, ...) resolve
    beside it."""
    if BENCH not in sys.path:
        sys.path.insert(0, BENCH)
    spec = importlib.util.spec_from_file_location("bench_" + name, os.path.join(BENCH, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
