"""LAZYCL_GEMM=clblast: plain float products (operands read straight from buffers, no batch, no
epilogue) are handed to CLBlast's GEMM instead of lazycl's kernel; everything else keeps
lazycl's kernels. Run in child processes (the setting is read when a device's target is made).
CLBlast is a dependency of the setup (scripts/deps.sh installs libclblast1)."""
import os
import subprocess
import sys

import pytest

import lazycl

HERE = os.path.dirname(os.path.abspath(__file__))

CHECK = r"""
import numpy as np, lazycl as lc
rng = np.random.default_rng(0)
dev = lc.devices()[0]
for dt, tol in [(np.float32, 1e-4), (np.float64, 1e-12)]:
    a = rng.standard_normal((130, 90)).astype(dt); b = rng.standard_normal((90, 70)).astype(dt)
    c = rng.standard_normal((70, 90)).astype(dt)
    A, B, C = (lc.asarray(x, device=dev) for x in (a, b, c))
    lc.compute(A, B, C)
    for got, want in [(A @ B, a @ b), (A.T.T @ B, a @ b), (B.T @ A.T, b.T @ a.T), (A @ C.T, a @ c.T),
                      (A[5:100, 10:80] @ B[10:80, 3:], a[5:100, 10:80] @ b[10:80, 3:])]:
        assert "gemm engine: clblast (LAZYCL_GEMM=clblast)" in lc.explain(got), lc.explain(got)[:300]
        lc.reset_stats()
        r = np.asarray(got)
        assert lc.stats()["launches"] == 1
        assert np.allclose(r, want, rtol=tol, atol=tol * 100), np.abs(r - want).max()
    lc.reset_stats()
    for o in (0, 16, 32):                         # one plan: the operands' offsets bound per run
        r = np.asarray(A[o:o + 64] @ B)
        assert np.allclose(r, a[o:o + 64] @ b, rtol=tol, atol=tol * 100), o
    assert lc.stats()["plan_hits"] == 2, lc.stats()
    fused = lc.maximum(A @ B + 1, 0)              # an epilogue: lazycl's kernel
    assert "gemm engine: lazycl" in lc.explain(fused) and "gemm: CLBlast" not in lc.explain(fused)
    assert np.allclose(np.asarray(fused), np.maximum(a @ b + 1, 0), rtol=tol, atol=tol * 100)
    scaled = (A * 2) @ B                          # a producer: lazycl's kernel
    assert "gemm engine: lazycl" in lc.explain(scaled)
print("ok")
"""


def _run(args, env_extra, timeout=1500):
    env = dict(os.environ, **env_extra)
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=HERE,
                          timeout=timeout)


def test_plain_products_run_in_clblast():
    p = _run([sys.executable, "-c", CHECK], {"LAZYCL_GEMM": "clblast"})
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), p.stdout[-2000:] + p.stderr[-3000:]


def test_matmul_suite_with_clblast():
    p = _run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
              os.path.join(HERE, "test_matmul.py"), "-k", "pocl"], {"LAZYCL_GEMM": "clblast"})
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    assert " passed" in p.stdout.splitlines()[-1], p.stdout[-1000:]


GUARDED = r"""
import ctypes, mmap, sys
import numpy as np, lazycl as lc
dev = lc.Device(sys.argv[1])
n = 768
libc = ctypes.CDLL("libc.so.6", use_errno=True)
page = mmap.PAGESIZE
nbytes = n * n * 4
total = (nbytes + page - 1) // page * page + page
m = mmap.mmap(-1, total)
base = ctypes.addressof((ctypes.c_char * total).from_buffer(m))
assert libc.mprotect(ctypes.c_void_p(base + total - page), page, 0) == 0   # no access
start = (total - page - nbytes) // 64 * 64
b = np.frombuffer(m, dtype=np.float32, count=n * n, offset=start).reshape(n, n)
rng = np.random.default_rng(3)
b[:] = rng.random((n, n), dtype=np.float32)
a = rng.random((n, n), dtype=np.float32)
got = lc.asarray(a, device=dev) @ lc.asarray(b, device=dev)    # b's memory shared, a page after it
assert "gemm engine: clblast (LAZYCL_GEMM=clblast)" in lc.explain(got)
assert np.allclose(np.asarray(got), a @ b, rtol=1e-4, atol=1e-3)
print("ok")
"""


@pytest.mark.parametrize("dev", ["pocl:cpu", "intel:cpu"])
def test_clblast_over_shared_memory_at_a_page_end(dev):
    """CLBlast's transposing copy reads tiles past the end of its source on PoCL (runtime/blas.c):
    an operand in NumPy's memory, shared, ending a page before one that faults, is given to
    CLBlast as a copy with room after it, not as is (which crashed the process)."""
    if not any(d.filter_string.startswith(dev) for d in lazycl.devices()):
        pytest.skip(f"no {dev} device")
    p = _run([sys.executable, "-c", GUARDED, dev], {"LAZYCL_GEMM": "clblast"}, timeout=600)
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), (p.returncode, p.stdout[-2000:],
                                                                  p.stderr[-3000:])
