"""Sort timings on the default device against torch and CuPy in the same run (GPU machine)."""
import time

import numpy as np

import lazycl as lc
from gpu_timing import best

q = lc.asarray(np.zeros(1, np.float32)).queue
for shape in ((1 << 24,), (1 << 28,), (4096, 4096), (16384, 16384)):
    h = np.random.default_rng(0).random(shape, dtype=np.float32)
    x = lc.asarray(h)
    x.compute()
    for name, f in (("sort", lambda: lc.sort(x, axis=-1)), ("argsort", lambda: lc.argsort(x, axis=-1)),
                    ("top_k16", lambda: lc.top_k(x, 16).values)):
        t0 = time.perf_counter()
        r = f()
        r.compute()
        q.finish()
        first = time.perf_counter() - t0
        ms = best(lambda: f().compute(), q.finish)
        ok = "unchecked"
        if h.size <= 1 << 24:
            got = np.asarray(f())
            want = (np.sort(h, axis=-1) if name == "sort" else np.argsort(h, axis=-1, kind="stable")
                    if name == "argsort" else -np.sort(-h, axis=-1)[..., :16])
            ok = np.array_equal(got, want)
        print(f"lazycl {name} {shape}: {ms:.2f} ms (first {first:.1f} s) ok={ok}", flush=True)
    try:
        import torch
        t = torch.from_numpy(h).cuda()
        s = torch.cuda.synchronize
        print(f"torch sort {shape}: {best(lambda: torch.sort(t, dim=-1), s):.2f} ms", flush=True)
        print(f"torch argsort(stable) {shape}: "
              f"{best(lambda: torch.argsort(t, dim=-1, stable=True), s):.2f} ms", flush=True)
        print(f"torch topk16 {shape}: {best(lambda: torch.topk(t, 16, dim=-1), s):.2f} ms", flush=True)
        del t
    except Exception as e:  # noqa: BLE001 - report and go on
        print("torch:", e)
    try:
        import cupy as cp
        c = cp.asarray(h)
        s = cp.cuda.Device().synchronize
        print(f"cupy sort {shape}: {best(lambda: cp.sort(c, axis=-1), s):.2f} ms", flush=True)
        print(f"cupy argsort {shape}: {best(lambda: cp.argsort(c, axis=-1), s):.2f} ms", flush=True)
        del c
    except Exception as e:  # noqa: BLE001
        print("cupy:", e)
