"""Per-launch times of one sort and one argsort at 2^28 (run with LAZYCL_DEBUG=2)."""
import numpy as np

import lazycl as lc

x = lc.asarray(np.random.default_rng(0).random(1 << 28, dtype=np.float32))
x.compute()
for f in (lc.sort, lc.argsort):
    f(x).compute()          # compile
    print("----", f.__name__, flush=True)
    f(x).compute()
