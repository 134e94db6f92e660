import time, numpy as np, lazycl as lc
q = lc.asarray(np.zeros(1, np.float32)).queue
for n in (1 << 24, 1 << 28):
    h = np.random.default_rng(0).random(n, dtype=np.float32)
    x = lc.asarray(h); x.compute()
    for name, f in (("sort", lambda: lc.sort(x)), ("argsort", lambda: lc.argsort(x))):
        t0 = time.perf_counter(); r = f(); r.compute(); q.finish(); first = time.perf_counter() - t0
        ts = []
        for i in range(3):
            t0 = time.perf_counter(); r = f(); r.compute(); q.finish(); ts.append(time.perf_counter() - t0)
        ok = np.array_equal(np.asarray(r), np.sort(h) if name == "sort" else np.argsort(h, kind="stable")) if n <= 1 << 24 else "unchecked"
        print(f"{name} n=2^{n.bit_length()-1}: {min(ts)*1e3:.1f} ms (first {first:.1f} s) ok={ok}", flush=True)
try:
    import torch
    t = torch.rand(1 << 28, device="cuda"); torch.sort(t); torch.cuda.synchronize()
    ts = []
    for i in range(3):
        t0 = time.perf_counter(); torch.sort(t); torch.cuda.synchronize(); ts.append(time.perf_counter() - t0)
    print(f"torch.sort 2^28: {min(ts)*1e3:.1f} ms")
except Exception as e:
    print("torch:", e)
