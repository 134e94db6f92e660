"""Random timings at 2^28 on the default device, against torch in the same run (GPU machine)."""
import numpy as np

import lazycl as lc
from gpu_timing import best

n = 1 << 28
g = lc.random.default_rng(0)
q = lc.asarray(np.zeros(1, np.float32)).queue
lc.reset_stats()
m = float(lc.mean(g.standard_normal(n, dtype=np.float32) ** 2))
s = lc.stats()
print(f"lazycl mean(normal^2): {best(lambda: float(lc.mean(g.standard_normal(n, dtype=np.float32) ** 2)), q.finish):.3f} ms "
      f"(value {m:.5f}, launches {s['launches']}, buffers {s['buffers_allocated'] + s['pool_hits']})", flush=True)
print(f"lazycl mean(uniform): {best(lambda: float(lc.mean(g.random(n, dtype=np.float32))), q.finish):.3f} ms", flush=True)
print(f"lazycl standard_normal materialized: "
      f"{best(lambda: lc.copy(g.standard_normal(n, dtype=np.float32)).compute(), q.finish):.3f} ms", flush=True)
try:
    import torch
    s = torch.cuda.synchronize
    print(f"torch mean(randn^2): {best(lambda: (torch.randn(n, device='cuda') ** 2).mean().item(), s):.3f} ms")
    print(f"torch randn: {best(lambda: torch.randn(n, device='cuda'), s):.3f} ms")
except Exception as e:  # noqa: BLE001
    print("torch:", e)
