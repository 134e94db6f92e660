"""Devices and queues: discovery, properties, filter strings, LAZYCL_DEVICE, stats."""
import os
import subprocess
import sys

import numpy as np
import pytest

import lazycl

DEVICES = lazycl.devices()
TYPES = {"cpu", "gpu", "accelerator", "other"}
STAT_KEYS = {
    "kernels_compiled", "memory_cache_hits", "disk_cache_hits", "launches", "buffers_allocated",
    "pool_hits", "bytes_in_use", "bytes_cached", "peak_bytes", "bytes_to_device",
    "bytes_from_device", "spirv_builds", "spir_builds", "plan_hits", "plan_misses",
    "gemm_tunings",
}


def run_py(code, **env):
    """Run `code` in a fresh interpreter with extra environment; return the CompletedProcess."""
    full = dict(os.environ)
    for k, v in env.items():
        if v is None:
            full.pop(k, None)
        else:
            full[k] = v
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True,
                          timeout=120)


def test_devices_listed():
    assert len(DEVICES) >= 1
    assert all(isinstance(d, lazycl.Device) for d in DEVICES)
    # One object per device: listing twice gives the same objects.
    assert all(a is b for a, b in zip(DEVICES, lazycl.devices()))


@pytest.mark.parametrize("d", DEVICES, ids=lambda d: d.filter_string)
def test_device_properties(d):
    for attr in ("name", "vendor", "platform_name", "platform_version", "driver_version",
                 "opencl_c_version", "il_version", "filter_string"):
        assert isinstance(getattr(d, attr), str), attr
    assert d.name and d.platform_name
    assert d.platform_version.startswith("OpenCL")
    assert d.type in TYPES
    assert isinstance(d.fp64, bool) and isinstance(d.takes_spirv, bool)
    assert d.takes_spirv == ("SPIR-V" in d.il_version)
    assert d.compute_units >= 1
    assert d.global_mem > 0
    assert 0 < d.max_alloc <= d.global_mem
    assert d.local_mem > 0
    assert d.max_work_group_size >= 1
    widths = d.preferred_vector_widths
    assert set(widths) == {"char", "short", "int", "long", "float", "double"}
    assert widths["float"] >= 1
    if not d.fp64:
        assert widths["double"] == 0
    r = repr(d)
    assert r.startswith("<lazycl.Device '") and d.filter_string in r and d.name in r
    assert f"{d.compute_units} CU" in r


@pytest.mark.parametrize("d", DEVICES, ids=lambda d: d.filter_string)
def test_filter_string_round_trip(d):
    assert lazycl.Device(d.filter_string) is d
    assert lazycl.Device(d.filter_string.upper()) is d
    assert d == lazycl.Device(d.filter_string)
    assert hash(d) == hash(lazycl.Device(d.filter_string))
    assert len({d, lazycl.Device(d.filter_string)}) == 1


def test_distinct_devices_differ():
    assert len(set(DEVICES)) == len(DEVICES)
    if len(DEVICES) > 1:
        assert DEVICES[0] != DEVICES[1]
    assert DEVICES[0] != "cpu"


def test_type_selection():
    for t in ("cpu", "gpu", "accelerator"):
        of_type = [d for d in DEVICES if d.type == t]
        if not of_type:
            continue
        assert lazycl.Device(t) is of_type[0]
        for i, d in enumerate(of_type):
            assert lazycl.Device(f"{t}:{i}") is d
    assert lazycl.Device("all:0") is DEVICES[0]
    assert lazycl.Device("*") is DEVICES[0]
    assert lazycl.Device("any:%d" % (len(DEVICES) - 1)) is DEVICES[-1]
    if any(d.type == "accelerator" for d in DEVICES):
        assert lazycl.Device("accel").type == "accelerator"


@pytest.mark.parametrize("d", DEVICES, ids=lambda d: d.filter_string)
def test_platform_substring(d):
    # A lower-cased piece of the platform name picks a device of that platform.
    words = [w for w in d.platform_name.replace("(R)", " ").split() if len(w) >= 3]
    piece = words[0][:5].lower()
    got = lazycl.Device(f"{piece}:{d.type}")
    assert piece in got.platform_name.lower() or piece in got.vendor.lower()
    same = [x for x in DEVICES if x.type == d.type and piece in x.platform_name.lower()]
    assert got is same[0]
    # Upper case matches too.
    assert lazycl.Device(f"{piece.upper()}:{d.type}:0") is got


