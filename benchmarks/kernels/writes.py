"""Hand-written writes: scatter-add (bincount), stencil (jacobi_2d), slice write, compaction."""
import numpy as np

from .context import F64, long_arg, round_up


_BINCOUNT = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void hand_bincount_zero(__global double *restrict out, const long nb)
{
    const long i = get_global_id(0);
    if (i < nb) out[i] = 0.0;
}
__kernel void hand_bincount(__global double *out, __global const long *restrict idx,
                            __global const float *restrict w, const long n)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    volatile __global ulong *p = (volatile __global ulong *)(out + idx[i]);
    const double v = (double)w[i];
    union { ulong u; double d; } o, nw;
    ulong e;
    o.u = *p;
    do {
        e = o.u;
        nw.d = o.d + v;
        o.u = atom_cmpxchg(p, e, nw.u);
    } while (o.u != e);
}
"""


def setup_bincount(ctx, idx, w, nbins):
    """bincount(idx, weights=w, minlength=nbins) as lazycl does it: float64 bins zeroed by one
    kernel, then one work-item per element folds its weight (as double) into its bin with a
    compare-and-swap loop on the bin's 64 bits. Indices trusted (no min/max pass: lazycl reads
    the index's min and max first to size the result and raise on a negative one)."""
    n = idx.size
    out = ctx.alloc((nbins,), F64)
    gz, lz = ctx.map_sizes(nbins)
    g, l = ctx.map_sizes(n)

    src = _BINCOUNT

    def run():
        ctx.launch(src, "hand_bincount_zero", gz, lz, [out, long_arg(nbins)])
        ctx.launch(src, "hand_bincount", g, l, [out, idx, w, long_arg(n)])
        return out
    return run


_JACOBI = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void hand_jacobi(__global double *restrict dst, __global const double *restrict src,
                          const long N)
{
    /* dst[1:-1, 1:-1] = 0.2 * (five-point stencil of src), one item per interior element */
    const long j = get_global_id(0) + 1, i = get_global_id(1) + 1;
#ifdef GUARD
    if (i >= N - 1 || j >= N - 1) return;
#endif
    const long k = i * N + j;
    dst[k] = 0.2 * (src[k] + src[k - 1] + src[k + 1] + src[k + N] + src[k - N]);
}
"""


def setup_jacobi(ctx, A, B, steps):
    """npbench jacobi_2d: per step two launches of a five-point stencil kernel (B from A, then
    A from B), in place in the given arrays, as the Python code does."""
    N = A.shape[0]
    m = N - 2
    if ctx.gpu:
        g, l = (round_up(m, 256), m), (256, 1)
    else:
        g, l = (m, m), None

    src = ("#define GUARD\n" if ctx.gpu else "") + _JACOBI  # (PoCL: no early return)

    def run():
        for _ in range(steps):
            ctx.launch(src, "hand_jacobi", g, l, [B, A, long_arg(N)])
            ctx.launch(src, "hand_jacobi", g, l, [A, B, long_arg(N)])
        return A
    return run


_SLICEWRITE = """__kernel void hand_slicewrite(__global float *restrict x, __global const float *restrict y,
                              const long start, const long step, const long n)
{
    const long i = get_global_id(0);
#ifdef GUARD
    if (i >= n) return;
#endif
    x[start + i * step] = y[i];
}
"""


def setup_slicewrite(ctx, x, y, start, step):
    """x[start::step][:len(y)] = y: one item per element written (the slice's cost only)."""
    n = y.size
    g, l = ctx.map_sizes(n)

    src = ("#define GUARD\n" if ctx.gpu else "") + _SLICEWRITE  # (PoCL: no early return)

    def run():
        ctx.launch(src, "hand_slicewrite", g, l, [x, y, long_arg(start), long_arg(step), long_arg(n)])
        return x
    return run


_COMPACT = """__kernel void hand_compact_count(__global long *restrict cnt, __global const float *restrict x,
                                 const long n, const long chunk)
{
    const long p = get_global_id(0);
    long i = p * chunk;
    const long end = min(n, i + chunk);
    int8 c8 = 0;                        /* a true comparison is -1 in each lane */
    for (; i + 8 <= end; i += 8)
        c8 += vload8(0, x + i) > 0.5f;
    long c = -(long)(c8.s0 + c8.s1 + c8.s2 + c8.s3 + c8.s4 + c8.s5 + c8.s6 + c8.s7);
    for (; i < end; i++)
        c += x[i] > 0.5f;
    cnt[p] = c;
}
__kernel void hand_compact_write(__global float *restrict out, __global const float *restrict x,
                                 __global const long *restrict cnt, const long n, const long chunk)
{
    const long p = get_global_id(0);
    long o = 0;
    for (long q = 0; q < p; q++) o += cnt[q];
    const long oend = o + cnt[p];
    long i = p * chunk;
    const long end = min(n, i + chunk);
    for (; i < end && o < oend; i++) { /* write each element at the slot, advance on a keep */
        const float v = x[i];
        out[o] = v;
        o += v > 0.5f;
    }
}
"""


def setup_compaction(ctx, x):
    """x[x > 0.5] on a CPU device: a chunk per work-item (ctx.chunks chunks) counts its keeps
    (float8 compares), the host reads the counts (the result's length, as lazycl reads its
    count), then each chunk writes its keeps at the sum of the counts before it, branch-free
    (every element is written at the current slot, which advances on a keep, until the chunk's
    last keep). Not written for GPUs (one item per long chunk is no GPU compaction)."""
    if ctx.gpu:
        raise NotImplementedError("hand-written compaction is CPU-only (chunk per work-item)")
    n = x.size
    P = ctx.chunks
    chunk = round_up((n + P - 1) // P, 8)
    cnt = ctx.alloc((P,), np.int64)
    out = ctx.alloc((n,))

    src = _COMPACT

    def run():
        ctx.launch(src, "hand_compact_count", (P,), (1,), [cnt, x, long_arg(n), long_arg(chunk)])
        total = int(np.asarray(cnt).sum())
        ctx.launch(src, "hand_compact_write", (P,), (1,), [out, x, cnt, long_arg(n), long_arg(chunk)])
        return out[:total]
    return run
