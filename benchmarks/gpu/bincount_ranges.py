"""bincount(idx, weights=w, minlength=65536) of 2^28 int64 indices and float32 weights into
float64 bins (issue 32's row), by bin ranges: hand-written kernels beside lazycl's one pass of
global atomics, to see whether fewer global atomics reach the target (half of torch's time).

    python3 benchmarks/gpu/bincount_ranges.py [device] [n] [case ...]

A case is `LB,E,TPG[,RT][,CLOBBER]`: RT passes the ranges and TPG to _acc as arguments,
CLOBBER gives its local atomics a "memory" clobber (as lazycl's atomic.c writes them). Two
launches:
- part: a group of 256 items takes a tile of 256 * E elements and orders it by range (bins
  idx >> LB: 2^(16 - LB) ranges of 2^LB bins) through local memory, writing each element's
  bin within its range (ushort) and its weight (float) into the tile's own place, coalesced,
  and the tile's range offsets;
- acc: a group per (range, TPG tiles) adds its range's weights of those tiles into 2^LB
  float64 bins in local memory (red.shared.add.f64 on NVIDIA), then adds its non-zero bins
  into the output by global atomics: n / (256 * E * TPG) * 65536 of them in all, not n.

Environment switches for the variants tried on an H200 (2026-11-28; kernel ms, 2^28, LB=11,
E=8, TPG=512; part 1.11 and acc 1.09 the baseline):
- FUSED=1: one launch, a group per task, tickets naming part tiles and acc tasks interleaved
  (acc of span s after the parts of span s + LAG), an acc task waiting for its span's tiles:
  2.81-2.89 against 2.20 in two launches (LAG 1, 2, 4; TPG 256, 512, 1024). No overlap.
- ACC2=1 (or `only`, acc2 alone): acc with U tiles' offsets and first 64 elements loaded
  before any add: U=1 1.047, U=2 1.032, U=4 1.22, U=8 1.16. Not bound by load latency.
- ADDK (with ACC2): what acc's adds cost. 1: int64 shared atomics (red.shared.add.u64), 3:
  atom_add on long, 2: float32 shared atomics: 1.036, 1.036, 0.991 (sums wrong: timing
  only); 5: plain shared adds (racy) 0.618; 4: no adds, the values summed in a register
  0.519. So acc is bound by the shared atomics' rate (any type: 2^28 in ~1.03 ms, about one
  a clock per multiprocessor), not by f64's compare-and-swap and not by its loads.
- ACC3=1 (or `only`; NVIDIA only, PTX): no atomics: each of NW3 warps a group its own bins,
  lanes of equal bins in a step taking turns through a tag per bin (vote.sync,
  bar.warp.sync): right, but 3.99 (NW3=2) and 4.37 (NW3=1) at 2^11 bins a range, 2.52-2.83
  at 2^10 (NW3 4, 2): the bins leave room for few warps per multiprocessor, and each step
  waits on the turns.
"""
import os, sys, numpy as np, lazycl as lc

dev = sys.argv[1] if len(sys.argv) > 1 else "nvidia:gpu"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 28
CASES = sys.argv[3:] or ["12,16,256", "12,16,512", "12,16,1024", "12,8,1024", "12,32,512",
                         "11,16,512", "12,16,2048"]
BINS = 65536
rng = np.random.default_rng(0)
ih = rng.integers(0, BINS, N, dtype=np.int64)
wh = rng.random(N, dtype=np.float32)
idx = lc.asarray(ih, device=dev).compute()
w = lc.asarray(wh, device=dev).compute()
ref = np.bincount(ih, weights=wh, minlength=BINS)