def test_pocl_and_intel_names():
    pocl = [d for d in DEVICES if "portable computing language" in d.platform_name.lower()]
    if pocl:
        assert lazycl.Device("pocl:cpu") is pocl[0]
        assert pocl[0].filter_string.startswith("pocl:")
    intel = [d for d in DEVICES if "intel" in d.platform_name.lower() and d.type == "cpu"]
    if intel:
        assert lazycl.Device("intel:cpu") is intel[0]
        assert intel[0].filter_string == "intel:cpu:0"
    if not pocl and not intel:
        pytest.skip("neither PoCL nor the Intel CPU runtime is installed")


@pytest.mark.parametrize("bad", ["tpu", "pocl", "", "gpu:", "cpu:x", "a:b:c:d", "cpu:-1"])
def test_bad_filter_strings(bad):
    with pytest.raises(ValueError) as ei:
        lazycl.Device(bad)
    assert "[platform:]type[:index]" in str(ei.value)


@pytest.mark.parametrize("bad", ["cpu:99", "nosuchplatform:cpu", "accelerator:7"])
def test_no_match_lists_devices(bad):
    if bad.startswith("accelerator") and any(d.type == "accelerator" for d in DEVICES):
        bad = "accelerator:99"
    with pytest.raises(ValueError) as ei:
        lazycl.Device(bad)
    msg = str(ei.value)
    assert bad in msg
    for d in DEVICES:
        assert d.filter_string in msg and d.name in msg


def test_device_ctor_types():
    with pytest.raises(TypeError):
        lazycl.Device(3)
    with pytest.raises(TypeError):
        lazycl.Device()


def test_default_device():
    d = lazycl.default_device()
    assert d in DEVICES
    if "LAZYCL_DEVICE" in os.environ:
        return
    gpus = [x for x in DEVICES if x.type == "gpu"]
    cpus = [x for x in DEVICES if x.type == "cpu"]
    assert d is (gpus or cpus or DEVICES)[0]


@pytest.mark.parametrize("d", DEVICES, ids=lambda d: d.filter_string)
def test_lazycl_device_env(d):
    r = run_py("import lazycl; print(lazycl.default_device().filter_string)",
               LAZYCL_DEVICE=d.filter_string)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == d.filter_string


def test_lazycl_device_env_unset_and_bad():
    r = run_py("import lazycl; print(lazycl.default_device().filter_string)", LAZYCL_DEVICE=None)
    assert r.returncode == 0, r.stderr
    gpus = [x for x in DEVICES if x.type == "gpu"]
    cpus = [x for x in DEVICES if x.type == "cpu"]
    assert r.stdout.strip() == (gpus or cpus or DEVICES)[0].filter_string

    code = ("import lazycl\n"
            "try:\n    lazycl.default_device()\n"
            "except ValueError as e:\n    print('ValueError:', e)\n")
    r = run_py(code, LAZYCL_DEVICE="nosuchplatform:gpu:3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ValueError:")
    assert "LAZYCL_DEVICE" in r.stdout and DEVICES[0].filter_string in r.stdout


def test_lazycl_debug_lists_devices():
    r = run_py("import lazycl; lazycl.devices()", LAZYCL_DEBUG="1")
    assert r.returncode == 0, r.stderr
    for d in DEVICES:
        assert d.filter_string in r.stderr


def test_queues():
    q = lazycl.Queue()
    assert isinstance(q, lazycl.Queue)
    assert q.device is lazycl.default_device()
    assert q.profiling is False
    q.finish()
    for d in DEVICES:
        for arg in (d, d.filter_string):
            q = lazycl.Queue(arg, profiling=True)
            assert q.device is d and q.profiling is True
            q.finish()
            assert d.filter_string in repr(q) and "profiling" in repr(q)
        q2 = lazycl.Queue(device=q)
        assert q2.device is d and q2 is not q
    with pytest.raises(TypeError):
        lazycl.Queue(3.5)
    with pytest.raises(ValueError) as ei:
        lazycl.Queue("nosuchplatform:cpu")
    assert DEVICES[0].filter_string in str(ei.value)


