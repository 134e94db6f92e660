"""Builds through SPIR-V (clang-15 + llvm-spirv-15 + clCreateProgramWithIL) and LAZYCL_BUILD.
LAZYCL_BUILD=auto takes SPIR-V on GPUs that take it; a CPU driver that takes it (Intel's) builds
from source under auto (faster: runtime/program.c), so its SPIR-V builds are asked for."""
import shutil
import subprocess

import pytest

import lazycl
from kernel_build import (build, check_auto_mode_falls_back, check_disk_cache,
                          check_strict_mode_error)

SPIRV_DEVICES = [d for d in lazycl.devices() if d.takes_spirv]
#: The devices LAZYCL_BUILD=auto sends through SPIR-V: GPUs (and accelerators) that take it.
AUTO_SPIRV_DEVICES = [d for d in SPIRV_DEVICES if d.type != "cpu"]
CPU_SPIRV_DEVICES = [d for d in SPIRV_DEVICES if d.type == "cpu"]


def spirv(dev):
    """The environment that builds through SPIR-V on dev: auto's, or LAZYCL_BUILD=spirv on a
    CPU device (auto builds those from source)."""
    return {"LAZYCL_BUILD": "spirv"} if dev.type == "cpu" else {}


TOOLS = shutil.which("clang-15") and shutil.which("llvm-spirv-15")

pytestmark = [
    pytest.mark.skipif(not SPIRV_DEVICES,
                       reason="no OpenCL device lists SPIR-V in CL_DEVICE_IL_VERSION (PoCL here takes "
                              "none; pip install intel-opencl-rt and register its libintelocl.so)"),
    pytest.mark.skipif(not TOOLS, reason="clang-15 and llvm-spirv-15 are not both on PATH"),
]

SRC = """/* test_spirv kernel */
__kernel void lc_spirv_axpy(__global const float *restrict x, __global float *restrict y,
                            const float a, const uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
"""

SRC_FP64 = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void lc_spirv_f64(__global double *restrict y, const double a)
{
    size_t i = get_global_id(0);
    y[i] = sqrt(y[i]) * a;
}
"""



@pytest.fixture(params=SPIRV_DEVICES, ids=lambda d: d.filter_string)
def dev(request):
    return request.param


def test_spirv_build_and_dump(dev, tmp_path):
    dump = tmp_path / "dump"
    s, _ = build(dev, SRC, "lc_spirv_axpy", LAZYCL_DUMP=str(dump), **spirv(dev))
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1
    assert s["spirv_builds"] == 1
    assert (dump / "lc_spirv_axpy.cl").read_text() == SRC
    spv = dump / "lc_spirv_axpy.spv"
    data = spv.read_bytes()
    assert data[:4] == b"\x03\x02\x23\x07"   # the SPIR-V magic number, little-endian
    val = shutil.which("spirv-val")
    if not val:
        pytest.skip("spirv-val (spirv-tools) not installed: the dump is not validated")
    r = subprocess.run([val, str(spv)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_spirv_fp64(dev, tmp_path):
    if not dev.fp64:
        pytest.skip("device has no fp64")
    s, _ = build(dev, SRC_FP64, "lc_spirv_f64", LAZYCL_DUMP=str(tmp_path), **spirv(dev))
    assert "error" not in s, s
    assert s["spirv_builds"] == 1
    if shutil.which("spirv-val"):
        r = subprocess.run(["spirv-val", str(tmp_path / "lc_spirv_f64.spv")], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr


def test_spirv_options_pass_through(dev):
    s, _ = build(dev, "__kernel void lc_spirv_def(__global int *a) { a[0] = VALUE; }\n", "lc_spirv_def",
                 "-DVALUE=3 -cl-fast-relaxed-math -cl-mad-enable", **spirv(dev))
    assert "error" not in s, s
    assert s["spirv_builds"] == 1


def test_build_source_mode(dev):
    s, _ = build(dev, SRC, "lc_spirv_axpy", LAZYCL_BUILD="source")
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1 and s["spirv_builds"] == 0


def test_build_spirv_mode(dev):
    s, _ = build(dev, SRC, "lc_spirv_axpy", LAZYCL_BUILD="spirv")
    assert "error" not in s, s
    assert s["spirv_builds"] == 1


def test_bad_build_mode(dev):
    s, _ = build(dev, SRC, "lc_spirv_axpy", LAZYCL_BUILD="fast")
    assert s["error"] == "ValueError"
    assert "LAZYCL_BUILD" in s["text"] and "fast" in s["text"]


@pytest.mark.parametrize("cpu", CPU_SPIRV_DEVICES, ids=lambda d: d.filter_string)
def test_auto_mode_builds_cpu_drivers_from_source(cpu, tmp_path):
    """LAZYCL_BUILD=auto on a CPU driver that takes SPIR-V: the driver's compiler, from source
    (no clang process), and the kernel runs."""
    s, _ = build(cpu, SRC, "lc_spirv_axpy", LAZYCL_DUMP=str(tmp_path))
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1 and s["spirv_builds"] == 0
    assert not list(tmp_path.glob("*.spv"))


@pytest.mark.parametrize("dev", AUTO_SPIRV_DEVICES, ids=lambda d: d.filter_string)
def test_missing_tools_fall_back_in_auto_mode(dev):
    s, err = build(dev, SRC, "lc_spirv_axpy", LAZYCL_CLANG="/nonexistent/clang-15", LAZYCL_DEBUG="1")
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1 and s["spirv_builds"] == 0
    assert "SPIR-V tools not usable" in err


def test_missing_tools_are_an_error_in_spirv_mode(dev):
    s, _ = build(dev, SRC, "lc_spirv_axpy", LAZYCL_BUILD="spirv", LAZYCL_LLVM_SPIRV="/nonexistent/llvm-spirv")
    assert s["error"] == "CompileError"
    assert "LAZYCL_BUILD=spirv" in s["text"]


def test_clang_error_in_spirv_mode_has_log(dev):
    check_strict_mode_error(dev, "spirv", "build log")


@pytest.mark.parametrize("dev", AUTO_SPIRV_DEVICES, ids=lambda d: d.filter_string)
def test_clang_error_in_auto_mode_falls_back_to_driver_log(dev):
    check_auto_mode_falls_back(dev, "SPIR-V")


def test_spirv_disk_cache(dev, tmp_path):
    check_disk_cache(dev, SRC, "lc_spirv_axpy", "spirv_builds", tmp_path, **spirv(dev))


def test_spirv_kernel_runs(dev):
    # The benchmark's copy kernel is built (through SPIR-V on a GPU) and launched.
    from lazycl import _lazycl
    lazycl.reset_stats()
    r = _lazycl._runtime_bench(dev, 1 << 16, 2)
    assert r["d2d_kernel_GBps"] > 0
