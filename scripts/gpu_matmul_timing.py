"""Product timings on the default device against torch and CuPy in the same run (GPU machine):
SGEMM n^2 (n = 8192 by default, or argv[1]), relu(A @ B + b), and norm(Vd @ C, axis=0);
`gpu_matmul_timing.py N sgemm` stops after lazycl's SGEMM."""
import sys

import numpy as np

import lazycl as lc
from gpu_timing import best

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
g = lc.random.default_rng(0)
A = lc.copy(g.standard_normal((n, n), dtype=np.float32))
B = lc.copy(g.standard_normal((n, n), dtype=np.float32))
bias = lc.copy(g.standard_normal((n,), dtype=np.float32))
lc.compute(A, B, bias)
q = A.queue
flop = 2.0 * n ** 3
print(lc.explain(A @ B).splitlines()[0:3], flush=True)
lc.reset_stats()
t = best(lambda: (A @ B).compute(), q.finish)
print(f"lazycl sgemm {n}: {t:.3f} ms = {flop / t / 1e9:.1f} TFLOP/s", flush=True)
if len(sys.argv) > 2 and sys.argv[2] == "sgemm":
    sys.exit(0)
t2 = best(lambda: lc.maximum(A @ B + bias, 0).compute(), q.finish)
lc.reset_stats()
lc.maximum(A @ B + bias, 0).compute()
s = lc.stats()
print(f"lazycl relu(A@B+b) {n}: {t2:.3f} ms ({t2 / t:.3f}x A@B; launches {s['launches']}, "
      f"buffers {s['buffers_allocated'] + s['pool_hits']})", flush=True)
an, bn = np.asarray(A[:256]), np.asarray(B)
err = np.abs(np.asarray((A @ B)[:256]) - an.astype(np.float64) @ bn.astype(np.float64)).max()
print(f"lazycl max abs error vs float64 (256 rows): {err:.3e}", flush=True)
Vd = lc.copy(g.standard_normal((100000, 3), dtype=np.float32))
C = lc.copy(g.standard_normal((3, 4096), dtype=np.float32))
lc.compute(Vd, C)
tn = best(lambda: lc.sqrt(lc.sum((Vd @ C) ** 2, axis=0)).compute(), q.finish)
print(f"lazycl norm(Vd @ C, axis=0): {tn:.3f} ms", flush=True)
try:
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    ta, tb = torch.as_tensor(np.asarray(A), device="cuda"), torch.as_tensor(bn, device="cuda")
    tbias = torch.as_tensor(np.asarray(bias), device="cuda")
    s = torch.cuda.synchronize
    t = best(lambda: ta @ tb, s)
    print(f"torch sgemm {n} (no TF32): {t:.3f} ms = {flop / t / 1e9:.1f} TFLOP/s")
    print(f"torch relu(A@B+b): {best(lambda: torch.relu(ta @ tb + tbias), s):.3f} ms")
    tv, tc = torch.as_tensor(np.asarray(Vd), device="cuda"), torch.as_tensor(np.asarray(C), device="cuda")
    print(f"torch norm(Vd @ C, axis=0): {best(lambda: torch.linalg.norm(tv @ tc, dim=0), s):.3f} ms")
except Exception as e:  # noqa: BLE001
    print("torch:", e)
try:
    import cupy as cp
    ca, cb = cp.asarray(np.asarray(A)), cp.asarray(bn)
    s = cp.cuda.Device().synchronize
    t = best(lambda: ca @ cb, s)
    print(f"cupy sgemm {n}: {t:.3f} ms = {flop / t / 1e9:.1f} TFLOP/s")
except Exception as e:  # noqa: BLE001
    print("cupy:", e)
