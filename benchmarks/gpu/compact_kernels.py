"""The GPU compactions' and scans' kernels (issue 32): kernel ms, best of 7 after a warm-up, of
lazycl as imported. Run two builds one after the other (PYTHONPATH) to compare them:

    [N=2**28] [CASES=f32,cumsum] python3 benchmarks/gpu/compact_kernels.py TAG [device]
"""
import os, sys, numpy as np, lazycl as lc
from kernel_time import best_kernels
N = int(os.environ.get("N", 1 << 28))
rng = np.random.default_rng(0)
d = sys.argv[2] if len(sys.argv) > 2 else "nvidia:gpu"
x = lc.asarray(rng.random(N, dtype=np.float32), device=d).compute()
xd = lc.asarray(rng.random(N // 2), device=d).compute()
xl = lc.asarray(rng.integers(0, 100, N // 2), device=d).compute()
xi = lc.asarray(rng.integers(0, 100, N, dtype=np.int32), device=d).compute()
x8 = lc.asarray(rng.integers(0, 100, N, dtype=np.int8), device=d).compute()
m = lc.asarray(rng.random(N) > 0.5, device=d).compute()
cases = {"x[x>0.5] f32": lambda: x[x > 0.5], "x[x>0.9] f32": lambda: x[x > 0.9],
         "(2x+1)[x>0.5] f32": lambda: (x * 2 + 1)[x > 0.5],
         "xd[xd>0.5] f64 2^27": lambda: xd[xd > 0.5], "xl[xl>49] i64 2^27": lambda: xl[xl > 49],
         "xi[xi>49] i32": lambda: xi[xi > 49], "x8[x8>49] i8": lambda: x8[x8 > 49],
         "x[m] bool mask": lambda: x[m], "flatnonzero(m)": lambda: lc.flatnonzero(m),
         "cumsum(x) f32": lambda: lc.cumsum(x), "cumsum(x*x) f32": lambda: lc.cumsum(x * x),
         "cumsum(xi) i32": lambda: lc.cumsum(xi, dtype=np.int32),
         "cumsum(xd) f64": lambda: lc.cumsum(xd)}
sel = os.environ.get('CASES')
for name, f in cases.items():
    if sel and not any(c in name for c in sel.split(',')):
        continue
    tot, ks = best_kernels(f)
    print(f"{sys.argv[1]:6s} {name:22s} kernels {tot:.3f} ms {[round(ms, 3) for _, ms in ks]}",
          flush=True)