SRC = r"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define L 256
#define T (L * E)
#define R (65536 >> LB)
#define RB (1 << LB)
#ifdef CLOBBER
#define CLOB : "memory"
#else
#define CLOB
#endif
static inline void add_local(__local double *p, double v) {
#if defined(cl_nv_pragma_unroll)
    asm volatile("red.shared.add.f64 [%0], %1;" :: "l"((ulong)p), "d"(v) CLOB);
#else
    volatile __local ulong *q = (volatile __local ulong *)p;
    union { ulong u; double t; } o_, n_;
    ulong e_;
    o_.u = 0;
    do { e_ = o_.u; n_.t = o_.t + v; o_.u = atom_cmpxchg(q, e_, n_.u); } while (o_.u != e_);
#endif
}
/* Throughput probes (ADDK): 1 an int64 shared atomic of the value in fixed point, 2 a float32
 * shared atomic (both into the double's bits: timing only, the sums are wrong). */
static inline void add_local_k(__local double *p, double v) {
#if ADDK == 1 && defined(cl_nv_pragma_unroll)
    asm volatile("red.shared.add.u64 [%0], %1;" :: "l"((ulong)p), "l"((long)(v * 1099511627776.0)));
#elif ADDK == 2 && defined(cl_nv_pragma_unroll)
    asm volatile("red.shared.add.f32 [%0], %1;" :: "l"((ulong)p), "f"((float)v));
#elif ADDK == 3
    atom_add((volatile __local long *)p, (long)(v * 1099511627776.0));
#elif ADDK == 5
    *p += v;
#else
    add_local(p, v);
#endif
}
static inline void add_global(__global double *p, double v) {
#if defined(cl_nv_pragma_unroll)
    asm volatile("red.global.add.f64 [%0], %1;" :: "l"(p), "d"(v));
#else
    volatile __global ulong *q = (volatile __global ulong *)p;
    union { ulong u; double t; } o_, n_;
    ulong e_;
    o_.u = 0;
    do { e_ = o_.u; n_.t = o_.t + v; o_.u = atom_cmpxchg(q, e_, n_.u); } while (o_.u != e_);
#endif
}

