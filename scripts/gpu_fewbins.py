import time, numpy as np, lazycl as lc
N = 2 ** 28
rng = np.random.default_rng(0)
dev = lc.default_device()
print(dev, dev.schedule)
for bins in (16, 256, 4096):
    hi = rng.integers(0, bins, N)
    hw = rng.random(N, dtype=np.float32)
    x, w = lc.asarray(hi), lc.asarray(hw)
    x.compute(); w.compute()
    def run():
        r = lc.bincount(x, w, minlength=bins); r.compute(); return r
    r = run()
    ok = np.allclose(np.asarray(r), np.bincount(hi[:], hw, minlength=bins), rtol=1e-6)
    t = []
    for i in range(5):
        s = time.perf_counter(); run(); t.append(time.perf_counter() - s)
    def run32():
        z = lc.zeros(bins, np.float32); np.add.at(z, x, w); z.compute(); return z
    z = run32()
    ok32 = np.allclose(np.asarray(z), np.bincount(hi, hw, minlength=bins), rtol=1e-3)
    t32 = []
    for i in range(5):
        s = time.perf_counter(); run32(); t32.append(time.perf_counter() - s)
    ci = lc.bincount(x, minlength=bins); ok_i = np.array_equal(np.asarray(ci), np.bincount(hi, minlength=bins))
    line = f"bins {bins}: bincount f64 {min(t)*1e3:.2f} ms ok={ok}; add.at f32 {min(t32)*1e3:.2f} ms ok={ok32}; counts ok={ok_i}"
    try:
        import torch
        ti, tw = torch.from_numpy(hi).cuda(), torch.from_numpy(hw).cuda()
        torch.bincount(ti, tw, minlength=bins); torch.cuda.synchronize()
        tt = []
        for i in range(5):
            s = time.perf_counter(); torch.bincount(ti, tw, minlength=bins); torch.cuda.synchronize(); tt.append(time.perf_counter() - s)
        line += f"; torch {min(tt)*1e3:.2f} ms"
        del ti, tw
    except Exception as e:
        line += f"; torch: {e}"
    print(line, flush=True)