def test_queue_many():
    # Queues come and go without leaking or crashing.
    for _ in range(200):
        lazycl.Queue(DEVICES[0]).finish()


def test_stats():
    s = lazycl.stats()
    assert STAT_KEYS <= set(s)
    assert all(isinstance(v, int) and v >= 0 for v in s.values())
    lazycl.reset_stats()
    s = lazycl.stats()
    assert s["kernels_compiled"] == 0 and s["launches"] == 0
    assert s["peak_bytes"] == s["bytes_in_use"]


def test_runtime_bench_small():
    from lazycl import _lazycl
    lazycl.reset_stats()
    for d in DEVICES:
        r = _lazycl._runtime_bench(d, 1 << 16, 3)
        for k in ("d2d_GBps", "d2d_kernel_GBps", "h2d_GBps", "d2h_GBps", "launch_us"):
            assert r[k] > 0, k
    s = lazycl.stats()
    assert s["launches"] > 0
    assert s["bytes_to_device"] >= 3 * (1 << 16)
    assert s["pool_hits"] + s["buffers_allocated"] >= 2 * len(DEVICES)


def test_no_reference_leaks():
    import sys
    d = DEVICES[0]
    f = d.filter_string
    lazycl.Queue(d).finish()
    before = sys.getrefcount(d)
    for _ in range(1000):
        lazycl.Device(f)
        lazycl.Queue(d)
        lazycl.Queue(f, profiling=True)
        repr(d)
        d.preferred_vector_widths
        lazycl.stats()
        lazycl.devices()
    assert sys.getrefcount(d) == before


CHILD_SEES_SAME = r"""
import ctypes, subprocess, sys
import numpy as np, lazycl
libc = ctypes.CDLL(None)
libc.getenv.restype = ctypes.c_char_p
before = libc.getenv(b"OCL_ICD_FILENAMES")
mine = [d.filter_string for d in lazycl.devices()]
float(lazycl.sum(lazycl.asarray(np.ones(1000, np.float32))))
# the process environment (not Python's os.environ copy) is what children inherit
assert libc.getenv(b"OCL_ICD_FILENAMES") == before, (before, libc.getenv(b"OCL_ICD_FILENAMES"))
p = subprocess.run([sys.executable, "-c", "import lazycl; print(' '.join(d.filter_string for d in lazycl.devices()))"],
                   capture_output=True, text=True, timeout=120, env=None)
assert p.returncode == 0, p.stderr
assert p.stdout.split() == mine, (p.stdout, mine)
"""


def test_child_processes_see_the_same_devices():
    # Some ICD loaders split OCL_ICD_FILENAMES in place (strtok on getenv's string), leaving
    # children only its first driver; discovery puts the value back (runtime/device.c).
    files = os.environ.get("OCL_ICD_FILENAMES") or "libpocl.so.2:/nonexistent/libnone.so"
    p = run_py(CHILD_SEES_SAME, OCL_ICD_FILENAMES=files)
    assert p.returncode == 0, p.stderr[-2000:]


def test_schedule_override_names_every_kind():
    """LAZYCL_SCHEDULE=gpu|cpu|simd shapes kernels as for that kind on any device (read at every
    force; `make oclgrind` runs the three on Oclgrind's simulator; `pocl`, the SIMD kind's first
    name, reads as simd), and each kind's kernel still computes NumPy's answer on every device
    (on the CPUs, `gpu` and `cpu` differ from their own kind)."""
    saved = os.environ.get("LAZYCL_SCHEDULE")
    h = np.arange(1003, dtype=np.float32)
    try:
        for d in DEVICES:
            for kind in ("gpu", "cpu", "simd", "pocl"):
                os.environ["LAZYCL_SCHEDULE"] = kind
                assert d.schedule == ("simd" if kind == "pocl" else kind), (d, kind)
                x = lazycl.asarray(h, device=d)
                np.testing.assert_array_equal(np.asarray(x * 2 + 1), h * 2 + 1)
    finally:
        if saved is None:
            os.environ.pop("LAZYCL_SCHEDULE", None)
        else:
            os.environ["LAZYCL_SCHEDULE"] = saved
