"""Builds through SPIR 1.2 bitcode on PoCL (clang-15 -> clCreateProgramWithBinary "-x spir"),
LAZYCL_BUILD=spir, and its fallback to source: runtime/spirv.c, build.c, program.c."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import lazycl
from kernel_build import (build, build_env, check_auto_mode_falls_back, check_disk_cache,
                          check_strict_mode_error)

SPIR_DEVICES = [d for d in lazycl.devices() if d.takes_spir]

pytestmark = [
    pytest.mark.skipif(not SPIR_DEVICES, reason="no PoCL device lists cl_khr_spir with an LLVM version"),
    pytest.mark.skipif(not shutil.which("clang-15"), reason="clang-15 is not on PATH"),
]

SRC = """/* test_spir kernel */
__kernel void lc_spir_axpy(__global const float *restrict x, __global float *restrict y,
                           const float a, const uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
"""

# The builtins PoCL's kernel library knows only by its own names (the SPIR route's prelude).
FENCES = """__kernel void lc_spir_fences(__global int *a)
{
    a[0] = 1;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_LOCAL_MEM_FENCE);
    a[1] = 2;
}
"""



# The same expressions in two processes, one per route: their bits are compared.
EXPRS = """
import sys, numpy as np, lazycl as lc
dev = [d for d in lc.devices() if d.filter_string == sys.argv[1]][0]
rng = np.random.default_rng(7)
x = rng.standard_normal(100003).astype(np.float32)
d = rng.standard_normal((301, 257))
a = lc.asarray(x, device=dev)
b = lc.asarray(d, device=dev)
lc.reset_stats()
out = [lc.exp(lc.sin(a)) * lc.sqrt(lc.abs(a)) + a ** 3, lc.cumsum(a), a.sum(), b.std(axis=0),
       lc.sort(a), lc.argmax(b, axis=1), (b @ b.T)[:5], lc.tanh(b).mean(axis=1)]
np.savez(sys.argv[2], *[np.asarray(o) for o in out])
s = lc.stats()
print(s["kernels_compiled"], s["spir_builds"], s["disk_cache_hits"])
"""


@pytest.fixture(params=SPIR_DEVICES, ids=lambda d: d.filter_string)
def dev(request):
    return request.param


def test_spir_build_and_dump(dev, tmp_path):
    dump = tmp_path / "dump"
    s, _ = build(dev, SRC, "lc_spir_axpy", LAZYCL_DUMP=str(dump))
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1 and s["spir_builds"] == 1 and s["spirv_builds"] == 0
    assert (dump / "lc_spir_axpy.cl").read_text() == SRC
    assert (dump / "lc_spir_axpy.bc").read_bytes()[:4] == b"BC\xc0\xde"   # LLVM bitcode


def test_spir_prelude_fences(dev):
    # Without the prelude PoCL's link fails (no _Z9mem_fencej); strict mode has no fallback.
    s, _ = build(dev, FENCES, "lc_spir_fences", LAZYCL_BUILD="spir")
    assert "error" not in s, s
    assert s["spir_builds"] == 1


def test_spir_options_pass_through(dev):
    s, _ = build(dev, "__kernel void lc_spir_def(__global int *a) { a[0] = VALUE; }\n", "lc_spir_def",
                 "-DVALUE=3 -cl-fast-relaxed-math -cl-mad-enable", LAZYCL_BUILD="spir")
    assert "error" not in s, s
    assert s["spir_builds"] == 1


def test_source_mode_builds_from_source(dev):
    s, _ = build(dev, SRC, "lc_spir_axpy", LAZYCL_BUILD="source")
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1 and s["spir_builds"] == 0


def test_spirv_mode_builds_pocl_from_source(dev):
    s, _ = build(dev, SRC, "lc_spir_axpy", LAZYCL_BUILD="spirv")
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1 and s["spir_builds"] == 0 and s["spirv_builds"] == 0


def test_missing_clang_falls_back_in_auto_mode(dev):
    s, _ = build(dev, SRC, "lc_spir_axpy", LAZYCL_CLANG="/nonexistent/clang-15")
    assert "error" not in s, s
    assert s["kernels_compiled"] == 1 and s["spir_builds"] == 0


def test_missing_clang_is_an_error_in_spir_mode(dev):
    s, _ = build(dev, SRC, "lc_spir_axpy", LAZYCL_BUILD="spir", LAZYCL_CLANG="/nonexistent/clang-15")
    assert s["error"] == "CompileError"
    assert "LAZYCL_BUILD=spir" in s["text"] and "clang" in s["text"]


def test_clang_error_in_spir_mode_has_log(dev):
    check_strict_mode_error(dev, "spir", "SPIR")


def test_clang_error_in_auto_mode_falls_back_to_driver_log(dev):
    check_auto_mode_falls_back(dev, "SPIR")


def test_spir_disk_cache(dev, tmp_path):
    check_disk_cache(dev, SRC, "lc_spir_axpy", "spir_builds", tmp_path)


def _entries(cache):
    """The kinds and payloads of the kernel entries under a lazycl cache directory."""
    out = []
    for root, _, files in os.walk(cache):
        for f in files:
            if f.endswith(".bin"):
                b = open(os.path.join(root, f), "rb").read()
                assert b[:8] == b"LZCLCACH"
                out.append((int.from_bytes(b[12:16], "little"), b[48:]))
    return out


def _generic_builds(pocl_cache):
    """PoCL's generic work-group functions (its cache's 0-0-0 folders): compiled when a
    program's device binary is asked for."""
    return [r for r, dirs, _ in os.walk(pocl_cache) if os.path.basename(r) == "0-0-0"]


def test_spir_disk_entry_is_bitcode(dev, tmp_path):
    """On the SPIR route the disk keeps clang's bitcode (kind 2), and PoCL is never asked for
    a device binary, which would make it compile each kernel's generic work-group function
    (a second compile); the source route keeps PoCL's binary, and PoCL compiles it."""
    for mode, kind in (("spir", 2), ("source", 0)):
        cache, pocl = tmp_path / f"c-{mode}", tmp_path / f"p-{mode}"
        s, _ = build(dev, SRC, "lc_spir_axpy", LAZYCL_BUILD=mode, LAZYCL_CACHE="1",
                     LAZYCL_CACHE_DIR=str(cache), POCL_CACHE_DIR=str(pocl))
        assert "error" not in s, s
        entries = _entries(cache)
        assert [k for k, _ in entries] == [kind], (mode, entries)
        if mode == "spir":
            assert entries[0][1][:4] == b"BC\xc0\xde"
            assert not _generic_builds(pocl)
        else:
            assert _generic_builds(pocl)


def test_routes_agree_bit_for_bit(dev, tmp_path):
    """Maps, scans, reductions, a sort, an argmax and a product: the SPIR route's kernels
    give the source route's bits (FP_CONTRACT OFF in both, no fast math)."""
    got = {}
    for mode in ("spir", "source"):
        r = subprocess.run([sys.executable, "-c", EXPRS, dev.filter_string, str(tmp_path / mode)],
                           env=build_env(LAZYCL_BUILD=mode), capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stderr[-3000:]
        compiled, spir, _ = map(int, r.stdout.split())
        assert compiled > 0 and (spir == compiled if mode == "spir" else spir == 0), (mode, r.stdout)
        got[mode] = np.load(tmp_path / f"{mode}.npz")
    for k in got["source"].files:
        a, b = got["spir"][k], got["source"][k]
        assert a.dtype == b.dtype and a.shape == b.shape, k
        assert a.tobytes() == b.tobytes(), k
