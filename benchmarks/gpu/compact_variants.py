"""Compaction x[x > 0.5] of 2^28 float32 in one pass (issue 32): hand-written variants beside
lazycl's own kernel and a copy of the same bytes, to see where the time goes (docs/benchmarks.md,
2026-11-28, eleventh session; codegen/scan_lookback.c's quads came of it).

    python3 benchmarks/gpu/compact_variants.py [device] [n] [case ...]

A case is `quads,L,J,VEC,STAGE,MODE` or `ballots,L,E`:
- quads: each item loads J quads of 4 adjacent floats (float4 loads with VEC=1), counts each
  quad's flags in a byte, scans its words byte-wise in its warp, then the tile's (quad, warp)
  counts; STAGE 1 / 2 stages the kept values in local memory for scalar / float4 stores;
  MODE 1 takes the tile's place by an atomic (no look-back, order lost), 3 stores nothing, 5
  stores the same bytes aligned as float2 (results wrong: timing only), 7 as aligned floats;
- ballots: E elements an item at a stride of L, one warp ballot per row of 32.
Every variant takes tiles by ticket and publishes its count for a decoupled look-back.
"""
import sys, numpy as np, lazycl as lc

dev = sys.argv[1] if len(sys.argv) > 1 else "nvidia:gpu"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 28
CASES = sys.argv[3:] or ["quads,256,4,1,0,0", "quads,256,8,1,0,0", "quads,256,8,0,0,0",
                         "quads,256,16,1,0,0", "quads,256,8,1,2,0", "quads,256,8,1,0,1",
                         "quads,256,8,1,0,3", "quads,256,8,1,0,5", "quads,256,8,1,0,7",
                         "ballots,256,16", "ballots,256,24", "ballots,256,32"]
rng = np.random.default_rng(0)
xh = rng.random(N, dtype=np.float32)
x = lc.asarray(xh, device=dev).compute()
ref = xh[xh > 0.5]

