"""Per-kernel times of the reduction workloads on the GPU (LAZYCL_DEBUG=2 prints each launch):
    LAZYCL_DEBUG=2 python benchmarks/gpu/kernels_profile.py 2>&1 | grep ms"""
import numpy as np
import lazycl as lc

N = 1 << 28
x = lc.asarray(np.random.default_rng(0).standard_normal(N, dtype=np.float32), device="nvidia:gpu").compute()
X = x.reshape(16384, 16384)
for _ in range(3):
    m = x.max(); e = lc.exp(x - m); (e / e.sum()).compute()
    ((X - X.mean(0)) / X.std(0)).compute()
    lc.cumsum(x * x).compute()
    x.queue.finish()
