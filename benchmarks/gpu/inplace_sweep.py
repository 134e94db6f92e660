"""The GPU sort's counts' down-sweep in isolation (issue 32): a table of 2^16 tiles x 256 values
(64 MB), scanned along the tiles into another buffer or in place, in segments of 4-256 tiles,
beside a 64-MB copy and the segment sums alone. On the H100 in place was 1.4-14x slower
(docs/benchmarks.md, 2026-11-28, tenth session).

    python3 benchmarks/gpu/inplace_sweep.py [device] [tiles]
"""
import sys, numpy as np, lazycl as lc
dev = sys.argv[1] if len(sys.argv) > 1 else "nvidia:gpu"
B = int(sys.argv[2]) if len(sys.argv) > 2 else 65536
R = 256
rng = np.random.default_rng(0)
cnt_h = rng.integers(0, 32, B * R).astype(np.uint32)
cnt = lc.asarray(cnt_h, device=dev).compute()
out = lc.zeros(B * R, np.uint32, device=dev).compute()
seg = lc.zeros(B * R, np.uint32, device=dev).compute()
bas = lc.zeros(R, np.uint32, device=dev).compute()
SRC = r"""
__kernel void down(__global uint *cnt, __global uint *out, __global const uint *seg,
                   __global const uint *bas, const long B, const long TS)
{
    const int l = get_local_id(0);
    const long q = get_group_id(0), b0 = q * TS, b1 = min(B, b0 + TS);
    uint x = bas[l] + seg[q * R + l];
#if BATCH
#pragma unroll 1
    for (long c0 = b0; c0 < b1; c0 += 16) {
        uint v[16];
        for (int j = 0; j < 16; j++)
            v[j] = c0 + j < b1 ? cnt[(c0 + j) * R + l] : 0;
        for (int j = 0; j < 16; j++) {
            if (c0 + j < b1)
                out[(c0 + j) * R + l] = x;
            x += v[j];
        }
    }
#else
#pragma unroll 16
    for (long b = b0; b < b1; b++) {
        const uint v = cnt[b * R + l];
        out[b * R + l] = x;
        x += v;
    }
#endif
}
__kernel void cp(__global const uint *a, __global uint *o, const long n)
{
    const long i = get_global_id(0);
    if (i < n) o[i] = a[i] + 1;
}
__kernel void red(__global const uint *cnt, __global uint *seg, const long B, const long TS)
{
    const int l = get_local_id(0);
    const long q = get_group_id(0), b0 = q * TS, b1 = min(B, b0 + TS);
    uint s = 0;
#pragma unroll 16
    for (long b = b0; b < b1; b++)
        s += cnt[b * R + l];
    seg[q * R + l] = s;
}
"""
def timeit(f, reps=7):
    best = None
    for r in range(reps):
        with lc.profile() as p:
            f()
            out.compute()
        ks = [k for k in p.kernels if k["kind"] == "kernel"]
        tot = sum(k["ms"] for k in ks)
        if r and (best is None or tot < best):
            best = tot
    return best
cp = lc.RawKernel(SRC, "cp", options=("-DR=256", "-DBATCH=1"))
print(f"copy 64 MB: {timeit(lambda: cp(B * R, 256, (cnt, out, B * R))):.4f} ms", flush=True)
for batch in (1, 0):
    k = lc.RawKernel(SRC, "down", options=("-DR=256", f"-DBATCH={batch}"))
    rd = lc.RawKernel(SRC, "red", options=("-DR=256", f"-DBATCH={batch}"))
    for TS in (4, 16, 64, 256):
        G = (B + TS - 1) // TS
        t1 = timeit(lambda: k(G * 256, 256, (cnt, out, seg, bas, B, TS)))
        t2 = timeit(lambda: k(G * 256, 256, (cnt, cnt, seg, bas, B, TS)))
        t3 = timeit(lambda: rd(G * 256, 256, (cnt, seg, B, TS)))
        print(f"batch {batch} TS {TS:4d} groups {G:6d}: down to out {t1:.4f}, in place {t2:.4f}, "
              f"sums {t3:.4f} ms", flush=True)