SRC = r"""
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define NW (L / 32)
#if defined(cl_nv_pragma_unroll)
static inline uint shfl_up(uint x, int o) {
    uint y;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(y) : "r"(x), "r"(o));
    return y;
}
static inline uint ballot(uint p) {
    uint b;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                 : "=r"(b) : "r"(p));
    return b;
}
#define RD(p) (*(p))
#define WSCAN(s) for (int o = 1; o < 32; o <<= 1) { const uint y = shfl_up(s, o); \
    if (lane >= o) s += y; }
#else
#define RD(p) atom_add((p), (ulong)0)
#define WSCAN(s) for (int o = 1; o < 32; o <<= 1) { sh[lid] = s; barrier(CLK_LOCAL_MEM_FENCE); \
    const uint y = lane >= o ? sh[lid - o] : 0u; barrier(CLK_LOCAL_MEM_FENCE); s += y; }
#endif
#define LB_LOCALS __local uint cp[32 * NEL], lbv[32], lbs[32], lbpre, tk; __local int go;
/* The tile's ticket q. */
#define TICKET() if (lid == 0) tk = atomic_inc(ticket); barrier(CLK_LOCAL_MEM_FENCE); \
    const uint q = tk;
/* Entries ev[] of the tile's NE counts in order (E_ a lane): their exclusive prefixes into
 * cp[], the tile's total published as an aggregate (or its place taken by an atomic). */
#define CHUNKS(ENTRY) { \
    uint ev[NEL], a = 0; \
    for (int k = 0; k < NEL; k++) { const int e = lane * NEL + k; ev[k] = e < NE ? (ENTRY) : 0u; \
        a += ev[k]; } \
    const uint a0 = a; WSCAN(a) uint r = a - a0; \
    if (w == 0) for (int k = 0; k < NEL; k++) { cp[lane * NEL + k] = r; r += ev[k]; } \
    if (lid == 31) { lbv[0] = a; \
        if (MODE == 1 || MODE == 3) { lbpre = atomic_add(ticket + 1, a); go = 0; } \
        else { atom_xchg(lbw + q, ((ulong)(q == 0 ? 2u : 1u) << 32) | a); lbpre = 0; \
               go = q > 0; } } }
/* The look-back: pre, the kept values before the tile; its inclusive count published. */
#define LOOKBACK(TS) \
    long jj = (long)q - 1; barrier(CLK_LOCAL_MEM_FENCE); \
    const uint total = lbv[0]; barrier(CLK_LOCAL_MEM_FENCE); \
    while (go) { \
        if (lid < 32) { const long t = jj - lid; uint vv = 0, ss = 2; \
            if (t >= 0) { ulong a; do { a = RD(lbw + t); ss = (uint)(a >> 32); } while (ss == 0); \
                          vv = (uint)a; } \
            lbv[lid] = vv; lbs[lid] = ss; } \
        barrier(CLK_LOCAL_MEM_FENCE); \
        if (lid == 0) { int k = 0; while (k < 31 && lbs[k] != 2) k++; \
            uint a = lbv[k]; for (int i = k - 1; i >= 0; i--) a += lbv[i]; \
            lbpre += a; go = lbs[k] != 2; } \
        jj -= 32; barrier(CLK_LOCAL_MEM_FENCE); } \
    const uint pre = lbpre; \
    if (lid == 0 && q > 0 && MODE != 1 && MODE != 3) \
        atom_xchg(lbw + q, ((ulong)2u << 32) | (pre + total)); \
    if (lid == 0 && (long)(q + 1) * (TS) >= n) cnt[0] = (int)(pre + total);

__kernel void zero(__global ulong *w, __global uint *t, const long P)
{
    const long i = get_global_id(0);
    if (i < P) w[i] = 0;
    if (i == 0) { t[0] = 0; t[1] = 0; }
}
/* The same bytes as the compaction of half: read n floats, write n / 2. */
__kernel void copy_half(__global const float *x, __global float *o, const long n)
{
    const long i = get_global_id(0);
    if (i * 4 < n) {
        const float4 v = ((__global const float4 *)x)[i];
        ((__global float2 *)o)[i] = (float2)(v.x, v.z);
    }
}
#ifdef J
#define PW ((J + 3) / 4)
#define NE (J * NW)
#define NEL ((NE + 31) / 32)
__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void quads(__global const float *restrict x, __global float *out, __global int *cnt,
           volatile __global ulong *lbw, __global uint *ticket, const long n, const float thr)
{
    __local uint wt[PW * NW];
    LB_LOCALS
#if STAGE
    __local float stg[L * J * 4];
#endif
#if !defined(cl_nv_pragma_unroll)
    __local uint sh[L];
#endif
    const int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
    TICKET()
    const long base = (long)q * (L * J * 4);
    float4 v[J];
    uint f[PW];
    for (int p = 0; p < PW; p++)
        f[p] = 0;
#pragma unroll
    for (int j = 0; j < J; j++) {
        const long i = base + ((long)j * L + lid) * 4;
        if (i + 3 < n) {
#if VEC
            v[j] = ((__global const float4 *)x)[i >> 2];
#else
            v[j] = (float4)(x[i], x[i + 1], x[i + 2], x[i + 3]);
#endif
        } else {
            v[j] = (float4)(i < n ? x[i] : thr, i + 1 < n ? x[i + 1] : thr,
                            i + 2 < n ? x[i + 2] : thr, thr);
        }
        const uint b = (uint)(v[j].x > thr) | (uint)(v[j].y > thr) << 1 |
                       (uint)(v[j].z > thr) << 2 | (uint)(v[j].w > thr) << 3;
        f[j / 4] |= b << (8 * (j % 4));
    }
    uint c[PW], s[PW];
#pragma unroll
    for (int p = 0; p < PW; p++) {
        uint t = f[p] - ((f[p] >> 1) & 0x55555555u);           /* each byte's count */
        t = (t & 0x33333333u) + ((t >> 2) & 0x33333333u);
        s[p] = c[p] = t & 0x0f0f0f0fu;
        WSCAN(s[p])
        if (lane == 31)
            wt[p * NW + w] = s[p];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    CHUNKS((wt[((e / NW) / 4) * NW + e % NW] >> (8 * ((e / NW) % 4))) & 255u)
    LOOKBACK(L * J * 4)
#if MODE == 3
    return;
#elif MODE == 5 || MODE == 7
    {
        __global float *o1 = out + base / 2;
        for (int j = 0; j < J; j++) {
#if MODE == 5
            ((__global float2 *)o1)[j * L + lid] = (float2)(v[j].x, v[j].z);
#else
            o1[(2 * j) * L + lid] = v[j].x;
            o1[(2 * j + 1) * L + lid] = v[j].z;
#endif
        }
        return;
    }
#endif
#if STAGE
#define PUT(r, val) stg[r] = (val)
    const uint o0 = 0;
#else
#define PUT(r, val) out[r] = (val)
    const uint o0 = pre;
#endif
#pragma unroll
    for (int j = 0; j < J; j++) {
        const uint ex = s[j / 4] - c[j / 4];
        const uint fj = (f[j / 4] >> (8 * (j % 4))) & 15u;
        const uint p0 = o0 + cp[j * NW + w] + ((ex >> (8 * (j % 4))) & 255u);
        if (fj & 1u) PUT(p0, v[j].x);
        if (fj & 2u) PUT(p0 + (fj & 1u), v[j].y);
        if (fj & 4u) PUT(p0 + popcount(fj & 3u), v[j].z);
        if (fj & 8u) PUT(p0 + popcount(fj & 7u), v[j].w);
    }
#if STAGE == 1
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = lid; k < total; k += L)
        out[pre + k] = stg[k];
#elif STAGE == 2
    barrier(CLK_LOCAL_MEM_FENCE);
    {
        const uint h = min((4u - (pre & 3u)) & 3u, total), nb = (total - h) / 4, t0 = h + nb * 4;
        if (lid < h)
            out[pre + lid] = stg[lid];
        if (lid < total - t0)
            out[pre + t0 + lid] = stg[t0 + lid];
        __global float4 *o4 = (__global float4 *)(out + pre + h);
        for (uint k = lid; k < nb; k += L) {
            const uint r = h + 4 * k;
            o4[k] = (float4)(stg[r], stg[r + 1], stg[r + 2], stg[r + 3]);
        }
    }
#endif
}
#endif
#ifdef EB
#define NE (EB * NW)
#define NEL ((NE + 31) / 32)
__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void ballots(__global const float *restrict x, __global float *out, __global int *cnt,
             volatile __global ulong *lbw, __global uint *ticket, const long n, const float thr)
{
    __local uint cw[NE];
    LB_LOCALS
#if !defined(cl_nv_pragma_unroll)
    __local uint sh[L], fl[L];
#endif
    const int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
    TICKET()
    const long base = (long)q * (L * EB);
    float v[EB];
    uint fm = 0, b[EB];
#pragma unroll
    for (int j = 0; j < EB; j++) {
        const long i = base + j * L + lid;
        v[j] = i < n ? x[i] : thr;
        fm |= (uint)(v[j] > thr) << j;
    }
#if defined(cl_nv_pragma_unroll)
#pragma unroll
    for (int j = 0; j < EB; j++)
        b[j] = ballot((fm >> j) & 1u);
#else
    fl[lid] = fm;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < EB; j++) {
        b[j] = 0;
        for (int t = 0; t < 32; t++)
            b[j] |= ((fl[(w << 5) + t] >> j) & 1u) << t;
    }
#endif
#pragma unroll
    for (int j = 0; j < EB; j++)
        if (lane == j % 32)
            cw[j * NW + w] = popcount(b[j]);
    barrier(CLK_LOCAL_MEM_FENCE);
    CHUNKS(cw[e])
    LOOKBACK(L * EB)
    const uint lt = (1u << lane) - 1u;
#pragma unroll
    for (int j = 0; j < EB; j++)
        if ((fm >> j) & 1u)
            out[pre + cp[j * NW + w] + popcount(b[j] & lt)] = v[j];
}
#endif
"""
out = lc.empty(N, np.float32, device=dev).compute()
cnt = lc.zeros(1, np.int32, device=dev).compute()
tick = lc.zeros(2, np.uint32, device=dev).compute()