static inline void part_body(__global const long *restrict idx, __global const float *restrict w,
          __global ushort *plo, __global float *pw, __global uint *toff,
          const long n, const long t, __local uint *c, __local ushort *slo, __local float *sw)
{
    const int lid = get_local_id(0);
    const long base = t * T;
    for (int i = lid; i < R; i += L)
        c[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int rr[E];
    uint sl[E];
    ushort lo[E];
    float wv[E];
    #pragma unroll
    for (int j = 0; j < E; j++) {
        const long i = base + j * L + lid;
        rr[j] = -1;
        if (i < n) {
            const long b = idx[i];
            rr[j] = (int)(b >> LB);
            lo[j] = (ushort)(b & (RB - 1));
            wv[j] = w[i];
        }
    }
    #pragma unroll
    for (int j = 0; j < E; j++)
        if (rr[j] >= 0)
            sl[j] = atomic_inc(&c[rr[j]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {   /* the ranges' offsets in the tile (R is small) */
        uint s = 0;
        for (int r = 0; r < R; r++) {
            const uint v = c[r];
            c[r] = s;
            toff[t * (R + 1) + r] = s;
            s += v;
        }
        toff[t * (R + 1) + R] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int j = 0; j < E; j++)
        if (rr[j] >= 0) {
            const uint p = c[rr[j]] + sl[j];
            slo[p] = lo[j];
            sw[p] = wv[j];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int m = (int)min((long)T, n - base);
    for (int p = lid; p < m; p += L) {
        plo[base + p] = slo[p];
        pw[base + p] = sw[p];
    }
}

__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void part(__global const long *restrict idx, __global const float *restrict w,
          __global ushort *restrict plo, __global float *restrict pw, __global uint *toff,
          const long n)
{
    __local uint c[R];
    __local ushort slo[T];
    __local float sw[T];
    part_body(idx, w, plo, pw, toff, n, get_group_id(0), c, slo, sw);
}

/* Groups (range r, tiles g * TPG ...): warp v takes tiles v, v + 8, ... of them. */
static inline void acc_body(__global const ushort *plo,
                            __global const float *pw,
                            __global const uint *toff, __global double *bins,
                            const long ntiles, const long Rr, const long TPGr, __local double *h,
                            const long r, const long g)
{
#ifdef RT   /* the ranges and the tiles per group as arguments, as lazycl's kernel takes them */
#undef R
#undef TPG
#define R Rr
#define TPG TPGr
#endif
    const int lid = get_local_id(0), lane = lid & 31, wp = lid >> 5;
    for (int i = lid; i < RB; i += L)
        h[i] = 0.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const long t0 = g * TPG, t1 = min(ntiles, t0 + TPG);
    for (long t = t0 + wp; t < t1; t += L / 32) {
        const long beg = t * T + toff[t * (R + 1) + r], end = t * T + toff[t * (R + 1) + r + 1];
        for (long i = beg + lane; i < end; i += 32)
            add_local(&h[plo[i]], (double)pw[i]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < RB; i += L) {
        const double v = h[i];
        if (v != 0.0)
            add_global(&bins[r * RB + i], v);
    }
}

__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void acc(__global const ushort *restrict plo, __global const float *restrict pw,
         __global const uint *restrict toff, __global double *bins, const long ntiles,
         const long Rr, const long TPGr)
{
    __local double h[RB];
    acc_body(plo, pw, toff, bins, ntiles, Rr, TPGr, h, get_group_id(0) % R, get_group_id(0) / R);
}


#ifndef U
#define U 4
#endif
#ifndef ADDK
#define ADDK 0
#endif
#if ADDK == 4
#define ADD(p, v) (acc_ += (v) * (double)(*(p) == 0.0))
#else
#define ADD(p, v) add_local_k(p, v)
#endif
/* acc with more loads in flight: a warp takes U of its tiles a step, reads their offsets,
 * then the first 64 elements of each (2 a lane) before it adds any; the rest after. */
__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void acc2(__global const ushort *restrict plo, __global const float *restrict pw,
          __global const uint *restrict toff, __global double *bins, const long ntiles)
{
    __local double h[RB];
    const int lid = get_local_id(0), lane = lid & 31, wp = lid >> 5;
    const long r = get_group_id(0) % R, g = get_group_id(0) / R;
    for (int i = lid; i < RB; i += L)
        h[i] = 0.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const long t0 = g * TPG, t1 = min(ntiles, t0 + TPG);
    double acc_ = 0.0;
    for (long t = t0 + wp; t < t1; t += U * (L / 32)) {
        uint b[U], e[U];
        #pragma unroll
        for (int u = 0; u < U; u++) {
            const long tt = t + u * (L / 32);
            b[u] = e[u] = 0;
            if (tt < t1) {
                b[u] = toff[tt * (R + 1) + r];
                e[u] = toff[tt * (R + 1) + r + 1];
            }
        }
        ushort p[U][2];
        float v[U][2];
        #pragma unroll
        for (int u = 0; u < U; u++)
            #pragma unroll
            for (int s = 0; s < 2; s++) {
                const uint i = b[u] + lane + 32 * s;
                const long tt = t + u * (L / 32);
                p[u][s] = 0;
                v[u][s] = 0.0f;
                if (i < e[u]) {
                    p[u][s] = plo[tt * T + i];
                    v[u][s] = pw[tt * T + i];
                }
            }
        #pragma unroll
        for (int u = 0; u < U; u++)
            #pragma unroll
            for (int s = 0; s < 2; s++)
                if (b[u] + lane + 32 * s < e[u])
                    ADD(&h[p[u][s]], (double)v[u][s]);
        #pragma unroll
        for (int u = 0; u < U; u++) {
            const long tt = t + u * (L / 32);
            for (uint i = b[u] + 64 + lane; i < e[u]; i += 32)
                ADD(&h[plo[tt * T + i]], (double)pw[tt * T + i]);
        }
    }
#if ADDK == 4
    h[lid] = acc_;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < RB; i += L) {
        const double v = h[i];
        if (v != 0.0)
            add_global(&bins[r * RB + i], v);
    }
}


#ifndef NW3
#define NW3 2
#endif
#define L3 (32 * NW3)
#if defined(cl_nv_pragma_unroll)
static inline int warp_any(const int x) {
    int r;
    asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; vote.sync.any.pred q, p, 0xffffffff; "
                 "selp.s32 %0, 1, 0, q; }" : "=r"(r) : "r"(x));
    return r;
}
static inline void warp_sync(void) { asm volatile("bar.warp.sync 0xffffffff;" ::: "memory"); }
/* acc without atomics: each warp its own RB bins; in a step, lanes of equal bins take turns
 * (each writes its lane into the bin's tag, the one read back adds, the others try again). */
__kernel __attribute__((reqd_work_group_size(L3, 1, 1)))
void acc3(__global const ushort *restrict plo, __global const float *restrict pw,
          __global const uint *restrict toff, __global double *bins, const long ntiles)
{
    __local double h[NW3 * RB];
    __local uchar tg[NW3 * RB];
    const int lid = get_local_id(0), lane = lid & 31, wp = lid >> 5;
    const long r = get_group_id(0) % R, g = get_group_id(0) / R;
    for (int i = lid; i < NW3 * RB; i += L3)
        h[i] = 0.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local double *hw = h + wp * RB;
    __local uchar *tw = tg + wp * RB;
    const long t0 = g * TPG, t1 = min(ntiles, t0 + TPG);
    for (long t = t0 + wp; t < t1; t += NW3) {
        const uint b = toff[t * (R + 1) + r], e = toff[t * (R + 1) + r + 1];
        for (uint k = b; k < e; k += 32) {
            const uint i = k + lane;
            int pend = i < e;
            const int bin = pend ? plo[t * T + i] : 0;
            const double v = pend ? (double)pw[t * T + i] : 0.0;
            while (warp_any(pend)) {
                if (pend)
                    tw[bin] = (uchar)lane;
                warp_sync();
                const int own = pend && tw[bin] == lane;
                if (own) {
                    hw[bin] += v;
                    pend = 0;
                }
                warp_sync();
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < RB; i += L3) {
        double v = 0.0;
        for (int w2 = 0; w2 < NW3; w2++)
            v += h[w2 * RB + i];
        if (v != 0.0)
            add_global(&bins[r * RB + i], v);
    }
}
#endif   /* NVIDIA */

/* The same reading one buffer laid out as lazycl's scratch (toff, then plo, then pw, each
 * part 8-aligned), from byte sbase on. */
__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void acc1(__global const char *restrict scr, const long sbase, __global double *bins,
          const long ntiles, const long Rr, const long TPGr)
{
    __local double h[RB];
    const long boff = (ntiles * (Rr + 1) * 4 + 7) & ~7L;
    acc_body((__global const ushort *)(scr + sbase + boff),
             (__global const float *)(scr + sbase + boff + ((ntiles * T * 2 + 7) & ~7L)),
             (__global const uint *)(scr + sbase), bins, ntiles, Rr, TPGr, h,
             get_group_id(0) % Rr, get_group_id(0) / Rr);
}

/* Copies the three parts into that layout. */
__kernel void pack(__global char *scr, const long sbase, __global const ushort *plo,
                   __global const float *pw, __global const uint *toff, const long ntiles,
                   const long Rr)
{
    const long i = get_global_id(0);
    const long boff = (ntiles * (Rr + 1) * 4 + 7) & ~7L;
    __global ushort *b = (__global ushort *)(scr + sbase + boff);
    __global float *v = (__global float *)(scr + sbase + boff + ((ntiles * T * 2 + 7) & ~7L));
    __global uint *t = (__global uint *)(scr + sbase);
    if (i < ntiles * T) {
        b[i] = plo[i];
        v[i] = pw[i];
    }
    if (i < ntiles * (Rr + 1))
        t[i] = toff[i];
}


#ifndef LAG
#define LAG 2
#endif
static inline void fence_gl(void) {
#if defined(cl_nv_pragma_unroll)
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
    mem_fence(CLK_GLOBAL_MEM_FENCE);
#endif
}
/* One launch, a group per task: tickets (in the order groups start) name part tiles and acc
 * tasks, interleaved so that acc(span s) comes after the parts of span s + LAG; an acc task
 * waits for its span's tiles, which groups started before it hold. */
__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void fused(__global const long *restrict idx, __global const float *restrict w,
           __global ushort *plo, __global float *pw, __global uint *toff, __global double *bins,
           const long n, const long ntiles, __global uint *ctr)
{
    __local uint c[R];
    __local ushort slo[T];
    __local float sw[T];
    __local double h[RB];
    __local uint tk;
    const int lid = get_local_id(0);
    const long spans = (ntiles + TPG - 1) / TPG, lag = min((long)LAG, spans);
    const long total = spans * (TPG + R);
    {
        if (lid == 0)
            tk = atomic_inc(&ctr[0]);
        barrier(CLK_LOCAL_MEM_FENCE);
        const long t = tk;
        long tile = -1, span = -1, r = -1;
        if (t < lag * TPG) {
            tile = t;
        } else {
            const long t2 = t - lag * TPG;
            if (t2 < (spans - lag) * (TPG + R)) {
                const long b = lag + t2 / (TPG + R), wi = t2 % (TPG + R);
                if (wi < TPG)
                    tile = b * TPG + wi;
                else {
                    span = b - lag;
                    r = wi - TPG;
                }
            } else {
                const long t3 = t2 - (spans - lag) * (TPG + R);
                span = spans - lag + t3 / R;
                r = t3 % R;
            }
        }
        if (tile >= 0) {
            if (tile < ntiles) {
                part_body(idx, w, plo, pw, toff, n, tile, c, slo, sw);
                fence_gl();
                barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
                if (lid == 0)
                    atomic_inc(&ctr[1 + tile / TPG]);
            }
        } else {
            const uint need = (uint)min((long)TPG, ntiles - span * TPG);
            if (lid == 0) {
                volatile __global uint *d = (volatile __global uint *)&ctr[1 + span];
                while (*d < need)
                    ;
            }
            fence_gl();
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            acc_body(plo, pw, toff, bins, ntiles, R, TPG, h, r, span);
        }
    }
}

__kernel void zero2(__global double *b, const long n, __global uint *ctr, const long nc)
{
    const long i = get_global_id(0);
    if (i < n) b[i] = 0.0;
    if (i < nc) ctr[i] = 0;
}

__kernel void zero(__global double *b, const long n)
{
    const long i = get_global_id(0);
    if (i < n) b[i] = 0.0;
}
"""


def kernel_ms(f, name=None, reps=7):
    """Best of reps - 1 (after one warm-up): the kernels' ms (those whose names hold `name`)."""
    best = None
    for r in range(reps):
        with lc.profile() as p:
            y = f()
            if y is not None:
                y.compute()
        t = sum(k["ms"] for k in p.kernels
                if k["kind"] == "kernel" and (name is None or name in k["name"]))
        if r and (best is None or t < best):
            best = t
        del y
    return best


t = kernel_ms(lambda: lc.bincount(idx, weights=w, minlength=BINS))
got = np.asarray(lc.bincount(idx, weights=w, minlength=BINS))
print(f"lazycl bincount: {t:.4f} ms  {'right' if np.allclose(got, ref) else 'WRONG'}", flush=True)
bins = lc.empty(BINS, np.float64, device=dev).compute()
for case in CASES:
    LB, E, TPG = map(int, case.split(",")[:3])
    opts = (f"-DLB={LB}", f"-DE={E}", f"-DTPG={TPG}") + tuple(
        "-D" + f for f in case.split(",")[3:])
    T = 256 * E
    ntiles = (N + T - 1) // T
    R = BINS >> LB
    plo = lc.empty(ntiles * T, np.uint16, device=dev).compute()
    pw = lc.empty(ntiles * T, np.float32, device=dev).compute()
    toff = lc.empty(ntiles * (R + 1), np.uint32, device=dev).compute()
    kp = lc.RawKernel(SRC, "part", options=opts)
    ka = lc.RawKernel(SRC, "acc", options=opts)
    kz = lc.RawKernel(SRC, "zero", options=opts)
    ng = R * ((ntiles + TPG - 1) // TPG)

    def run():
        kz((BINS + 255) // 256 * 256, 256, (bins, BINS))
        kp(ntiles * 256, 256, (idx, w, plo, pw, toff, N))
        ka(ng * 256, 256, (plo, pw, toff, bins, ntiles, R, TPG))
    run()
    ok = np.allclose(np.asarray(bins), ref)
    tp = kernel_ms(lambda: (run(), bins)[1], "part")
    ta = kernel_ms(lambda: (run(), bins)[1], "acc")
    tz = kernel_ms(lambda: (run(), bins)[1], "zero")
    def acc_variant(var, kname, local):
        """Launch acc's variant `kname` (groups of `local` items) after part; True where the
        environment says to measure it alone (`var`=only)."""
        kv = lc.RawKernel(SRC, kname, options=opts)

        def runv():
            kz((BINS + 255) // 256 * 256, 256, (bins, BINS))
            kp(ntiles * 256, 256, (idx, w, plo, pw, toff, N))
            kv(ng * local, local, (plo, pw, toff, bins, ntiles))
        runv()
        okv = np.allclose(np.asarray(bins), ref)
        tv = kernel_ms(lambda: (runv(), bins)[1], kname)
        print(f"{case:24s}: {kname} {tv:.4f} ms  {'right' if okv else 'WRONG'}", flush=True)
        return os.environ.get(var) == "only"
    # acc with U tiles' loads in flight a step
    if os.environ.get("ACC2") and acc_variant("ACC2", "acc2", 256):
        continue
    # each warp its own bins, no atomics
    nw3 = int(dict(kv.split("=") for kv in case.split(",")[3:] if "=" in kv).get("NW3", 2))
    if os.environ.get("ACC3") and acc_variant("ACC3", "acc3", 32 * nw3):
        continue
    if os.environ.get("FUSED"):   # one launch, a group per task
        kf = lc.RawKernel(SRC, "fused", options=opts)
        kz2 = lc.RawKernel(SRC, "zero2", options=opts)
        spans = (ntiles + TPG - 1) // TPG
        ctr = lc.empty(1 + spans, np.uint32, device=dev).compute()
        G = spans * (TPG + R)
        def runf():
            kz2((BINS + 255) // 256 * 256, 256, (bins, BINS, ctr, 1 + spans))
            kf(G * 256, 256, (idx, w, plo, pw, toff, bins, N, ntiles, ctr))
        runf()
        okf = np.allclose(np.asarray(bins), ref)
        tf = kernel_ms(lambda: (runf(), bins)[1], "fused")
        print(f"{case:24s}: fused, {G} groups: {tf:.4f} ms  {'right' if okf else 'WRONG'}",
              flush=True)
    if os.environ.get("ONEBUF"):   # _acc reading one buffer as lazycl's scratch, at SBASE
        sb = int(os.environ["ONEBUF"])
        scr = lc.empty(sb + ntiles * (R + 1) * 4 + 8 + ntiles * T * 6 + 16, np.int8,
                       device=dev).compute()
        kpk = lc.RawKernel(SRC, "pack", options=opts)
        ka1 = lc.RawKernel(SRC, "acc1", options=opts)
        kpk((ntiles * T + 255) // 256 * 256, 256, (scr, sb, plo, pw, toff, ntiles, R))
        t1 = kernel_ms(lambda: (kz((BINS + 255) // 256 * 256, 256, (bins, BINS)),
                                ka1(ng * 256, 256, (scr, sb, bins, ntiles, R, TPG)), bins)[2],
                       "acc1")
        print(f"{case:24s}: acc from one buffer at byte {sb}: {t1:.4f} ms", flush=True)
    print(f"{case:24s}: part {tp:.4f} + acc {ta:.4f} + zero {tz:.4f} = "
          f"{tp + ta + tz:.4f} ms ({ng} groups)  {'right' if ok else 'WRONG'}", flush=True)
