"""Per-launch times of a 1-d top_k at 2^28 (run with LAZYCL_DEBUG=2)."""
import time

import numpy as np

import lazycl as lc

x = lc.asarray(np.random.default_rng(0).random(1 << 28, dtype=np.float32))
x.compute()
np.asarray(lc.top_k(x, 16).values)
print("----", flush=True)
t0 = time.perf_counter()
np.asarray(lc.top_k(x, 16).values)
print(f"top_k: {(time.perf_counter() - t0) * 1e3:.2f} ms wall", flush=True)
