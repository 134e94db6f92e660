"""The GPU sort's kernels by kind (issue 32): where the time of sort / argsort of 2^28 goes.

    python3 benchmarks/gpu/sort_profile.py [device] [n]

Each sort runs 4 times under lc.profile; the best of the last 3 by total kernel time is printed
with its kernels grouped by name suffix (cfirst, count, sred, sscan, sdown, mfirst, move, mlast
on GPUs; first, hist, scan, move, last on CPUs)."""
import sys, collections, numpy as np, lazycl as lc
from kernel_time import best_kernels
dev = sys.argv[1] if len(sys.argv) > 1 else "nvidia:gpu"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 28
x = lc.asarray(np.random.default_rng(0).random(n, dtype=np.float32), device=dev).compute()
xi = lc.asarray(np.random.default_rng(1).integers(0, 2**31, n, dtype=np.int32),
               device=dev).compute()
for name, f in (("sort f32", lambda: lc.sort(x)), ("argsort f32", lambda: lc.argsort(x)),
                ("sort i32", lambda: lc.sort(xi))):
    tot, ks = best_kernels(f, reps=4)
    by = collections.OrderedDict()
    for kname, ms in ks:
        by.setdefault(kname.split("_")[-1], []).append(round(ms, 3))
    print(f"{name}: {tot:.3f} ms", flush=True)
    for k, v in by.items():
        print(f"   {k:8s} {sum(v):.3f} {v}", flush=True)