def kernel_ms(f, name, reps=7):
    """Best of reps - 1 (after one warm-up): the kernels whose names hold `name`, in ms."""
    best = None
    for r in range(reps):
        with lc.profile() as p:
            f()
            out.compute()
        t = sum(k["ms"] for k in p.kernels if k["kind"] == "kernel" and name in k["name"])
        if r and (best is None or t < best):
            best = t
    return best


cp = lc.RawKernel(SRC, "copy_half", options=("-DL=256",))
t = kernel_ms(lambda: cp((N // 4 + 255) // 256 * 256, 256, (x, out, N)), "copy_half")
print(f"copy of the same bytes (read n, write n / 2): {t:.4f} ms", flush=True)
best = None
for r in range(7):
    with lc.profile() as p:
        y = x[x > 0.5]
        y.compute()
    t = sum(k["ms"] for k in p.kernels if k["kind"] == "kernel")
    best = t if r and (best is None or t < best) else best
    del y
print(f"lazycl x[x > 0.5]: {best:.4f} ms", flush=True)
for case in CASES:
    kind, *a = case.split(",")
    if kind == "quads":
        L, J, VEC, STAGE, MODE = map(int, a)
        opts, T = (f"-DL={L}", f"-DJ={J}", f"-DVEC={VEC}", f"-DSTAGE={STAGE}",
                   f"-DMODE={MODE}"), L * J * 4
    else:
        L, EB = map(int, a)
        opts, T = (f"-DL={L}", f"-DEB={EB}", "-DMODE=0"), L * EB
    k = lc.RawKernel(SRC, kind, options=opts)
    z = lc.RawKernel(SRC, "zero", options=opts)
    P = (N + T - 1) // T
    lbw = lc.zeros(P, np.uint64, device=dev).compute()

    def run():
        z((P + 255) // 256 * 256, 256, (lbw, tick, P))
        k(P * L, L, (x, out, cnt, lbw, tick, N, np.float32(0.5)))
    t = kernel_ms(run, kind)
    n = int(np.asarray(cnt)[0])
    ok = n == ref.size and np.array_equal(np.asarray(out)[:n], ref)
    print(f"{case:22s} {t:.4f} ms  {'right' if ok else 'WRONG (expected where MODE > 0)'}",
          flush=True)
